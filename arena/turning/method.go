// Package turning finds where a lost game was lost: the first move of the
// losing agent after which a reference search says its position went from
// not lost to lost, with the better move the search found there. The
// reference is the game's exact solver where it has one, else the house
// strong bot's search, bounded by nodes and depth (never the clock) so
// that an analysis gives the same answer on any machine.
package turning

import (
	"context"
	"fmt"

	"arena/agents/housebots"
	"arena/agents/housebots/bohnenspiel"
	"arena/agents/housebots/cachex"
	"arena/agents/housebots/dotsboxes"
	"arena/agents/housebots/hexcrossout"
	"arena/agents/housebots/pentagotwist"
	"arena/engine"
)

// Judge analyses one position for the side to move.
type Judge func(ctx context.Context, st engine.State) (housebots.Analysis, error)

// Method is the reference search of one game, told for people.
type Method struct {
	Name string // e.g. "exact misère solver"
	// Solver is set when the method decides positions exactly whenever it
	// finishes within its bounds (a solver), not only in endgames.
	Solver bool
	Bounds housebots.Bounds
	Judge  Judge
}

// Describe says what searched and within which bounds.
func (m Method) Describe() string {
	s := m.Name
	if m.Bounds.Nodes > 0 {
		s += fmt.Sprintf(", at most %d nodes per position", m.Bounds.Nodes)
	}
	if m.Bounds.Depth > 0 && !m.Solver {
		s += fmt.Sprintf(", at most %d plies deep", m.Bounds.Depth)
	}
	return s
}

// DefaultBounds are the bounds of an analysis when none are given: the
// node bound decides the time an analysis takes, the depth bound only
// keeps iterative deepening finite.
var DefaultBounds = housebots.Bounds{Nodes: 200_000, Depth: 64}

// analyse is a house bot's analysis of one position.
type analyse func(ctx context.Context, st engine.State, p engine.Params, b housebots.Bounds) (housebots.Analysis, error)

// paramless adapts an analysis that needs no game parameters.
func paramless(f func(context.Context, engine.State, housebots.Bounds) (housebots.Analysis, error)) analyse {
	return func(ctx context.Context, st engine.State, _ engine.Params, b housebots.Bounds) (housebots.Analysis, error) {
		return f(ctx, st, b)
	}
}

// references are the games' reference searches.
func references() map[string]Method {
	const ab = "the house strong bot's alpha-beta search (one thread, no random tie-breaks)"
	return map[string]Method{
		"hex-crossout":   {Name: "the house strong bot's exact misère solver (MCTS estimates where it does not finish)", Solver: true},
		"bohnenspiel":    {Name: ab},
		"cachex":         {Name: ab},
		"pentago-twist":  {Name: ab},
		"dots-and-boxes": {Name: ab + " with the chain arithmetic at its leaves"},
	}
}

func analyses() map[string]analyse {
	return map[string]analyse{
		"hex-crossout":   paramless(hexcrossout.Analyse),
		"bohnenspiel":    paramless(bohnenspiel.Analyse),
		"cachex":         paramless(cachex.Analyse),
		"pentago-twist":  paramless(pentagotwist.Analyse),
		"dots-and-boxes": dotsboxes.Analyse,
	}
}

// For returns the reference search of game (with parameters p) within
// bounds b.
func For(game string, p engine.Params, b housebots.Bounds) (Method, error) {
	m, ok := references()[game]
	f := analyses()[game]
	if !ok || f == nil {
		return Method{}, fmt.Errorf("no reference search for game %q", game)
	}
	m.Bounds = b
	m.Judge = func(ctx context.Context, st engine.State) (housebots.Analysis, error) { return f(ctx, st, p, b) }
	return m, nil
}
