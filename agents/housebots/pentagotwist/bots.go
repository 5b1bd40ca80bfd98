// Package pentagotwist holds the Pentago-Twist house bots: the course
// report's depth-limited alpha-beta with its 10^k line score ("baseline")
// and a deeper searcher with line potentials ("strong").
package pentagotwist

import (
	"context"
	"math/bits"
	"sync"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// board reads the two colours' stones from the canonical text (36 cells,
// index 6·row + column, 'w' White = seat 0, 'b' Black = seat 1).
func board(st engine.State) (s [2]uint64) {
	t := st.Text()
	for i := 0; i < len(t) && i < 36; i++ {
		switch t[i] {
		case 'w':
			s[0] |= 1 << i
		case 'b':
			s[1] |= 1 << i
		}
	}
	return s
}

// centres are the quadrant centres (1,1), (1,4), (4,1), (4,4): no twist
// moves them.
var centres = [4]int{7, 10, 25, 28}

// lines18 are the report's 18 lines of length at least 5, as cell lists.
var lines18 = func() [][]int {
	var out [][]int
	for r := 0; r < 6; r++ {
		var row, col []int
		for c := 0; c < 6; c++ {
			row = append(row, 6*r+c)
			col = append(col, 6*c+r)
		}
		out = append(out, row, col)
	}
	diag := func(r, c, dr, dc int) []int {
		var l []int
		for r >= 0 && r < 6 && c >= 0 && c < 6 {
			l = append(l, 6*r+c)
			r, c = r+dr, c+dc
		}
		return l
	}
	out = append(out, diag(0, 0, 1, 1), diag(0, 1, 1, 1), diag(1, 0, 1, 1),
		diag(0, 5, 1, -1), diag(0, 4, 1, -1), diag(1, 5, 1, -1))
	return out
}()

// segments are the 32 five-cell segments as masks.
var segments = func() []uint64 {
	var out []uint64
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		for r := 0; r < 6; r++ {
			for c := 0; c < 6; c++ {
				er, ec := r+4*d[0], c+4*d[1]
				if er < 0 || er > 5 || ec < 0 || ec > 5 {
					continue
				}
				var m uint64
				for k := 0; k < 5; k++ {
					m |= 1 << (6*(r+k*d[0]) + c + k*d[1])
				}
				out = append(out, m)
			}
		}
	}
	return out
}()

// runScore is the report's line score of one colour: per maximal run of k
// consecutive stones, 10^(k-1) + ... + 1.
func runScore(stones uint64) float64 {
	var v float64
	for _, l := range lines18 {
		k := 0
		for _, c := range l {
			if stones>>c&1 == 1 {
				k++
				continue
			}
			v += repunit[k]
			k = 0
		}
		v += repunit[k]
	}
	return v
}

var repunit = [7]float64{0, 1, 11, 111, 1111, 11111, 111111}

// dedup keeps, for every move, only the first of the moves whose results
// are the same position (the same placement with twists that leave their
// quadrant unchanged, or, with anyCell, any transposition). Scratch states
// come from a pool so concurrent searches can share the function.
func dedup(anyCell bool) func(st engine.State, dst []engine.Move) []engine.Move {
	var pool sync.Pool
	cells := sync.Map{} // engine.Move -> placement cell, read from FormatMove once
	cellOf := func(st engine.State, m engine.Move) int {
		if v, ok := cells.Load(m); ok {
			return v.(int)
		}
		t := st.FormatMove(m) // "x y a b p"
		c := int(t[0]-'0')*6 + int(t[2]-'0')
		cells.Store(m, c)
		return c
	}
	return func(st engine.State, dst []engine.Move) []engine.Move {
		all := st.LegalMoves(dst)
		scratch, _ := pool.Get().(engine.State)
		copier, isCopier := scratch.(engine.Copier)
		seen := make(map[[2]uint64]bool, 64)
		out := all[:0]
		for _, m := range all {
			if isCopier {
				copier.CopyFrom(st)
			} else {
				scratch = st.Clone()
				copier, isCopier = scratch.(engine.Copier)
			}
			scratch.Apply(m)
			key := [2]uint64{scratch.Hash(), 0}
			if !anyCell {
				key[1] = uint64(cellOf(st, m)) + 1
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, m)
		}
		pool.Put(scratch)
		return out
	}
}

// BaselineOptions are the options of the baseline bot.
var BaselineOptions = []housebots.OptionDoc{
	housebots.Opt("depth", "2", "search depth in plies for normal moves (the first move searches one more)"),
	housebots.Opt("block", "2", "weight of the opponent's line score"),
}

// BaselineDoc says where the baseline comes from.
const BaselineDoc = "the COMP424 2021 report's agent: depth-limited minimax with alpha-beta (depth 2, 3 on the first move), " +
	"twists that leave their quadrant unchanged pruned, the line score Σ(10^k−1)/9 over maximal runs of k stones on the 18 lines of " +
	"length ≥ 5 with the opponent's total counted twice, wins ±max; while a quadrant centre is empty the root only places on empty centres. " +
	"The report's evaluation cache (a speed device) is left out"

// Baseline builds the report's agent.
func Baseline(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("baseline", BaselineOptions)
	if err != nil {
		return nil, err
	}
	depth, err := o.Int("depth", 2, 1, 10)
	if err != nil {
		return nil, err
	}
	block, err := o.Float("block", 2, 0, 100)
	if err != nil {
		return nil, err
	}
	eval := func(st engine.State, me int) float64 {
		b := board(st)
		return runScore(b[me]) - block*runScore(b[1-me])
	}
	b := &baseline{clk: clk, depth: depth}
	prune := dedup(false)
	b.ab = search.AlphaBeta{Eval: eval, NoTT: true, NoPVS: true}
	b.ab.Moves = func(st engine.State, dst []engine.Move) []engine.Move {
		moves := prune(st, dst)
		if st.Ply() != b.rootPly {
			return moves
		}
		// The opening rule: place on an empty quadrant centre.
		stones := board(st)
		occupied := stones[0] | stones[1]
		var onCentre []engine.Move
		for _, m := range moves {
			t := st.FormatMove(m)
			c := int(t[0]-'0')*6 + int(t[2]-'0')
			for _, k := range centres {
				if c == k && occupied>>k&1 == 0 {
					onCentre = append(onCentre, m)
				}
			}
		}
		if len(onCentre) == 0 {
			return moves
		}
		return append(moves[:0], onCentre...)
	}
	return b, nil
}

type baseline struct {
	clk     housebots.Clock
	ab      search.AlphaBeta
	depth   int
	rootPly int
}

func (b *baseline) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	// The report spent its 30 s first move on one ply more.
	lim := b.clk.FullLimits(t, 0)
	lim.MaxDepth = b.depth
	if t.Ply < 2 {
		lim.MaxDepth++
	}
	lim.Soft = lim.Deadline
	b.rootPly = t.State.Ply()
	return housebots.Format(t, b.ab.Search(ctx, t.State, lim))
}

// StrongOptions are the options of the strong bot.
var StrongOptions = []housebots.OptionDoc{
	housebots.Opt("tt", "64", "transposition table size in MiB"),
}

// StrongDoc describes the strong bot.
const StrongDoc = "iterative-deepening PVS alpha-beta with a transposition table kept for the whole game, killer and history ordering, " +
	"moves that reach the same position merged (twists of symmetric quadrants and transpositions); evaluation = line potentials over the " +
	"32 five-cell segments (open segments weighted 1, 6, 40, 300 by stones, an open four of the side to move worth nearly a win) plus quadrant centres"

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
	s := &strong{clk: clk}
	s.ab = search.AlphaBeta{Eval: potential, TT: search.NewTT(mb), Rand: housebots.Rand(seed), Moves: dedup(true)}
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
	lim := s.clk.Limits(t, 0)
	return housebots.Format(t, s.ab.Search(ctx, t.State, lim))
}

var potWeight = [6]float64{0, 1, 6, 40, 300, 0}

// potential scores line potentials for me.
func potential(st engine.State, me int) float64 {
	b := board(st)
	mine, theirs := b[me], b[1-me]
	toMove := st.ToMove()
	var v float64
	var fourMine, fourTheirs bool
	for _, seg := range segments {
		m, t := seg&mine, seg&theirs
		switch {
		case m != 0 && t == 0:
			k := bits.OnesCount64(m)
			v += potWeight[k]
			fourMine = fourMine || k == 4
		case t != 0 && m == 0:
			k := bits.OnesCount64(t)
			v -= potWeight[k]
			fourTheirs = fourTheirs || k == 4
		}
	}
	const c = uint64(1)<<7 | 1<<10 | 1<<25 | 1<<28
	v += 3 * float64(bits.OnesCount64(mine&c)-bits.OnesCount64(theirs&c))
	// An open four for the side to move is usually a win next move.
	if fourMine && toMove == me {
		v += 5000
	}
	if fourTheirs && toMove != me {
		v -= 5000
	}
	return v
}

// Analyse is the strong bot's search on st within bounds b, for post-game
// analysis: the same evaluation and move merging, one thread, no random
// tie-breaks.
func Analyse(ctx context.Context, st engine.State, b housebots.Bounds) (housebots.Analysis, error) {
	ab := search.AlphaBeta{Eval: potential, TT: search.NewTT(4), Moves: dedup(true)}
	return housebots.FromSearch(st, ab.Search(ctx, st, b.Limits())), nil
}
