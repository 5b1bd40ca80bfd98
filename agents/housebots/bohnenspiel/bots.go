// Package bohnenspiel holds the Bohnenspiel house bots: the course
// report's depth-9 alpha-beta ("baseline") and a deeper searcher
// ("strong").
package bohnenspiel

import (
	"context"
	"fmt"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// pits reads the 12 pit counts from the canonical board text
// "a0,...,a5|b0,...,b5|skip=...". Bots read positions only through the
// engine's public text, so they keep working whatever the engine's
// internal layout.
func pits(st engine.State) (p [12]int) {
	text := st.Text()
	i, k := 0, 0
	for i < len(text) && k < 12 {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			p[k] = p[k]*10 + int(c-'0')
		case c == ',' || c == '|':
			k++
		default:
			return p
		}
		i++
	}
	return p
}

// BaselineOptions are the options of the baseline bot.
var BaselineOptions = []housebots.OptionDoc{
	housebots.Opt("depth", "9", "search depth in plies, the root move included"),
	housebots.Opt("danger", "all", "whose pits the danger term counts: all (12 pits) or own (the agent's 6)"),
}

// BaselineDoc says where the baseline comes from.
const BaselineDoc = "the COMP424 2017 report's agent: fixed-depth-9 alpha-beta (root move included), every root move with a fresh window, " +
	"evaluation 0.7·(score difference) + 0.3·(seed difference on the rows) − 1.0·(pits holding 1, 3 or 5 seeds), finished games scored the same way; " +
	"no ordering, no table. Deviation: it stops early, with the best move of the deepest completed depth, if the clock runs short"

// Baseline builds the report's agent.
func Baseline(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("baseline", BaselineOptions)
	if err != nil {
		return nil, err
	}
	depth, err := o.Int("depth", 9, 1, 30)
	if err != nil {
		return nil, err
	}
	danger, err := o.Choice("danger", "all", "own")
	if err != nil {
		return nil, err
	}
	eval := func(st engine.State, me int) float64 { return reportEval(st, me, danger == "own") }
	return &baseline{clk: clk, ab: search.AlphaBeta{Eval: eval, Terminal: eval, NoTT: true, NoPVS: true}, depth: depth}, nil
}

// reportEval is the report's linear evaluation for seat me.
func reportEval(st engine.State, me int, ownOnly bool) float64 {
	p := pits(st)
	sc := st.Scores()
	var own, opp, danger int
	for i := 0; i < 12; i++ {
		if i/6 == me {
			own += p[i]
		} else {
			opp += p[i]
		}
		if (!ownOnly || i/6 == me) && (p[i] == 1 || p[i] == 3 || p[i] == 5) {
			danger++
		}
	}
	return 0.7*float64(sc[me]-sc[1-me]) + 0.3*float64(own-opp) - 1.0*float64(danger)
}

type baseline struct {
	clk   housebots.Clock
	ab    search.AlphaBeta
	depth int
}

func (b *baseline) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	lim := b.clk.Limits(t, 0)
	lim.MaxDepth = b.depth
	lim.Soft = lim.Deadline // the report searched to its full depth
	return housebots.Format(t, b.ab.Search(ctx, t.State, lim))
}

// StrongOptions are the options of the strong bot.
var StrongOptions = []housebots.OptionDoc{
	housebots.Opt("tt", "16", "transposition table size in MiB"),
}

// StrongDoc describes the strong bot.
const StrongDoc = "iterative-deepening PVS alpha-beta over its own compact board (no allocation per node), with a transposition table " +
	"kept for the whole game and killer/history ordering; the report's evaluation (0.7·score difference + 0.3·seed difference − " +
	"pits holding 1, 3 or 5) at the leaves, but finished games and a majority of the 72 seeds count as wins or losses by the margin, " +
	"so endgames are searched exactly, several plies deeper than the baseline"

// Strong builds the strong bot.
func Strong(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("strong", StrongOptions)
	if err != nil {
		return nil, err
	}
	mb, err := o.Int("tt", 16, 1, 400)
	if err != nil {
		return nil, err
	}
	s := &strong{clk: clk}
	s.ab = search.AlphaBeta{Eval: strongEval, Terminal: terminal, TT: search.NewTT(mb), Rand: housebots.Rand(seed)}
	return s, nil
}

type strong struct {
	clk housebots.Clock
	ab  search.AlphaBeta
}

func (s *strong) Start(_ context.Context, g agentapi.Game) error {
	s.ab.Threads = s.clk.ThreadsFor(g)
	return nil
}

func (s *strong) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	p, err := fromEngine(t.State)
	if err != nil {
		return "", err
	}
	lim := s.clk.Limits(t, 0)
	// Depth is what wins here: keep deepening to the deadline. An
	// iteration cut short still counts where a move beat the previous
	// best, which is searched first.
	lim.Soft = lim.Deadline
	r := s.ab.Search(ctx, p, lim)
	if !r.OK {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	return p.FormatMove(r.Move), nil
}

// terminal is a win or loss by the final margin (a draw is 0).
func terminal(st engine.State, me int) float64 {
	sc := st.Scores()
	d := float64(sc[me] - sc[1-me])
	switch {
	case d > 0:
		return search.Win + d
	case d < 0:
		return -search.Win + d
	}
	return 0
}

// strongEval is the report's evaluation on the compact board, with a
// decided majority counted as nearly a win.
func strongEval(st engine.State, me int) float64 {
	p := st.(*pos)
	sc := p.scores
	switch {
	case sc[me] > 36:
		return search.Win/4 + float64(sc[me]-sc[1-me])
	case sc[1-me] > 36:
		return -search.Win/4 + float64(sc[me]-sc[1-me])
	}
	var own, opp, danger int
	for i, v := range p.pits {
		if i/6 == me {
			own += int(v)
		} else {
			opp += int(v)
		}
		if v == 1 || v == 3 || v == 5 {
			danger++
		}
	}
	return 0.7*float64(sc[me]-sc[1-me]) + 0.3*float64(own-opp) - float64(danger)
}

// Analyse is the strong bot's search on st within bounds b, for post-game
// analysis: the same evaluation, one thread, no random tie-breaks.
func Analyse(ctx context.Context, st engine.State, b housebots.Bounds) (housebots.Analysis, error) {
	p, err := fromEngine(st)
	if err != nil {
		return housebots.Analysis{}, err
	}
	ab := search.AlphaBeta{Eval: strongEval, Terminal: terminal, TT: search.NewTT(4)}
	return housebots.FromSearch(p, ab.Search(ctx, p, b.Limits())), nil
}
