package lua

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	glua "github.com/yuin/gopher-lua"

	"arena/engine"
)

// winValue is what alphabeta and greedy give a won position (a lost one
// is -winValue), less one per ply to reach it, so nearer wins rank first.
const winValue = 1e9

// evalFunc scores a non-terminal position for seat me; larger is better.
type evalFunc func(st engine.State, me int) float64

// searcher runs the native search helpers over engine.State; only the
// evaluation may be Lua.
type searcher struct {
	ctx  context.Context // the move's deadline: past it the script is stopped
	soft time.Time       // the helper's own time budget; zero for none
	eval evalFunc
	me   int
	rng  *rand.Rand
	// hardStop reports that ctx is done; it does not return.
	hardStop func(error)

	nodes   int
	stopped bool // the soft budget ran out
	cut     bool // the depth limit cut some line short
	bufs    [][]engine.Move
}

// poll checks the deadlines; cheap enough to call every few nodes.
func (s *searcher) poll() {
	if err := s.ctx.Err(); err != nil {
		s.hardStop(err)
	}
	if !s.soft.IsZero() && time.Now().After(s.soft) {
		s.stopped = true
	}
}

func (s *searcher) moves(st engine.State, ply int) []engine.Move {
	for len(s.bufs) <= ply {
		s.bufs = append(s.bufs, nil)
	}
	s.bufs[ply] = st.LegalMoves(s.bufs[ply][:0])
	return s.bufs[ply]
}

func terminalValue(st engine.State, me, ply int) float64 {
	r := st.Result()
	switch {
	case r.Draw || r.Winner == engine.NoSeat:
		return 0
	case r.Winner == me:
		return winValue - float64(ply)
	}
	return -winValue + float64(ply)
}

// alphabeta is minimax with alpha-beta pruning on values for s.me: nodes
// where s.me is to move maximise, the others minimise, so extra turns and
// skips need no special case.
func (s *searcher) alphabeta(st engine.State, depth, ply int, alpha, beta float64) float64 {
	s.nodes++
	if s.nodes&127 == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	if st.Terminal() {
		return terminalValue(st, s.me, ply)
	}
	moves := s.moves(st, ply)
	if depth <= 0 || len(moves) == 0 {
		s.cut = s.cut || depth <= 0
		return s.eval(st, s.me)
	}
	maximize := st.ToMove() == s.me
	best := math.Inf(1)
	if maximize {
		best = math.Inf(-1)
	}
	// moves is this ply's buffer: deeper plies use their own.
	for _, m := range moves {
		c := st.Clone()
		c.Apply(m)
		v := s.alphabeta(c, depth-1, ply+1, alpha, beta)
		if s.stopped {
			return 0
		}
		if maximize {
			best = max(best, v)
			alpha = max(alpha, best)
		} else {
			best = min(best, v)
			beta = min(beta, best)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// searchResult is a helper's answer.
type searchResult struct {
	move  engine.Move
	value float64
	depth int // alphabeta: deepest completed depth
	count int // alphabeta: nodes; mcts: playouts
	ok    bool
}

// rootMoves are the legal moves in a seeded random order, so equal moves
// are chosen between at random.
func (s *searcher) rootMoves(st engine.State) []engine.Move {
	moves := st.LegalMoves(nil)
	s.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	return moves
}

// searchAlphaBeta searches to maxDepth plies; with a soft budget it deepens
// one ply at a time and answers with the deepest search completed.
func (s *searcher) searchAlphaBeta(st engine.State, maxDepth int) searchResult {
	moves := s.rootMoves(st)
	if len(moves) == 0 || st.Terminal() {
		return searchResult{}
	}
	var res searchResult
	first := maxDepth
	if !s.soft.IsZero() {
		first = 1
	}
	for d := first; d <= maxDepth; d++ {
		bestIdx, alpha := -1, math.Inf(-1)
		s.cut = false
		for i, m := range moves {
			c := st.Clone()
			c.Apply(m)
			v := s.alphabeta(c, d-1, 1, alpha, math.Inf(1))
			if s.stopped {
				break
			}
			if bestIdx < 0 || v > alpha {
				bestIdx, alpha = i, v
			}
		}
		if s.stopped {
			if !res.ok && bestIdx >= 0 {
				// Not one depth completed: the best of the moves searched.
				res = searchResult{move: moves[bestIdx], value: alpha, ok: true}
			}
			break
		}
		res = searchResult{move: moves[bestIdx], value: alpha, depth: d, ok: true}
		// The best move first: the next depth's window narrows sooner.
		moves[0], moves[bestIdx] = moves[bestIdx], moves[0]
		if math.Abs(alpha) > winValue/2 || !s.cut {
			break // decided, or searched to the end: deeper changes nothing
		}
	}
	if !res.ok {
		res = searchResult{move: moves[0], ok: true}
	}
	res.count = s.nodes
	return res
}

// searchGreedy scores every move by one ply of lookahead; equal scores
// are broken at random.
func (s *searcher) searchGreedy(st engine.State) searchResult {
	if st.Terminal() {
		return searchResult{}
	}
	var res searchResult
	ties := 0
	for _, m := range st.LegalMoves(nil) {
		s.poll()
		c := st.Clone()
		c.Apply(m)
		var v float64
		if c.Terminal() {
			v = terminalValue(c, s.me, 1)
		} else {
			v = s.eval(c, s.me)
		}
		switch {
		case !res.ok || v > res.value:
			res, ties = searchResult{move: m, value: v, ok: true}, 1
		case v == res.value:
			// Reservoir sampling: each tied move is equally likely.
			ties++
			if s.rng.IntN(ties) == 0 {
				res.move = m
			}
		}
	}
	return res
}

// mctsNode is one node of the UCT tree.
type mctsNode struct {
	move     engine.Move
	mover    int // the seat that played move
	parent   *mctsNode
	children []*mctsNode
	untried  []engine.Move
	visits   float64
	reward   float64 // for mover
}

// searchMCTS runs UCT with uniformly random playouts; the answer is the
// most visited move, its value the mover's mean reward (win 1, draw ½).
func (s *searcher) searchMCTS(st engine.State, playouts int, explore float64) searchResult {
	if st.Terminal() {
		return searchResult{}
	}
	root := &mctsNode{untried: s.rootMoves(st)}
	if len(root.untried) == 0 {
		return searchResult{}
	}
	var buf []engine.Move
	done := 0
	for ; done < playouts; done++ {
		if done&15 == 0 {
			s.poll()
			if s.stopped {
				break
			}
		}
		node, cur := root, st.Clone()
		for len(node.untried) == 0 && len(node.children) > 0 {
			node = node.pick(explore)
			cur.Apply(node.move)
		}
		if len(node.untried) > 0 {
			m := node.untried[len(node.untried)-1]
			node.untried = node.untried[:len(node.untried)-1]
			mover := cur.ToMove()
			cur.Apply(m)
			child := &mctsNode{move: m, mover: mover, parent: node}
			if !cur.Terminal() {
				child.untried = s.rootMoves(cur)
			}
			node.children = append(node.children, child)
			node = child
		}
		for !cur.Terminal() {
			var m engine.Move
			var ok bool
			m, buf, ok = engine.RandomLegal(cur, s.rng, buf)
			if !ok {
				break
			}
			cur.Apply(m)
		}
		r := cur.Result()
		for n := node; n != nil; n = n.parent {
			n.visits++
			switch {
			case r.Draw || r.Winner == engine.NoSeat:
				n.reward += 0.5
			case r.Winner == n.mover:
				n.reward++
			}
		}
	}
	var best *mctsNode
	for _, c := range root.children {
		if best == nil || c.visits > best.visits {
			best = c
		}
	}
	if best == nil {
		return searchResult{move: root.untried[len(root.untried)-1], ok: true, count: done}
	}
	return searchResult{move: best.move, value: best.reward / best.visits, count: done, ok: true}
}

func (n *mctsNode) pick(explore float64) *mctsNode {
	var best *mctsNode
	bestV := math.Inf(-1)
	logN := math.Log(n.visits)
	for _, c := range n.children {
		v := c.reward/c.visits + explore*math.Sqrt(logN/c.visits)
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// openSearch installs the global table "search" with the helpers.
func (e *gameEnv) openSearch(L *glua.LState) {
	t := L.NewTable()
	t.RawSetString("WIN", glua.LNumber(winValue))
	t.RawSetString("alphabeta", L.NewFunction(e.luaAlphaBeta))
	t.RawSetString("greedy", L.NewFunction(e.luaGreedy))
	t.RawSetString("mcts", L.NewFunction(e.luaMCTS))
	L.SetGlobal("search", t)
}

// searcherFor sets up a searcher for a call from Lua, reading the
// optional options table (time_ms) at argument optArg.
func (e *gameEnv) searcherFor(L *glua.LState, st engine.State, eval evalFunc, optArg int) *searcher {
	s := &searcher{ctx: L.Context(), eval: eval, me: st.ToMove(), rng: e.rng}
	if s.ctx == nil {
		s.ctx = context.Background()
	}
	s.hardStop = func(err error) { L.RaiseError("%v", err) }
	if opts, ok := L.Get(optArg).(*glua.LTable); ok {
		if ms, ok := opts.RawGetString("time_ms").(glua.LNumber); ok && ms > 0 {
			s.soft = time.Now().Add(time.Duration(float64(ms) * float64(time.Millisecond)))
		}
	} else if L.Get(optArg) != glua.LNil {
		L.ArgError(optArg, "options table expected")
	}
	return s
}

// luaEval calls a Lua evaluation function as eval_fn(state, me). The
// state object wraps st without a copy: the searches never change a
// position once it has been evaluated.
func (e *gameEnv) luaEval(L *glua.LState, fn *glua.LFunction) evalFunc {
	return func(st engine.State, me int) float64 {
		L.Push(fn)
		L.Push(e.wrap(st))
		L.Push(glua.LNumber(me))
		L.Call(2, 1)
		v := L.Get(-1)
		L.Pop(1)
		n, ok := v.(glua.LNumber)
		if !ok || math.IsNaN(float64(n)) {
			L.RaiseError("search: the evaluation function returned %s, want a number", describe(v))
		}
		return float64(n)
	}
}

func describe(v glua.LValue) string {
	switch v.Type() {
	case glua.LTNumber:
		return "NaN"
	case glua.LTNil:
		return "nil"
	}
	return "a " + v.Type().String()
}

func (e *gameEnv) pushResult(L *glua.LState, st engine.State, r searchResult, extra ...glua.LValue) int {
	if !r.ok {
		L.Push(glua.LNil)
		L.Push(glua.LNil)
		return 2
	}
	L.Push(glua.LString(st.FormatMove(r.move)))
	L.Push(glua.LNumber(r.value))
	for _, v := range extra {
		L.Push(v)
	}
	return 2 + len(extra)
}

// search.alphabeta(state, depth, eval_fn [, {time_ms = N}]) returns the
// best move, its value, the depth completed and the nodes searched.
func (e *gameEnv) luaAlphaBeta(L *glua.LState) int {
	st := e.check(L, 1).st
	depth := L.CheckInt(2)
	if depth < 1 || depth > 64 {
		L.ArgError(2, "depth must be 1..64")
	}
	fn := L.CheckFunction(3)
	s := e.searcherFor(L, st, e.luaEval(L, fn), 4)
	r := s.searchAlphaBeta(st, depth)
	return e.pushResult(L, st, r, glua.LNumber(r.depth), glua.LNumber(r.count))
}

// search.greedy(state, eval_fn) returns the move whose result evaluates
// best for the side to move, and that value.
func (e *gameEnv) luaGreedy(L *glua.LState) int {
	st := e.check(L, 1).st
	fn := L.CheckFunction(2)
	s := e.searcherFor(L, st, e.luaEval(L, fn), 3)
	return e.pushResult(L, st, s.searchGreedy(st))
}

// search.mcts(state, playouts [, {time_ms = N, c = 1.4}]) returns the
// most visited move, its mean reward and the playouts run.
func (e *gameEnv) luaMCTS(L *glua.LState) int {
	st := e.check(L, 1).st
	playouts := L.CheckInt(2)
	if playouts < 1 {
		L.ArgError(2, "playouts must be positive")
	}
	s := e.searcherFor(L, st, nil, 3)
	explore := 1.4
	if opts, ok := L.Get(3).(*glua.LTable); ok {
		if c, ok := opts.RawGetString("c").(glua.LNumber); ok && c >= 0 {
			explore = float64(c)
		}
	}
	r := s.searchMCTS(st, playouts, explore)
	return e.pushResult(L, st, r, glua.LNumber(r.count))
}
