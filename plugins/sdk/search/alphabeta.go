package search

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"arena/engine"
)

// Win is the value of a won position (a lost one is -Win). A win found k
// plies from the root is worth Win-k, so nearer wins rank first and slower
// losses are preferred.
const Win = 1e9

// EvalFunc scores a non-terminal position for seat: larger is better.
type EvalFunc func(st engine.State, seat int) float64

// AlphaBeta is an iterative-deepening negamax searcher. Set the fields,
// then call Search once per move; keep the value between moves of one game
// so its transposition table helps the next search.
type AlphaBeta struct {
	// Eval scores positions at the depth limit. It is always called for
	// the seat to move at the root, so it need not be zero-sum: leaves are
	// scored as the root player sees them, as in textbook minimax. Nil: the
	// state's engine.Evaluator, or 0 where it has none.
	Eval EvalFunc
	// Terminal scores finished positions for seat (nil: Win, -Win or 0 by
	// the result). Values beyond ±Win/2 count as wins or losses and are
	// adjusted by their distance from the root.
	Terminal EvalFunc
	// Order, when set, gives each move a static ordering score (higher
	// first) after the TT move and killers; moves are otherwise ordered by
	// the history heuristic.
	Order func(st engine.State, m engine.Move) float64
	// Moves, when set, generates the moves searched at every node, root
	// included (e.g. to merge moves that reach the same position, or to
	// restrict the candidates); it must return a non-empty subset of the
	// legal moves of a non-terminal state. Nil: all legal moves.
	Moves func(st engine.State, dst []engine.Move) []engine.Move
	// TT is the transposition table (nil: a 16 MiB table on first use).
	TT *TT
	// Threads searches with that many goroutines sharing the table
	// (lazy SMP). Use more than one only where wall time is what counts.
	Threads int
	// Rand, when set, shuffles the root moves before the first iteration,
	// so equal moves are chosen between at random.
	Rand *rand.Rand
	// NoPVS turns principal-variation search off (plain alpha-beta with
	// full windows): slower, for tests and for comparisons.
	NoPVS bool
	// NoTT turns the transposition table off.
	NoTT bool
}

// Result is the answer of one search.
type Result struct {
	Move    engine.Move
	Value   float64       // for the side to move at the root
	Depth   int           // the deepest completed iteration (alpha-beta)
	Nodes   int64         // alpha-beta nodes, or MCTS playouts
	Exact   bool          // the value is proven (searched to the end)
	Elapsed time.Duration // wall time of the search
	OK      bool          // false when the position had no legal move
}

// DefaultTerminal scores a finished game for seat: Win, -Win or 0.
func DefaultTerminal(st engine.State, seat int) float64 {
	r := st.Result()
	switch {
	case r.Draw || r.Winner == engine.NoSeat:
		return 0
	case r.Winner == seat:
		return Win
	}
	return -Win
}

func defaultEval(st engine.State, seat int) float64 {
	if e, ok := st.(engine.Evaluator); ok {
		return e.Evaluate(seat)
	}
	return 0
}

// Search returns the best move for the side to move in st, which it does
// not change.
func (a *AlphaBeta) Search(ctx context.Context, st engine.State, lim Limits) Result {
	start := time.Now()
	if st.Terminal() {
		return Result{}
	}
	if a.TT == nil && !a.NoTT {
		a.TT = NewTT(16)
	}
	if a.TT != nil {
		a.TT.newSearch()
	}
	clk := newClock(ctx, lim)
	maxDepth := lim.MaxDepth
	if maxDepth <= 0 || maxDepth > 200 {
		maxDepth = 64
	}
	soft := lim.Soft
	if soft.IsZero() && !lim.Deadline.IsZero() {
		soft = start.Add(lim.Deadline.Sub(start) / 2)
	}
	root := a.gen(st, nil)
	if len(root) == 0 {
		return Result{}
	}
	if a.Rand != nil {
		a.Rand.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	}
	var nodes atomic.Int64
	main := a.newWorker(st, clk, &nodes, lim.MaxNodes)
	res := Result{Move: root[0], OK: true}
	if len(root) == 1 {
		// Nothing to choose: answer at once.
		c := main.child(st, root[0], 0)
		if c.Terminal() {
			res.Value, res.Exact = main.terminal(c, st.ToMove(), 1), true
		} else {
			res.Value = main.eval(c, st.ToMove())
		}
		res.Elapsed = time.Since(start)
		return res
	}
	var wg sync.WaitGroup
	var helpersDone atomic.Bool
	workers := []*worker{main}
	for i := 1; i < a.Threads; i++ {
		h := a.newWorker(st, clk, &nodes, lim.MaxNodes)
		workers = append(workers, h)
		hr := append([]engine.Move(nil), root...)
		// Helpers shuffle their root order and start one ply deeper on odd
		// threads, so they fill the table with different lines.
		r := rand.New(rand.NewPCG(uint64(i), 0x9e3779b97f4a7c15))
		r.Shuffle(len(hr), func(x, y int) { hr[x], hr[y] = hr[y], hr[x] })
		wg.Add(1)
		go func(off int) {
			defer wg.Done()
			for d := 1 + off; d <= maxDepth && !helpersDone.Load() && !clk.stopped(); d++ {
				h.root(hr, d)
			}
		}(i % 2)
	}
	for d := 1; d <= maxDepth; d++ {
		main.cut = false
		best, v, complete := main.root(root, d)
		if complete {
			res.Move, res.Value, res.Depth = root[best], v, d
		} else if best >= 0 {
			// Stopped part-way: a move that beat the previous best in this
			// iteration's full window is trustworthy.
			res.Move, res.Value = root[best], v
		}
		if !complete {
			break
		}
		// The best move first: the next iteration's window narrows sooner.
		copy(root[1:best+1], root[:best])
		root[0] = res.Move
		if math.Abs(v) >= Win/2 || !main.cut {
			res.Exact = true
			break // decided, or searched to the end: deeper changes nothing
		}
		if !soft.IsZero() && time.Now().After(soft) {
			break
		}
	}
	helpersDone.Store(true)
	clk.stop.Store(true)
	wg.Wait()
	for _, w := range workers {
		nodes.Add(w.local & 255) // the counts not yet flushed by tick
	}
	res.Nodes = nodes.Load()
	res.Elapsed = time.Since(start)
	return res
}

func (a *AlphaBeta) gen(st engine.State, dst []engine.Move) []engine.Move {
	if a.Moves != nil {
		return a.Moves(st, dst)
	}
	return st.LegalMoves(dst)
}

// worker is one goroutine's search state.
type worker struct {
	a        *AlphaBeta
	clk      *clock
	nodes    *atomic.Int64
	maxNodes int64
	local    int64
	stack    []engine.State
	copier   bool
	bufs     [][]engine.Move
	scores   [][]float64
	killers  [][2]engine.Move
	history  [2][4096]float64
	eval     EvalFunc
	term     EvalFunc
	cut      bool // some leaf was cut by the depth limit
	rootSeat int
}

func (a *AlphaBeta) newWorker(st engine.State, clk *clock, nodes *atomic.Int64, maxNodes int64) *worker {
	w := &worker{a: a, clk: clk, nodes: nodes, maxNodes: maxNodes, eval: a.Eval, term: a.Terminal, rootSeat: st.ToMove()}
	if w.eval == nil {
		w.eval = defaultEval
	}
	if w.term == nil {
		w.term = DefaultTerminal
	}
	_, w.copier = st.(engine.Copier)
	w.stack = []engine.State{st.Clone()}
	return w
}

// child returns the state after m at ply+1, reusing that ply's state.
func (w *worker) child(st engine.State, m engine.Move, ply int) engine.State {
	for len(w.stack) <= ply+1 {
		w.stack = append(w.stack, nil)
	}
	c := w.stack[ply+1]
	if w.copier && c != nil {
		c.(engine.Copier).CopyFrom(st)
	} else {
		c = st.Clone()
		if w.copier {
			w.stack[ply+1] = c
		}
	}
	c.Apply(m)
	return c
}

func (w *worker) grow(ply int) {
	for len(w.bufs) <= ply {
		w.bufs = append(w.bufs, nil)
		w.scores = append(w.scores, nil)
		w.killers = append(w.killers, [2]engine.Move{})
	}
}

// tick counts a node and polls the clock every 256 nodes.
func (w *worker) tick() bool {
	w.local++
	if w.local&255 == 0 {
		n := w.nodes.Add(256)
		if w.maxNodes > 0 && n >= w.maxNodes {
			w.clk.stop.Store(true)
		}
		return w.clk.expired()
	}
	return w.clk.stopped()
}

// leaf is the evaluation for me, computed from the root player's side.
func (w *worker) leaf(st engine.State, me int) float64 {
	if me == w.rootSeat {
		return w.eval(st, me)
	}
	return -w.eval(st, w.rootSeat)
}

func (w *worker) terminal(st engine.State, seat, ply int) float64 {
	v := w.term(st, seat)
	switch {
	case v >= Win/2:
		v -= float64(ply)
	case v <= -Win/2:
		v += float64(ply)
	}
	return v
}

// Win values are stored relative to the node, not the root.
func toTT(v float64, ply int) float64 {
	switch {
	case v >= Win/2:
		return v + float64(ply)
	case v <= -Win/2:
		return v - float64(ply)
	}
	return v
}

func fromTT(v float64, ply int) float64 {
	switch {
	case v >= Win/2:
		return v - float64(ply)
	case v <= -Win/2:
		return v + float64(ply)
	}
	return v
}

func histIdx(m engine.Move) int { return int((uint32(m) * 2654435761) >> 20) }

// root searches every root move to depth d with a full window. It returns
// the best index and value, and whether the iteration completed.
func (w *worker) root(moves []engine.Move, d int) (int, float64, bool) {
	st := w.stack[0]
	me := st.ToMove()
	alpha, beta := math.Inf(-1), math.Inf(1)
	best := -1
	for i, m := range moves {
		v, ok := w.value(st, m, me, d-1, 0, alpha, beta, i == 0)
		if !ok {
			return best, alpha, false
		}
		if best < 0 || v > alpha {
			best, alpha = i, v
		}
	}
	if w.a.TT != nil && !w.a.NoTT {
		w.a.TT.store(st.Hash(), moves[best], d, boundExact, toTT(alpha, 0))
	}
	return best, alpha, true
}

// value is the value for me (the mover at ply) of playing m, searched to
// depth more plies, inside (alpha, beta). ok is false once the clock stops.
func (w *worker) value(st engine.State, m engine.Move, me, depth, ply int, alpha, beta float64, first bool) (float64, bool) {
	c := w.child(st, m, ply)
	if c.Terminal() {
		return w.terminal(c, me, ply+1), true
	}
	same := c.ToMove() == me
	var v float64
	if first || w.a.NoPVS || math.IsInf(alpha, -1) {
		v = w.sub(c, same, depth, ply+1, alpha, beta)
	} else {
		// A null window first: most moves only need proving no better.
		v = w.sub(c, same, depth, ply+1, alpha, math.Nextafter(alpha, math.Inf(1)))
		if v > alpha && v < beta && !w.clk.stopped() {
			v = w.sub(c, same, depth, ply+1, alpha, beta)
		}
	}
	return v, !w.clk.stopped()
}

// sub searches child c for the parent's mover, negating where the side to
// move changes.
func (w *worker) sub(c engine.State, same bool, depth, ply int, alpha, beta float64) float64 {
	if same {
		return w.negamax(c, depth, ply, alpha, beta)
	}
	return -w.negamax(c, depth, ply, -beta, -alpha)
}

// negamax returns the value of st (not terminal) for its side to move.
func (w *worker) negamax(st engine.State, depth, ply int, alpha, beta float64) float64 {
	if w.tick() {
		return 0
	}
	me := st.ToMove()
	if depth <= 0 {
		w.cut = true
		return w.leaf(st, me)
	}
	var h uint64
	var ttMove engine.Move
	hasTT := false
	useTT := w.a.TT != nil && !w.a.NoTT
	if useTT {
		h = st.Hash()
		if e, ok := w.a.TT.probe(h); ok {
			ttMove, hasTT = e.move, true
			if e.depth >= depth {
				v := fromTT(e.value, ply)
				cutoff := e.bound == boundExact ||
					e.bound == boundLower && v >= beta ||
					e.bound == boundUpper && v <= alpha
				if cutoff {
					// An entry from a depth-limited search stands in for
					// one: the iteration is not exhaustive, whoever (this
					// goroutine or another) stored it.
					if e.depth < ttComplete {
						w.cut = true
					}
					return v
				}
			}
		}
	}
	w.grow(ply)
	moves := w.a.gen(st, w.bufs[ply][:0])
	w.bufs[ply] = moves
	if len(moves) == 0 {
		return w.leaf(st, me)
	}
	w.order(st, moves, ply, ttMove, hasTT, me)
	// Whether this subtree met the depth limit decides how its entry may
	// be reused: cutBefore belongs to the rest of the iteration.
	cutBefore := w.cut
	w.cut = false
	defer func() { w.cut = w.cut || cutBefore }()
	alpha0 := alpha
	best := math.Inf(-1)
	var bestMove engine.Move
	sc := w.scores[ply]
	for i := range moves {
		pickBest(moves, sc, i)
		m := moves[i]
		v, ok := w.value(st, m, me, depth-1, ply, alpha, beta, i == 0)
		if !ok {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if alpha >= beta {
					if w.killers[ply][0] != m {
						w.killers[ply][1] = w.killers[ply][0]
						w.killers[ply][0] = m
					}
					w.history[me&1][histIdx(m)] += float64(depth * depth)
					break
				}
			}
		}
	}
	if useTT {
		bound := boundExact
		switch {
		case best >= beta:
			bound = boundLower
		case best <= alpha0:
			bound = boundUpper
		}
		stored := depth
		if !w.cut {
			stored = ttComplete // searched to the end: valid at any depth
		}
		w.a.TT.store(h, bestMove, stored, bound, toTT(best, ply))
	}
	return best
}

// order puts the TT move first, then the killers, then the rest by the
// caller's static score or by history.
func (w *worker) order(st engine.State, moves []engine.Move, ply int, ttMove engine.Move, hasTT bool, me int) {
	sc := w.scores[ply][:0]
	k := w.killers[ply]
	for _, m := range moves {
		var s float64
		switch {
		case hasTT && m == ttMove:
			s = 3e18
		case m == k[0]:
			s = 2e18
		case m == k[1]:
			s = 1e18
		default:
			if w.a.Order != nil {
				s = w.a.Order(st, m) * 1e6
			}
			s += w.history[me&1][histIdx(m)]
		}
		sc = append(sc, s)
	}
	w.scores[ply] = sc
}

// pickBest moves the best-scored move of moves[i:] to i. Selection is lazy
// because most nodes cut off after a move or two.
func pickBest(moves []engine.Move, sc []float64, i int) {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	sc[i], sc[b] = sc[b], sc[i]
}
