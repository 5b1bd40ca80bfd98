package dotsboxes

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"time"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// geomFor builds the geometry for the game's parameters.
func geomFor(g agentapi.Game) (*geom, error) { return geomOf(engine.Params(g.Params)) }

// geomOf builds the geometry for the parameters rows and cols.
func geomOf(p engine.Params) (*geom, error) {
	rows, err := p.Int("rows", 5)
	if err != nil {
		return nil, err
	}
	cols, err := p.Int("cols", 5)
	if err != nil {
		return nil, err
	}
	return newGeom(rows, cols)
}

// BaselineOptions are the options of the baseline bot.
var BaselineOptions = []housebots.OptionDoc{
	housebots.Opt("ties", "35", "root ties above this many are broken by MCTS"),
	housebots.Opt("sims", "40", "MCTS simulations for the tie-break"),
}

// BaselineDoc says where the baseline comes from.
const BaselineDoc = "the CS4386 2020 report's agent: negamax with alpha-beta in line order (no ordering, no table), an extra turn keeping the " +
	"window and the sign; depth by undrawn lines m (m ≤ 6: to the end; 7–8: 5; 9–10: 4; 11–18: 3; else 2); leaves scored by the " +
	"\"take chains\" simulation (draw the missing side of a random three-sided box until none is left, then the box difference); " +
	"root moves equal to the best value collected, and more than 35 of them broken by 40 UCB1 simulations with random playouts; " +
	"else the first. Simplification: the tie-break's simulations grow no tree below the root moves"

// Baseline builds the report's agent.
func Baseline(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("baseline", BaselineOptions)
	if err != nil {
		return nil, err
	}
	ties, err := o.Int("ties", 35, 1, 1000)
	if err != nil {
		return nil, err
	}
	sims, err := o.Int("sims", 40, 1, 1000000)
	if err != nil {
		return nil, err
	}
	return &baseline{clk: clk, ties: ties, sims: sims, rng: housebots.Rand(seed)}, nil
}

type baseline struct {
	clk        housebots.Clock
	g          *geom
	ties, sims int
	rng        *rand.Rand
	deadline   time.Time
	nodes      int
	late       bool
}

func (b *baseline) Start(_ context.Context, g agentapi.Game) error {
	geo, err := geomFor(g)
	b.g = geo
	return err
}

// depthFor is the report's schedule.
func depthFor(m int) int {
	switch {
	case m <= 6:
		return m
	case m <= 8:
		return 5
	case m <= 10:
		return 4
	case m <= 18:
		return 3
	}
	return 2
}

func (b *baseline) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	p, err := fromEngine(b.g, t.State)
	if err != nil {
		return "", err
	}
	moves := p.LegalMoves(nil)
	if len(moves) == 0 {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	b.deadline, b.late, b.nodes = b.clk.Limits(t, 0).Deadline, false, 0
	depth := depthFor(len(moves))
	best := math.Inf(-1)
	var ties []engine.Move
	alpha, beta := math.Inf(-1), math.Inf(1)
	for _, m := range moves {
		c := *p
		c.Apply(m)
		var v float64
		if c.toMove == p.toMove {
			v = b.negamax(&c, depth-1, max(alpha, best), beta)
		} else {
			v = -b.negamax(&c, depth-1, -beta, -max(alpha, best))
		}
		if b.late {
			break // the clock: keep what the moves searched so far say
		}
		switch {
		case v > best:
			best, ties = v, append(ties[:0], m)
		case v == best:
			ties = append(ties, m)
		}
	}
	choice := moves[0]
	if len(ties) > 0 {
		choice = ties[0]
	}
	if len(ties) > b.ties {
		choice = b.tieBreak(p, ties)
	}
	return p.FormatMove(choice), nil
}

// negamax is the report's search: the value for the side to move.
func (b *baseline) negamax(p *pos, depth int, alpha, beta float64) float64 {
	b.nodes++
	if b.nodes&255 == 0 && time.Now().After(b.deadline) {
		b.late = true
	}
	if depth <= 0 || p.Terminal() || b.late {
		return b.simulate(p)
	}
	best := math.Inf(-1)
	for free := p.g.all &^ p.drawn; free != 0; free &= free - 1 {
		c := *p
		c.Apply(engine.Move(bits.TrailingZeros64(free)))
		var v float64
		if c.toMove == p.toMove {
			v = b.negamax(&c, depth-1, max(alpha, best), beta)
		} else {
			v = -b.negamax(&c, depth-1, -beta, -max(alpha, best))
		}
		best = max(best, v)
		if best >= beta {
			break
		}
	}
	return best
}

// simulate takes random three-sided boxes until none is left and returns
// the box difference for the side to move (who never changes here).
func (b *baseline) simulate(p *pos) float64 {
	q := *p
	var three []int
	for {
		three = three[:0]
		for k := range q.g.boxLines {
			if q.sides(k) == 3 {
				three = append(three, k)
			}
		}
		if len(three) == 0 {
			break
		}
		k := three[b.rng.IntN(len(three))]
		q.Apply(engine.Move(bits.TrailingZeros64(q.g.boxLines[k] &^ q.drawn)))
	}
	return float64(q.scores[p.toMove] - q.scores[1-p.toMove])
}

// tieBreak runs UCB1 (C = √2, a draw ½) over the tied root moves with
// uniformly random playouts and returns the best win rate.
func (b *baseline) tieBreak(p *pos, ties []engine.Move) engine.Move {
	wins := make([]float64, len(ties))
	visits := make([]float64, len(ties))
	me := p.toMove
	for n := 0; n < b.sims; n++ {
		i := n
		if n >= len(ties) {
			i = 0
			bestU := math.Inf(-1)
			for j := range ties {
				u := wins[j]/visits[j] + math.Sqrt2*math.Sqrt(math.Log(float64(n))/visits[j])
				if u > bestU {
					i, bestU = j, u
				}
			}
		}
		q := *p
		q.Apply(ties[i])
		for !q.Terminal() {
			free := q.g.all &^ q.drawn
			k := b.rng.IntN(bits.OnesCount64(free))
			for ; k > 0; k-- {
				free &= free - 1
			}
			q.Apply(engine.Move(bits.TrailingZeros64(free)))
		}
		visits[i]++
		switch r := q.Result(); {
		case r.Draw:
			wins[i] += 0.5
		case r.Winner == me:
			wins[i]++
		}
	}
	best := 0
	for j := range ties {
		if visits[j] > 0 && (visits[best] == 0 || wins[j]/visits[j] > wins[best]/visits[best]) {
			best = j
		}
	}
	return ties[best]
}

// StrongOptions are the options of the strong bot.
var StrongOptions = []housebots.OptionDoc{
	housebots.Opt("tt", "64", "transposition table size in MiB"),
}

// StrongDoc describes the strong bot.
const StrongDoc = "iterative-deepening PVS alpha-beta over a 64-bit line set with a transposition table, killer and history ordering " +
	"(extra turns keep the sign); at the leaves the side to move first takes every box on offer, then a position with no safe line " +
	"left is split into chains and loops and valued exactly by the control arithmetic (the opener's opponent takes all, or all but " +
	"two of a chain / four of a loop with a double-cross, whichever is better for them); other leaves count boxes"

// Strong builds the strong bot.
func Strong(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("strong", StrongOptions)
	if err != nil {
		return nil, err
	}
	mb, err := o.Int("tt", 64, 1, 400)
	if err != nil {
		return nil, err
	}
	s := &strong{clk: clk, chains: newChainSolver()}
	s.ab = search.AlphaBeta{Eval: s.eval, Terminal: margin, TT: search.NewTT(mb), Rand: housebots.Rand(seed)}
	return s, nil
}

type strong struct {
	clk    housebots.Clock
	g      *geom
	ab     search.AlphaBeta
	chains *chainSolver
}

func (s *strong) Start(_ context.Context, g agentapi.Game) error {
	geo, err := geomFor(g)
	s.g = geo
	s.ab.Threads = s.clk.ThreadsFor(g)
	return err
}

func (s *strong) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	p, err := fromEngine(s.g, t.State)
	if err != nil {
		return "", err
	}
	r := s.ab.Search(ctx, p, s.clk.Limits(t, 0))
	if !r.OK {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	return p.FormatMove(r.Move), nil
}

// margin scores a finished game by boxes.
func margin(st engine.State, me int) float64 {
	sc := st.Scores()
	return float64(sc[me] - sc[1-me])
}

// eval takes what is on offer, then values chain positions exactly.
func (s *strong) eval(st engine.State, me int) float64 {
	q := *st.(*pos)
	for c := q.capturable(); c != 0 && !q.Terminal(); c = q.capturable() {
		q.Apply(engine.Move(bits.TrailingZeros64(c)))
	}
	if q.Terminal() {
		return margin(&q, me)
	}
	mover := q.toMove
	v := float64(q.scores[mover] - q.scores[1-mover])
	if !q.safe() {
		if chains, loops, ok := q.components(); ok {
			v += s.chains.value(chains, loops)
		}
	}
	if mover != me {
		v = -v
	}
	return v
}

// Analyse is the strong bot's search on st (a game with parameters p)
// within bounds b, for post-game analysis: the same evaluation, one
// thread, no random tie-breaks.
func Analyse(ctx context.Context, st engine.State, p engine.Params, b housebots.Bounds) (housebots.Analysis, error) {
	g, err := geomOf(p)
	if err != nil {
		return housebots.Analysis{}, err
	}
	q, err := fromEngine(g, st)
	if err != nil {
		return housebots.Analysis{}, err
	}
	s := &strong{g: g, chains: newChainSolver()}
	s.ab = search.AlphaBeta{Eval: s.eval, Terminal: margin, TT: search.NewTT(4)}
	return housebots.FromSearch(q, s.ab.Search(ctx, q, b.Limits())), nil
}
