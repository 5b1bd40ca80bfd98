// Package builtin holds the built-in agents the arena can host itself:
// random (uniform over legal moves), greedy (best immediate gain), and the
// house bots with a method per game (baseline: the course report's own
// agent; strong: search plus game knowledge), which take options as
// "builtin:NAME?key=value". Each runs in its own agent process, one per
// game, like any other agent.
package builtin

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
)

// Factory builds a fresh agent for one game.
type Factory func() agentapi.Agent

// Agents lists the built-in agents by name (house bots with their
// default options).
func Agents() map[string]Factory {
	m := map[string]Factory{
		"random": func() agentapi.Agent { return &Random{} },
		"greedy": func() agentapi.Agent { return &Greedy{} },
	}
	for name := range House() {
		m[name] = func() agentapi.Agent { return &house{name: name, opts: housebots.Options{}} }
	}
	return m
}

// Names lists the built-in agents, sorted.
func Names() []string {
	m := Agents()
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// New builds the named built-in agent; ref is "NAME" or, for the house
// bots, "NAME?key=value&...".
func New(ref string) (agentapi.Agent, error) {
	name, opts, err := splitRef(ref)
	if err != nil {
		return nil, err
	}
	if _, ok := House()[name]; ok {
		return newHouse(name, opts)
	}
	f, ok := Agents()[name]
	if !ok {
		return nil, fmt.Errorf("no built-in agent %q (built-ins: %s)", name, strings.Join(Names(), ", "))
	}
	if len(opts) > 0 {
		return nil, fmt.Errorf("built-in agent %q takes no options", name)
	}
	return f(), nil
}

// seeded returns the agent's generator for a game.
func seeded(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0xa5a5a5a5deadbeef))
}

// Random plays uniformly at random among the legal moves.
type Random struct {
	rng *rand.Rand
}

// Describe names the agent.
func (*Random) Describe() agentapi.Description {
	return agentapi.Description{Name: "random", Description: "uniformly random legal moves (seeded)"}
}

// Start seeds the generator from the game.
func (r *Random) Start(_ context.Context, g agentapi.Game) error {
	r.rng = seeded(g.Seed)
	return nil
}

// Move picks a legal move.
func (r *Random) Move(_ context.Context, t agentapi.Turn) (string, error) {
	if len(t.Legal) == 0 {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	if r.rng == nil {
		r.rng = seeded(0)
	}
	return t.Legal[r.rng.IntN(len(t.Legal))], nil
}

// Greedy plays the move with the best immediate gain for the mover: a win
// first, then the largest score gain (games with scores) or the best static
// evaluation (games without); ties are broken by a seeded generator.
type Greedy struct {
	rng *rand.Rand
	buf []engine.Move
}

// Describe names the agent.
func (*Greedy) Describe() agentapi.Description {
	return agentapi.Description{Name: "greedy", Description: "best immediate gain; seeded tie-breaks"}
}

// Start seeds the generator from the game.
func (g *Greedy) Start(_ context.Context, gm agentapi.Game) error {
	g.rng = seeded(gm.Seed)
	return nil
}

// Move picks the best move by one-ply lookahead.
func (g *Greedy) Move(_ context.Context, t agentapi.Turn) (string, error) {
	if g.rng == nil {
		g.rng = seeded(0)
	}
	m, ok := GreedyMove(t.State, g.rng, &g.buf)
	if !ok {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	return t.State.FormatMove(m), nil
}

// GreedyMove is the greedy choice for the side to move in st.
func GreedyMove(st engine.State, rng *rand.Rand, buf *[]engine.Move) (engine.Move, bool) {
	me := st.ToMove()
	*buf = st.LegalMoves((*buf)[:0])
	if len(*buf) == 0 {
		return 0, false
	}
	before := st.Scores()
	best := math.Inf(-1)
	var choice engine.Move
	ties := 0
	for _, m := range *buf {
		c := st.Clone()
		c.Apply(m)
		v := value(c, me, before)
		switch {
		case v > best:
			best, choice, ties = v, m, 1
		case v == best:
			// Reservoir sampling: each tied move is equally likely.
			ties++
			if rng.IntN(ties) == 0 {
				choice = m
			}
		}
	}
	return choice, true
}

func value(c engine.State, me int, before [2]int) float64 {
	if c.Terminal() {
		r := c.Result()
		switch {
		case r.Draw:
			return 0
		case r.Winner == me:
			return 1e9
		default:
			return -1e9
		}
	}
	after := c.Scores()
	gain := float64((after[me] - before[me]) - (after[1-me] - before[1-me]))
	if gain == 0 {
		if e, ok := c.(engine.Evaluator); ok {
			// A tiny weight: evaluation only separates moves of equal gain.
			return e.Evaluate(me) * 1e-6
		}
	}
	return gain
}
