package lua

import (
	"fmt"
	"math/rand/v2"

	glua "github.com/yuin/gopher-lua"

	"arena/engine"
)

// lockedMetatable is what getmetatable returns for a state object; its
// presence also makes setmetatable refuse to replace the metatable.
const lockedMetatable = "arena state (locked)"

// gameEnv is what every state object of one game shares. It belongs to the
// game's worker goroutine, like its Lua state.
type gameEnv struct {
	L      *glua.LState
	game   string
	params engine.Params // the game's parameters
	seat   int           // the agent's seat
	src    *rand.PCG
	rng    *rand.Rand
	mt     *glua.LTable // the state objects' metatable
	buf    []engine.Move
}

// stateObj is the Go side of a state object. Lua only ever reads st: every
// method that changes the position returns a new object, so objects may be
// kept, compared and shared freely by the script.
type stateObj struct {
	st    engine.State
	legal []string // the legal move texts, filled on first use
}

func newGameEnv(L *glua.LState, game string, params engine.Params, seat int, src *rand.PCG, rng *rand.Rand) *gameEnv {
	e := &gameEnv{L: L, game: game, params: params, seat: seat, src: src, rng: rng}
	methods := L.NewTable()
	for name, fn := range map[string]glua.LGFunction{
		"to_move":     e.toMove,
		"seat":        e.seatOf,
		"ply":         e.ply,
		"game":        e.gameName,
		"legal_moves": e.legalMoves,
		"legal_count": e.legalCount,
		"apply":       e.apply,
		"is_terminal": e.isTerminal,
		"result":      e.result,
		"scores":      e.scores,
		"board":       e.board,
		"cells":       e.cells,
		"clone":       e.clone,
		"hash":        e.hash,
	} {
		methods.RawSetString(name, L.NewFunction(fn))
	}
	e.mt = L.NewTable()
	e.mt.RawSetString("__index", methods)
	e.mt.RawSetString("__metatable", glua.LString(lockedMetatable))
	e.mt.RawSetString("__newindex", L.NewFunction(func(L *glua.LState) int {
		L.RaiseError("state objects are read-only; apply(move) returns a new state")
		return 0
	}))
	e.mt.RawSetString("__tostring", L.NewFunction(func(L *glua.LState) int {
		s := e.check(L, 1)
		L.Push(glua.LString(fmt.Sprintf("%s state, ply %d: %s", e.game, s.st.Ply(), s.st.Text())))
		return 1
	}))
	e.mt.RawSetString("__eq", L.NewFunction(func(L *glua.LState) int {
		a, b := e.check(L, 1), e.check(L, 2)
		L.Push(glua.LBool(a.st.Hash() == b.st.Hash() && a.st.ToMove() == b.st.ToMove() && a.st.Text() == b.st.Text()))
		return 1
	}))
	return e
}

// wrap makes st a state object. The caller gives up st: nothing may
// change it afterwards.
func (e *gameEnv) wrap(st engine.State) *glua.LUserData {
	ud := e.L.NewUserData()
	ud.Value = &stateObj{st: st}
	ud.Metatable = e.mt
	return ud
}

// check returns argument n as a state object, or raises an argument error.
func (e *gameEnv) check(L *glua.LState, n int) *stateObj {
	if ud, ok := L.Get(n).(*glua.LUserData); ok {
		if s, ok := ud.Value.(*stateObj); ok {
			return s
		}
	}
	L.ArgError(n, "state expected, got "+L.Get(n).Type().String()+" (call methods with a colon: state:to_move())")
	return nil
}

func (e *gameEnv) toMove(L *glua.LState) int {
	L.Push(glua.LNumber(e.check(L, 1).st.ToMove()))
	return 1
}

func (e *gameEnv) seatOf(L *glua.LState) int {
	e.check(L, 1)
	L.Push(glua.LNumber(e.seat))
	return 1
}

func (e *gameEnv) ply(L *glua.LState) int {
	L.Push(glua.LNumber(e.check(L, 1).st.Ply()))
	return 1
}

func (e *gameEnv) gameName(L *glua.LState) int {
	e.check(L, 1)
	L.Push(glua.LString(e.game))
	return 1
}

func (e *gameEnv) legalTexts(s *stateObj) []string {
	if s.legal == nil {
		e.buf = s.st.LegalMoves(e.buf[:0])
		s.legal = make([]string, len(e.buf))
		for i, m := range e.buf {
			s.legal[i] = s.st.FormatMove(m)
		}
	}
	return s.legal
}

func (e *gameEnv) legalMoves(L *glua.LState) int {
	legal := e.legalTexts(e.check(L, 1))
	t := L.CreateTable(len(legal), 0)
	for _, m := range legal {
		t.Append(glua.LString(m))
	}
	L.Push(t)
	return 1
}

func (e *gameEnv) legalCount(L *glua.LState) int {
	s := e.check(L, 1)
	if s.legal != nil {
		L.Push(glua.LNumber(len(s.legal)))
		return 1
	}
	e.buf = s.st.LegalMoves(e.buf[:0])
	L.Push(glua.LNumber(len(e.buf)))
	return 1
}

func (e *gameEnv) apply(L *glua.LState) int {
	s := e.check(L, 1)
	text := L.CheckString(2)
	if s.st.Terminal() {
		L.RaiseError("apply(%q): the game is over", text)
	}
	m, err := s.st.ParseMove(text)
	if err != nil {
		L.RaiseError("apply(%q): %v", text, err)
	}
	c := s.st.Clone()
	c.Apply(m)
	L.Push(e.wrap(c))
	return 1
}

func (e *gameEnv) isTerminal(L *glua.LState) int {
	L.Push(glua.LBool(e.check(L, 1).st.Terminal()))
	return 1
}

// seatPair is a table indexed by seat: t[0] and t[1].
func seatPair(L *glua.LState, v [2]int) *glua.LTable {
	t := L.CreateTable(0, 2)
	t.RawSetInt(0, glua.LNumber(v[0]))
	t.RawSetInt(1, glua.LNumber(v[1]))
	return t
}

func (e *gameEnv) result(L *glua.LState) int {
	s := e.check(L, 1)
	if !s.st.Terminal() {
		L.Push(glua.LNil)
		return 1
	}
	r := s.st.Result()
	t := L.CreateTable(0, 4)
	t.RawSetString("winner", glua.LNumber(r.Winner))
	t.RawSetString("draw", glua.LBool(r.Draw))
	t.RawSetString("scores", seatPair(L, r.Scores))
	t.RawSetString("reason", glua.LString(r.Reason))
	L.Push(t)
	return 1
}

func (e *gameEnv) scores(L *glua.LState) int {
	L.Push(seatPair(L, e.check(L, 1).st.Scores()))
	return 1
}

func (e *gameEnv) board(L *glua.LState) int {
	L.Push(glua.LString(e.check(L, 1).st.Text()))
	return 1
}

func (e *gameEnv) cells(L *glua.LState) int {
	s := e.check(L, 1)
	L.Push(e.view(L, s.st))
	return 1
}

func (e *gameEnv) clone(L *glua.LState) int {
	L.Push(e.wrap(e.check(L, 1).st.Clone()))
	return 1
}

func (e *gameEnv) hash(L *glua.LState) int {
	L.Push(glua.LString(fmt.Sprintf("%016x", e.check(L, 1).st.Hash())))
	return 1
}
