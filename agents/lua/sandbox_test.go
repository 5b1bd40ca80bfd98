package lua

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/dotsboxes"
	"arena/plugins/sdk"
)

// escapeScript misbehaves with body on its first move (line 5 of the
// script) and plays random legal moves afterwards.
func escapeScript(body string) string {
	return "local first = true\n" +
		"function choose_move(state, clock)\n" +
		"  if first then\n" +
		"    first = false\n" +
		"    " + body + "\n" +
		"  end\n" +
		"  local moves = state:legal_moves()\n" +
		"  return moves[math.random(#moves)]\n" +
		"end\n"
}

// sandboxProfile is comp424-2017 (an agent error gets a random move and
// the game goes on) with a short limit and a long cushion: a reply at the
// limit is late but inside the cushion.
func sandboxProfile(t *testing.T) engine.Profile {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.FirstMoveLimit = 2 * time.Second
	p.MoveLimit = 2 * time.Second
	p.Cushion = 8 * time.Second
	return p
}

// TestSandboxEscapesFail plays each escape attempt as seat 0 of a
// refereed Bohnenspiel game: the attempt must fail with a clear message
// naming the script's line, cost exactly the profile's penalty, and leave
// the host untouched.
func TestSandboxEscapesFail(t *testing.T) {
	canary := filepath.Join(t.TempDir(), "canary")
	cases := []struct {
		name, body string
		kind       engine.Failure // the event the referee records
		want       string         // in the error text
	}{
		{"os.execute", `os.execute("touch ` + canary + `")`, engine.FailError, "os is not available"},
		{"io.open", `io.open("` + canary + `", "w"):write("x")`, engine.FailError, "io is not available"},
		{"require", `require("os")`, engine.FailError, "require is not available"},
		{"dofile", `dofile("/etc/passwd")`, engine.FailError, "dofile is not available"},
		{"loadstring bytecode", `loadstring("\27LuaQ\0\1\4\8\4\8\0")()`, engine.FailError, "loadstring is not available"},
		{"load", `load(function() return nil end)`, engine.FailError, "load is not available"},
		{"debug.getregistry", `debug.getregistry()`, engine.FailError, "debug is not available"},
		{"collectgarbage", `collectgarbage("count")`, engine.FailError, "collectgarbage is not available"},
		{"coroutine", `coroutine.wrap(function() end)()`, engine.FailError, "coroutine is not available"},
		{"string.rep bomb", `local s = string.rep("x", 1e10)`, engine.FailError, "string.rep: the result would be 10000000000 bytes, over the 16 MiB"},
		{"string.rep method bomb", `local s = ("xy"):rep(2^40)`, engine.FailError, "string.rep: the result would be"},
		{"string.format width bomb", `local s = string.format("%99999d", 1)`, engine.FailError, "width or precision too long"},
		{"unpack bomb", `local t = {unpack({}, 1, 1e8)}`, engine.FailError, "too many results to unpack"},
		{"unbounded recursion", `local function f(n) return 1 + f(n + 1) end f(1)`, engine.FailError, "stack overflow (calls nest at most 1000 deep: unbounded recursion?)"},
		{"setmetatable on the state", `setmetatable(state, {__index = function() return function() return 0 end end})`, engine.FailError, "cannot change a protected metatable"},
		{"assigning to the state", `state.legal_moves = function() return {"SKIP 1"} end`, engine.FailError, "state objects are read-only"},
		{"rawset on the state", `rawset(state, "apply", print)`, engine.FailError, "bad argument #1 to rawset"},
	}
	launch := inProcessLauncher()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeScript(t, "escape.lua", escapeScript(c.body))
			rec := playReferee(t, launch, bohnenspiel.Game{}, nil, sandboxProfile(t), Prefix+path, "builtin:random")
			if len(rec.Events) != 1 {
				t.Fatalf("want one penalty event, got %+v", rec.Events)
			}
			ev := rec.Events[0]
			text := ev.Detail
			if ev.Seat != 0 || ev.Ply != 0 || ev.Kind != string(c.kind) || ev.Penalty != string(engine.RandomMove) {
				t.Errorf("event %+v, want %s with a random move for seat 0 at ply 0", ev, c.kind)
			}
			if !strings.Contains(text, path+":5:") || !strings.Contains(text, c.want) {
				t.Errorf("message %q, want %q at %s:5", text, c.want, path)
			}
			// The game went on: a substitute move, then the script's own.
			if rec.Result.Forfeit != "" || len(rec.Moves) < 4 || rec.Moves[0].Source != record.SourceRandom || rec.Moves[2].Source != record.SourceAgent {
				t.Errorf("game did not go on after the penalty: %+v, moves %+v", rec.Result, rec.Moves[:min(4, len(rec.Moves))])
			}
		})
	}
	if _, err := os.Stat(canary); !os.IsNotExist(err) {
		t.Errorf("a script reached the file system: %s exists (%v)", canary, err)
	}
}

// TestRunawayScriptsTimeOut: a script that does not return is never
// stopped at the move's limit; it has not replied by the hard deadline
// (limit + cushion), a timeout, which comp424-2017 punishes with a loss.
// Each spins a CPU to its hard deadline, so -short keeps the first.
func TestRunawayScriptsTimeOut(t *testing.T) {
	prof := sandboxProfile(t)
	prof.FirstMoveLimit, prof.MoveLimit, prof.Cushion = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	launch := inProcessLauncher()
	for _, c := range []struct{ name, body string }{
		{"endless loop", `while true do end`},
		{"endless tail calls", `local function f(n) return f(n + 1) end f(1)`},
		{"loop inside pcall", `pcall(function() while true do end end) return "PIT 0 0"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.name != "endless loop" {
				t.Skip("-short keeps the endless loop")
			}
			t.Parallel() // each waits for its hard deadline
			path := writeScript(t, "loop.lua", escapeScript(c.body))
			start := time.Now()
			rec := playReferee(t, launch, bohnenspiel.Game{}, nil, prof, Prefix+path, "builtin:random")
			if el := time.Since(start); el < 600*time.Millisecond {
				t.Fatalf("the game ended after %v, before the hard deadline", el)
			}
			if rec.Result.Winner != 1 || rec.Result.Reason != "TIMEOUT" || len(rec.Moves) != 0 {
				t.Fatalf("result %+v, moves %d; want a TIMEOUT loss on the first move", rec.Result, len(rec.Moves))
			}
			if len(rec.Events) != 1 || rec.Events[0].Kind != string(engine.FailTimeout) || rec.Events[0].Penalty != string(engine.Loss) {
				t.Fatalf("events %+v", rec.Events)
			}
		})
	}
}

// TestStateMetatableIsLocked checks, from inside a script, that the state
// object's metatable can be neither read nor replaced, and that the
// object still works after the attempts.
func TestStateMetatableIsLocked(t *testing.T) {
	src := `
function choose_move(state, clock)
  assert(getmetatable(state) == "arena state (locked)", "getmetatable gave " .. tostring(getmetatable(state)))
  assert(not pcall(setmetatable, state, {}), "setmetatable succeeded")
  assert(not pcall(setmetatable, state, nil), "clearing the metatable succeeded")
  assert(not pcall(function() state.ply = function() return 99 end end), "assignment succeeded")
  assert(not pcall(rawset, state, "ply", 1), "rawset succeeded")
  assert(rawget(_G, "debug") == nil and rawget(_G, "os") == nil, "a library is reachable")
  assert(state:ply() == 0 and #state:legal_moves() > 0, "state broken after the attempts")
  return state:legal_moves()[1]
end`
	move, err := moveOnce(t, src, bohnenspiel.Game{}, nil)
	if err != nil || move != "PIT 0 0" {
		t.Fatalf("move %q, %v", move, err)
	}
}

// moveOnce runs choose_move once on the start position.
func moveOnce(t *testing.T, src string, g engine.Game, params map[string]string) (string, error) {
	t.Helper()
	st, err := g.NewState(engine.Params(params))
	if err != nil {
		t.Fatal(err)
	}
	return moveAt(t, newAgent(t, writeScript(t, "bot.lua", src), nil), g, params, st, time.Second)
}

// moveAt starts a game for a and asks it for one move in st.
func moveAt(t *testing.T, a *Agent, g engine.Game, params map[string]string, st engine.State, limit time.Duration) (string, error) {
	t.Helper()
	ctx := context.Background()
	game := sdk.Game{Game: g.Info().Name, Params: params, Seat: st.ToMove(), Seed: 1}
	if err := a.Start(ctx, game); err != nil {
		return "", err
	}
	var legal []string
	for _, m := range st.LegalMoves(nil) {
		legal = append(legal, st.FormatMove(m))
	}
	turn := sdk.Turn{Game: game, State: st.Clone(), Legal: legal}
	turn.Seat, turn.Ply, turn.Board = st.ToMove(), st.Ply(), st.Text()
	turn.TimeLeft, turn.Deadline = limit, time.Now().Add(limit)
	return a.Move(ctx, turn)
}

// TestMemoryCap grows a table without end in a profile without a memory
// limit: the heap watch stops the script with a clear error, which this
// profile punishes with a loss.
func TestMemoryCap(t *testing.T) {
	path := writeScript(t, "hog.lua", escapeScript(`local t, i = {}, 0 while true do i = i + 1 t[i] = {i, tostring(i)} end`))
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A deadline far away: the cap, not the clock, must stop the script.
	prof.MoveLimit, prof.FirstMoveLimit = 30*time.Second, 30*time.Second
	start := time.Now()
	rec := playReferee(t, inProcessLauncher(), dotsboxes.Game{}, nil, prof, Prefix+path+"?mem=16", "builtin:random")
	if rec.Result.Forfeit != string(engine.FailError) || rec.Result.Winner != 1 || rec.Result.Reason != "AGENT ERROR: player 1" {
		t.Fatalf("result %+v, want a loss for the error", rec.Result)
	}
	if len(rec.Events) != 1 || !strings.Contains(rec.Events[0].Detail, "memory limit exceeded") || !strings.Contains(rec.Events[0].Detail, "16 MiB cap") {
		t.Fatalf("events %+v", rec.Events)
	}
	if el := time.Since(start); el > 25*time.Second {
		t.Errorf("stopping took %v (the move limit is 30 s)", el)
	}
}

// TestLostStateIsReported fills the registry (values held by nested calls,
// each under the unpack cap): gopher-lua cannot recover its state from
// that, so this move and the next report the failure instead of crashing.
func TestLostStateIsReported(t *testing.T) {
	src := `
local big = {}
for i = 1, 7000 do big[i] = i end
local function g(...) return 1 + g(unpack(big)) end
function choose_move(state, clock)
  if state:ply() < 2 then g() end
  return state:legal_moves()[1]
end`
	a := newAgent(t, writeScript(t, "deep.lua", src), nil)
	st, _ := bohnenspiel.Game{}.NewState(nil)
	// A minute: the overflow, not the deadline, must end the move, however
	// long a loaded machine takes to recurse that deep.
	_, err := moveAt(t, a, bohnenspiel.Game{}, nil, st, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "registry overflow") || !strings.Contains(err.Error(), "lost for the rest of the game") {
		t.Fatalf("first move: %v", err)
	}
	turn := sdk.Turn{Game: sdk.Game{Game: "bohnenspiel"}, State: st.Clone()}
	turn.Deadline = time.Now().Add(time.Second)
	if _, err := a.Move(context.Background(), turn); err == nil || !strings.Contains(err.Error(), "no Lua state since an earlier failure") {
		t.Fatalf("second move: %v", err)
	}
}

// TestScriptErrorsNameTheLine covers the failures a script author meets
// most: a runtime error, a non-string reply, an error in init or at load.
func TestScriptErrorsNameTheLine(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"runtime error", "function choose_move(state)\n  local t = nil\n  return t.move\nend\n", "bot.lua:3: attempt to index a non-table object(nil) with key 'move'"},
		{"number reply", "function choose_move(state)\n  return 42\nend\n", `bot.lua:1: choose_move returned the number 42, want the move as text such as "PIT 0 0"`},
		{"nil reply", "function choose_move(state)\nend\n", "bot.lua:1: choose_move returned nil (nothing), want the move as text"},
		{"error in init", "function init(info)\n  error(\"no \" .. info.game)\nend\nfunction choose_move(s) return s:legal_moves()[1] end\n", "bot.lua:2: no bohnenspiel"},
		{"error at load", "local x = nil\nx.y = 1\nfunction choose_move(s) return s:legal_moves()[1] end\n", "bot.lua:2: attempt to index a non-table object(nil)"},
		{"no choose_move", "function choose_mvoe(s) end -- choose_move misspelt\n", "defines no global function choose_move"},
		{"bad apply", "function choose_move(s)\n  return s:apply(\"PIT 0 9\"):legal_moves()[1]\nend\n", `bot.lua:2: apply("PIT 0 9"): illegal move`},
		{"search eval returns nil", "function choose_move(s)\n  return search.greedy(s, function() end)\nend\n", "bot.lua:2: search: the evaluation function returned nil, want a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			move, err := moveOnce(t, c.src, bohnenspiel.Game{}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("move %q, error %v; want %q", move, err, c.want)
			}
		})
	}
}

// TestIllegalMoveReachesTheReferee: an illegal move is the script's
// answer, judged by the referee as any agent's.
func TestIllegalMoveReachesTheReferee(t *testing.T) {
	path := writeScript(t, "illegal.lua", `function choose_move(state) return "PIT 0 9" end`)
	rec := playReferee(t, inProcessLauncher(), bohnenspiel.Game{}, nil, sandboxProfile(t), Prefix+path, "builtin:random")
	if rec.Result.Winner != 1 || rec.Result.Reason != "ILLEGAL MOVE: Player 0 plays pit 9" || rec.Result.Forfeit != string(engine.FailIllegal) {
		t.Fatalf("result %+v", rec.Result)
	}
}

// TestPrintGoesToStderr: print is the agent's stderr, which the referee
// keeps with the record.
func TestPrintGoesToStderr(t *testing.T) {
	path := writeScript(t, "chatty.lua", `
function choose_move(state)
  print("ply", state:ply(), nil, true)
  return state:legal_moves()[1]
end`)
	rec := playReferee(t, inProcessLauncher(), bohnenspiel.Game{}, nil, sandboxProfile(t), Prefix+path, "builtin:random")
	if !strings.Contains(rec.Stderr[0], "ply\t0\tnil\ttrue\n") || !strings.Contains(rec.Stderr[0], "ply\t2\tnil\ttrue\n") {
		t.Fatalf("stderr %q", rec.Stderr[0])
	}
}
