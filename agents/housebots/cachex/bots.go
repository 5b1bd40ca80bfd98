package cachex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/agents/housebots"
	"arena/engine"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// cellMoves maps engine moves to cells (-1 for STEAL), reading each move's
// text once.
type cellMoves struct{ m sync.Map }

func (c *cellMoves) cell(st engine.State, n int, m engine.Move) int {
	if v, ok := c.m.Load(m); ok {
		return v.(int)
	}
	cell := -1
	f := strings.Fields(st.FormatMove(m))
	if len(f) == 3 && f[0] == "PLACE" {
		r, _ := strconv.Atoi(f[1])
		q, _ := strconv.Atoi(f[2])
		cell = r*n + q
	}
	c.m.Store(m, cell)
	return cell
}

func placeText(n, cell int) string { return fmt.Sprintf("PLACE %d %d", cell/n, cell%n) }

// movesLeft estimates a player's remaining moves: half the empty cells.
func movesLeft(b board) int {
	empty := 0
	for _, v := range b.cells {
		if v < 0 {
			empty++
		}
	}
	return max(empty/2, 6)
}

// StrongOptions are the options of the strong bot.
var StrongOptions = []housebots.OptionDoc{
	housebots.Opt("tt", "8", "transposition table size in MiB (the profile allows 100 MiB per process)"),
}

// StrongDoc describes the strong bot.
const StrongDoc = "iterative-deepening PVS alpha-beta with a transposition table; evaluation = 10·(opponent's shortest-path cost − own), " +
	"own stones 0, empty 1, enemy stones blocking, so captures and the steal count through the board they leave, plus the stone " +
	"difference and a tempo bonus; candidates are the cells next to a stone or on either side's cheapest path (and STEAL); the CPU budget " +
	"is shared over half the empty cells"

// Strong builds the strong bot.
func Strong(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("strong", StrongOptions)
	if err != nil {
		return nil, err
	}
	mb, err := o.Int("tt", 8, 1, 32)
	if err != nil {
		return nil, err
	}
	s := &strong{clk: clk}
	s.ab = search.AlphaBeta{Eval: pathEval, TT: search.NewTT(mb), Rand: housebots.Rand(seed), Moves: s.candidates}
	return s, nil
}

type strong struct {
	clk   housebots.Clock
	ab    search.AlphaBeta
	cells cellMoves
}

func (s *strong) Start(_ context.Context, g agentapi.Game) error {
	s.ab.Threads = s.clk.ThreadsFor(g)
	limitMemory()
	return nil
}

// limitMemory makes the collector keep the heap well under the profile's
// 100 MiB of resident memory: a search produces garbage at every node
// faster than a starved background collector frees it.
func limitMemory() { debug.SetMemoryLimit(48 << 20) }

func (s *strong) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	b, err := readBoard(t.State)
	if err != nil {
		return "", err
	}
	return housebots.Format(t, s.ab.Search(ctx, t.State, s.clk.Limits(t, movesLeft(b))))
}

func pathEval(st engine.State, me int) float64 {
	b, err := readBoard(st)
	if err != nil {
		return 0
	}
	dm, _ := b.distance(me, false)
	do, _ := b.distance(1-me, false)
	v := 10*float64(min(do, 100)-min(dm, 100)) + float64(b.stones(me)-b.stones(1-me))
	if st.ToMove() == me {
		v += 5
	} else {
		v -= 5
	}
	return v
}

// candidates are the legal moves next to a stone or on a cheapest path.
func (s *strong) candidates(st engine.State, dst []engine.Move) []engine.Move {
	all := st.LegalMoves(dst)
	b, err := readBoard(st)
	if err != nil || b.stones(0)+b.stones(1) < 2 {
		return all
	}
	keep := make([]bool, b.n*b.n)
	for i, v := range b.cells {
		if v >= 0 {
			b.neighbours(i, func(j int) { keep[j] = true })
		}
	}
	for seat := 0; seat < 2; seat++ {
		if _, path := b.distance(seat, true); path != nil {
			for _, c := range path {
				keep[c] = true
			}
		}
	}
	out := all[:0]
	for _, m := range all {
		if c := s.cells.cell(st, b.n, m); c < 0 || keep[c] {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return st.LegalMoves(out)
	}
	return out
}

// BaselineOptions are the options of the baseline bot.
var BaselineOptions = []housebots.OptionDoc{
	housebots.Opt("threshold", "1.5", "greedy value at or above which the greedy move is played without minimax"),
}

// BaselineDoc says where the baseline comes from.
const BaselineDoc = "the COMP30024 2022 report's agent: Red opens from a small book around the centre, Blue steals, then " +
	"greedy first — the next empty cell of the cheapest path (own 0, empty 1, enemy blocking) and the placement capturing most, " +
	"valued as path progress (cost gains over its earlier turns, newest weighted 1, then ½, …, times sigmoid(0.4·gain)) plus " +
	"4.1·tanh(0.4·captures), played when ≥ 1.5; else alpha-beta over the empty neighbours of enemy then own stones, depth " +
	"2 + ⌊stones/17⌋, leaf = path-cost difference + stone difference, an immediate win played at once, capped at n + n/2 s, and its move " +
	"kept only if its greedy value beats the greedy move's; greedy only once under n + n/2 s of budget remain. Deviation: an exact " +
	"shortest path instead of the report's weighted A*"

// Baseline builds the report's agent.
func Baseline(o housebots.Options, seed uint64) (agentapi.Agent, error) {
	clk, err := o.Clock("baseline", BaselineOptions)
	if err != nil {
		return nil, err
	}
	th, err := o.Float("threshold", 1.5, -100, 100)
	if err != nil {
		return nil, err
	}
	b := &baseline{clk: clk, threshold: th, rng: housebots.Rand(seed)}
	b.ab = search.AlphaBeta{Eval: reportLeaf, NoTT: true, NoPVS: true, Moves: b.candidates}
	return b, nil
}

func (b *baseline) Start(context.Context, agentapi.Game) error {
	limitMemory()
	return nil
}

type baseline struct {
	clk       housebots.Clock
	threshold float64
	rng       *rand.Rand
	ab        search.AlphaBeta
	cells     cellMoves
	history   []int // our path cost after each of our turns
	maxStones int
	seat      int
}

func (b *baseline) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	st := t.State
	bd, err := readBoard(st)
	if err != nil {
		return "", err
	}
	n, me := bd.n, st.ToMove()
	b.seat = me
	b.maxStones = max(b.maxStones, bd.stones(0)+bd.stones(1))
	text, err := b.choose(ctx, t, bd, n, me)
	if err != nil {
		return "", err
	}
	// Remember our path cost after the move, for the progress term.
	if m, perr := st.ParseMove(text); perr == nil {
		c := st.Clone()
		c.Apply(m)
		if after, err := readBoard(c); err == nil {
			d, _ := after.distance(me, false)
			b.history = append(b.history, d)
		}
	}
	return text, nil
}

func (b *baseline) choose(ctx context.Context, t agentapi.Turn, bd board, n, me int) (string, error) {
	st := t.State
	switch t.Ply {
	case 0:
		// A small opening book: the centre's neighbours (the centre
		// itself is illegal on the first move for odd n).
		centre := (n/2)*n + n/2
		var book []int
		bd.neighbours(centre, func(j int) { book = append(book, j) })
		return placeText(n, book[b.rng.IntN(len(book))]), nil
	case 1:
		return "STEAL", nil
	}
	gMove, gValue := b.greedy(st, bd, me)
	budgetLow := t.Game.Clock.Model == string(engine.CPUBudget) && t.TimeLeft < time.Duration(float64(n)*1.5*float64(time.Second))
	if gValue >= b.threshold || budgetLow {
		return gMove, nil
	}
	lim := b.clk.Limits(t, movesLeft(bd))
	lim = housebots.Cap(lim, time.Duration(float64(n)*1.5*float64(time.Second)))
	lim.MaxDepth = 2 + b.maxStones/17
	lim.Soft = lim.Deadline
	r := b.ab.Search(ctx, st, lim)
	if !r.OK {
		return gMove, nil
	}
	mText := st.FormatMove(r.Move)
	if r.Value >= search.Win/2 {
		return mText, nil // forward pruning: a win is a win
	}
	if b.greedyValue(st, r.Move, me) < gValue {
		return gMove, nil
	}
	return mText, nil
}

// greedy returns the better of the path move and the capture move, with
// its greedy value.
func (b *baseline) greedy(st engine.State, bd board, me int) (string, float64) {
	_, path := bd.distance(me, true)
	var candidates []engine.Move
	for _, c := range path {
		if bd.cells[c] < 0 {
			if m, err := st.ParseMove(placeText(bd.n, c)); err == nil {
				candidates = append(candidates, m)
			}
			break
		}
	}
	// The placement capturing most.
	bestCap, capMove := 0, engine.Move(0)
	for _, m := range st.LegalMoves(nil) {
		if k := captures(st, m, me); k > bestCap {
			bestCap, capMove = k, m
		}
	}
	if bestCap > 0 {
		candidates = append(candidates, capMove)
	}
	if len(candidates) == 0 {
		ms := st.LegalMoves(nil)
		candidates = append(candidates, ms[b.rng.IntN(len(ms))])
	}
	best, bestV := candidates[0], math.Inf(-1)
	for _, m := range candidates {
		if v := b.greedyValue(st, m, me); v > bestV {
			best, bestV = m, v
		}
	}
	return st.FormatMove(best), bestV
}

// captures counts the enemy stones m removes.
func captures(st engine.State, m engine.Move, me int) int {
	before, err := readBoard(st)
	if err != nil {
		return 0
	}
	c := st.Clone()
	c.Apply(m)
	after, err := readBoard(c)
	if err != nil {
		return 0
	}
	return before.stones(1-me) - after.stones(1-me)
}

// greedyValue is the report's path progress plus capture potential.
func (b *baseline) greedyValue(st engine.State, m engine.Move, me int) float64 {
	c := st.Clone()
	c.Apply(m)
	if c.Terminal() {
		if r := c.Result(); r.Winner == me {
			return math.Inf(1)
		}
	}
	after, err := readBoard(c)
	if err != nil {
		return math.Inf(-1)
	}
	cost, _ := after.distance(me, false)
	rel := 0.0
	L := len(b.history)
	for k, a := range b.history {
		rel += float64(min(a, 100)-min(cost, 100)) / math.Pow(2, float64(L-1-k))
	}
	progress := rel / (1 + math.Exp(-0.4*rel))
	return progress + 4.1*math.Tanh(0.4*float64(captures(st, m, me)))
}

// reportLeaf is the report's minimax leaf for me.
func reportLeaf(st engine.State, me int) float64 {
	b, err := readBoard(st)
	if err != nil {
		return 0
	}
	dm, _ := b.distance(me, false)
	do, _ := b.distance(1-me, false)
	return float64(min(do, 100)-min(dm, 100)) + float64(b.stones(me)-b.stones(1-me))
}

// candidates are the empty neighbours of enemy stones, then of own stones
// (of the player to move), without duplicates.
func (b *baseline) candidates(st engine.State, dst []engine.Move) []engine.Move {
	all := st.LegalMoves(dst)
	bd, err := readBoard(st)
	if err != nil {
		return all
	}
	mover := st.ToMove()
	rank := make([]int, bd.n*bd.n) // 2: next to an enemy stone, 1: next to an own one
	for i, v := range bd.cells {
		if v < 0 {
			continue
		}
		r := 1
		if int(v) != mover {
			r = 2
		}
		bd.neighbours(i, func(j int) {
			if bd.cells[j] < 0 && rank[j] < r {
				rank[j] = r
			}
		})
	}
	var first, second []engine.Move
	for _, m := range all {
		c := b.cells.cell(st, bd.n, m)
		switch {
		case c < 0:
		case rank[c] == 2:
			first = append(first, m)
		case rank[c] == 1:
			second = append(second, m)
		}
	}
	out := append(append(all[:0:0], first...), second...)
	if len(out) == 0 {
		return all
	}
	return out
}

// Analyse is the strong bot's search on st within bounds b, for post-game
// analysis: the same evaluation and candidates, one thread, no random
// tie-breaks.
func Analyse(ctx context.Context, st engine.State, b housebots.Bounds) (housebots.Analysis, error) {
	if _, err := readBoard(st); err != nil {
		return housebots.Analysis{}, err
	}
	s := &strong{}
	s.ab = search.AlphaBeta{Eval: pathEval, TT: search.NewTT(4), Moves: s.candidates}
	return housebots.FromSearch(st, s.ab.Search(ctx, st, b.Limits())), nil
}
