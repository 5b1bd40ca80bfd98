package hexcrossout

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"time"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// freeSet reads which of the model's cells are still free.
func (m *model) freeSet(text string) uint64 {
	rows := strings.Split(text, "/")
	var free uint64
	for i, c := range m.cells {
		if c.y < len(rows) && c.x < len(rows[c.y]) && rows[c.y][c.x] == '.' {
			free |= 1 << i
		}
	}
	return free
}

// BaselineOptions are the options of the baseline bot.
var BaselineOptions = []housebots.OptionDoc{
	housebots.Opt("c", "0.5", "UCT exploration constant"),
	housebots.Opt("endgame", "on", "the report's parity endgame rule: on or off"),
}

// BaselineDoc says where the baseline comes from.
const BaselineDoc = "the NYCU 2023 report's agent: plain UCT MCTS with c = 0.5, all moves listed and shuffled on a node's first visit, " +
	"random playouts to the end, the most visited root move, no tree reuse; at the root, the parity endgame rule when the free cells are " +
	"single cells plus one straight run of 2 or 3 (or two runs of 2 and some singles). Deviations: playouts use the referee's random-move " +
	"distribution, and it thinks for the `time` fraction of the limit instead of 5.9 s of 6 s"

// Baseline builds the report's agent.
func Baseline(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("baseline", BaselineOptions)
	if err != nil {
		return nil, err
	}
	c, err := o.Float("c", 0.5, 0, 10)
	if err != nil {
		return nil, err
	}
	eg, err := o.Choice("endgame", "on", "off")
	if err != nil {
		return nil, err
	}
	return &baseline{clk: clk, endgame: eg == "on", mcts: search.MCTS{C: c, NoReuse: true, Seed: seed}}, nil
}

type baseline struct {
	clk     housebots.Clock
	endgame bool
	mcts    search.MCTS
}

func (b *baseline) Start(_ context.Context, g agentapi.Game) error {
	b.mcts.Threads = b.clk.ThreadsFor(g)
	return nil
}

func (b *baseline) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	lim := b.clk.Limits(t, 0)
	if b.endgame {
		if m, err := newModel(t.State.Text()); err == nil {
			if cm, ok := parityRule(m, m.free); ok {
				mv, err := m.moveFor(t.State, cm)
				if err == nil {
					return t.State.FormatMove(mv), nil
				}
			}
		}
	}
	return housebots.Format(t, b.mcts.Search(ctx, t.State, lim))
}

// parityRule is the report's endgame override: leave the opponent an odd
// number of single cells.
func parityRule(m *model, free uint64) (cellMove, bool) {
	var singles, runs []uint64
	for _, c := range m.components(free) {
		switch n := bits.OnesCount64(c); {
		case n == 1:
			singles = append(singles, c)
		case n <= 3 && isLine(m, c):
			runs = append(runs, c)
		default:
			return cellMove{}, false
		}
	}
	s := len(singles)
	pick := func(set uint64) (cellMove, bool) {
		for _, mv := range m.moves {
			if mv.set == set {
				return mv, true
			}
		}
		return cellMove{}, false
	}
	switch {
	case len(runs) == 1 && bits.OnesCount64(runs[0]) == 2:
		if s%2 == 1 {
			return pick(runs[0])
		}
		return pick(runs[0] & -runs[0])
	case len(runs) == 1:
		if s%2 == 1 {
			return pick(runs[0])
		}
		// Two adjacent cells at one end, leaving the third as a single.
		for _, mv := range m.moves {
			if mv.l == 2 && mv.set&runs[0] == mv.set && isEnd(m, runs[0], runs[0]&^mv.set) {
				return mv, true
			}
		}
	case len(runs) == 2 && s > 0 && bits.OnesCount64(runs[0]) == 2 && bits.OnesCount64(runs[1]) == 2:
		return pick(singles[0])
	}
	return cellMove{}, false
}

// isLine reports whether a 2- or 3-cell piece is one legal straight move.
func isLine(m *model, set uint64) bool {
	for _, mv := range m.moves {
		if mv.set == set {
			return true
		}
	}
	return false
}

// isEnd reports whether cell (a one-bit set) is an end of run: it touches
// only one other cell of the run.
func isEnd(m *model, run, cell uint64) bool {
	return bits.OnesCount64(m.adj[bits.TrailingZeros64(cell)]&run) == 1
}

// StrongOptions are the options of the strong bot.
var StrongOptions = []housebots.OptionDoc{
	housebots.Opt("table", "23", "log2 of the solver table's entries (8 bytes each)"),
}

// StrongDoc describes the strong bot.
const StrongDoc = "an exact misère solver over the free-cell set (≤ 33 cells as a 64-bit set, every straight 1–3 cell move precomputed, " +
	"a lossy table of solved sets kept for the whole game, only-singles positions decided by parity); while the position is still too big " +
	"to solve in the time, MCTS with the solver (c = 0.7) and subtree reuse plays instead"

// Strong builds the strong bot.
func Strong(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("strong", StrongOptions)
	if err != nil {
		return nil, err
	}
	logSize, err := o.Int("table", 23, 10, 28)
	if err != nil {
		return nil, err
	}
	return &strong{clk: clk, logSize: logSize, mcts: search.MCTS{C: 0.7, Solver: true, Seed: seed}}, nil
}

type strong struct {
	clk     housebots.Clock
	logSize int
	model   *model
	solver  *solver
	mcts    search.MCTS
}

func (s *strong) Start(_ context.Context, g agentapi.Game) error {
	s.mcts.Threads = s.clk.ThreadsFor(g)
	return nil
}

func (s *strong) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	start := time.Now()
	lim := s.clk.Limits(t, 0)
	text := t.State.Text()
	if s.model == nil {
		m, err := newModel(text)
		if err != nil {
			return "", fmt.Errorf("hex strong: %w", err)
		}
		s.model, s.solver = m, newSolver(m, s.logSize)
	}
	free := s.model.freeSet(text)
	// The solver gets most of the time; MCTS the rest if it fails or the
	// position is lost (the opponent may still go wrong later; the table
	// makes asking again cheap).
	solveBy := start.Add(lim.Deadline.Sub(start) * 7 / 10)
	if cm, win, solved := s.solver.best(ctx, free, solveBy); solved && win {
		if mv, err := s.model.moveFor(t.State, cm); err == nil {
			return t.State.FormatMove(mv), nil
		}
	}
	return housebots.Format(t, s.mcts.Search(ctx, t.State, lim))
}

// Analyse is the strong bot's method on st within bounds b, for post-game
// analysis: the exact misère solver, stopped after b.Nodes nodes and not
// by the clock; where it does not finish, MCTS with the solver for
// b.Nodes playouts (one thread, a fixed seed) estimates instead.
func Analyse(ctx context.Context, st engine.State, b housebots.Bounds) (housebots.Analysis, error) {
	text := st.Text()
	m, err := newModel(text)
	if err != nil {
		return housebots.Analysis{}, fmt.Errorf("hex analysis: %w", err)
	}
	s := newSolver(m, 20)
	s.maxNodes = b.Nodes
	free := m.freeSet(text)
	cm, win, solved := s.best(ctx, free, time.Time{})
	if solved {
		a := housebots.Analysis{Value: -search.Win, Proven: true, Nodes: s.nodes}
		if win {
			a.Value = search.Win
			mv, err := m.moveFor(st, cm)
			if err != nil {
				return housebots.Analysis{}, fmt.Errorf("hex analysis: the solver's move %s: %w", cm.text(), err)
			}
			a.Move = st.FormatMove(mv)
		} else if ms := st.LegalMoves(nil); len(ms) > 0 {
			a.Move = st.FormatMove(ms[0]) // every move loses
		}
		return a, nil
	}
	mc := search.MCTS{C: 0.7, Solver: true, Seed: 1, Threads: 1}
	return housebots.FromSearch(st, mc.Search(ctx, st, search.Limits{MaxNodes: max(b.Nodes, 1)})), nil
}
