package lua

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	glua "github.com/yuin/gopher-lua"

	"arena/engine"
	"arena/plugins/sdk/search"
)

// winValue is what alphabeta and greedy give a won position (a lost one
// is -winValue), less one per ply to reach it, so nearer wins rank first.
const winValue = 1e9

// evalFunc scores a non-terminal position for seat me; larger is better.
type evalFunc func(st engine.State, me int) float64

// searcher runs the native search helpers over engine.State with the
// SDK's search library; only the evaluation may be Lua.
type searcher struct {
	ctx  context.Context // the move's deadline: past it the script is stopped
	soft time.Time       // the helper's own time budget; zero for none
	eval evalFunc
	me   int
	rng  *rand.Rand
	// hardStop reports that ctx is done; it does not return.
	hardStop func(error)
}

// limits are the library's limits for this call: the helper's own budget
// when it has one; the move's deadline always stops the search (ctx).
func (s *searcher) limits() search.Limits {
	return search.Limits{Deadline: s.soft, Soft: s.soft}
}

// checkHard stops the script when the move's deadline passed during a
// search: the library returned early, but the script must not go on.
func (s *searcher) checkHard() {
	if err := s.ctx.Err(); err != nil {
		s.hardStop(err)
	}
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

// searchResult is a helper's answer.
type searchResult struct {
	move  engine.Move
	value float64
	depth int // alphabeta: deepest completed depth
	count int // alphabeta: nodes; mcts: playouts
	ok    bool
}

// searchAlphaBeta searches to maxDepth plies by iterative deepening (PVS,
// killer and history ordering, no transposition table, so the value is
// exactly minimax over the script's evaluation); with a soft budget it
// answers with the deepest search completed. Root moves are shuffled by
// the script's generator, so equal moves are chosen between at random.
func (s *searcher) searchAlphaBeta(st engine.State, maxDepth int) searchResult {
	if st.Terminal() {
		return searchResult{}
	}
	ab := search.AlphaBeta{Eval: search.EvalFunc(s.eval), NoTT: true, Rand: s.rng}
	lim := s.limits()
	lim.MaxDepth = maxDepth
	r := ab.Search(s.ctx, st, lim)
	s.checkHard()
	if !r.OK {
		return searchResult{}
	}
	return searchResult{move: r.Move, value: r.Value, depth: r.Depth, count: int(r.Nodes), ok: true}
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
		s.checkHard()
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

// searchMCTS runs the library's UCT with uniformly random playouts and no
// tree reuse; the answer is the most visited move, its value the mover's
// mean reward (win 1, draw ½).
func (s *searcher) searchMCTS(st engine.State, playouts int, explore float64) searchResult {
	if st.Terminal() {
		return searchResult{}
	}
	m := search.MCTS{C: explore, Policy: search.UniformPolicy, NoReuse: true, Seed: s.rng.Uint64()}
	if explore == 0 {
		m.C = 1e-9 // the library reads 0 as its default
	}
	lim := s.limits()
	lim.MaxNodes = int64(playouts)
	r := m.Search(s.ctx, st, lim)
	s.checkHard()
	if !r.OK {
		return searchResult{}
	}
	return searchResult{move: r.Move, value: r.Value, count: int(r.Nodes), ok: true}
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
// state object wraps st without a copy, so it is only valid during the
// call: the search library reuses its per-ply states.
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
