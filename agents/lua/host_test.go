package lua

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/agents/builtin"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/plugins/host"
)

// subprocesses launches agents as real plugin subprocesses of the test
// binary (see TestMain) and remembers them, to check none outlives its game.
type subprocesses struct {
	mu   sync.Mutex
	list []*host.Process
}

func (s *subprocesses) launcher() referee.Launcher {
	l := &host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: builtin.Names(), StderrBytes: 8192}
	return func(ctx context.Context, p referee.Player, opt host.Options) (referee.Handle, error) {
		proc, err := l.Launch(ctx, p.Ref, opt)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.list = append(s.list, proc)
		s.mu.Unlock()
		return referee.Wrap(proc), nil
	}
}

func (s *subprocesses) assertGone(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, proc := range s.list {
		if !proc.WaitGone(10 * time.Second) {
			t.Errorf("agent %s: process group still alive after the game", proc.Cmd.Ref)
		}
	}
}

// longRunning skips a test under -short: the short suite keeps a real
// subprocess's game and its refused start, and leaves out the subprocess
// games that wait on a hard deadline, kill a stuck process or fill a
// memory cap (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("waits on a subprocess's hard deadline or memory: runs without -short")
	}
}

// subprocessProfile is comp424-2017 with room for process start-up on
// the first move, a short limit afterwards and a long cushion.
func subprocessProfile(t *testing.T) engine.Profile {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.FirstMoveLimit = 20 * time.Second
	p.MoveLimit = 2 * time.Second
	p.Cushion = 8 * time.Second
	return p
}

// TestSubprocessExample plays the Bohnenspiel example, with a parameter,
// as a real subprocess of the arena's kind against builtin random.
func TestSubprocessExample(t *testing.T) {
	var ps subprocesses
	rec := playReferee(t, ps.launcher(), bohnenspiel.Game{}, nil, subprocessProfile(t), "lua:examples/bohnenspiel.lua?depth=3", "builtin:random")
	ps.assertGone(t)
	if rec.Result.Winner != 0 || rec.Result.Forfeit != "" || len(rec.Events) != 0 {
		t.Fatalf("result %+v, events %+v; want a clean win for the script", rec.Result, rec.Events)
	}
	for _, m := range rec.Moves {
		if m.Source != record.SourceAgent {
			t.Fatalf("move %+v was not the agent's", m)
		}
	}
}

// hardProfile is comp424-2017 with room for process start-up on the first
// move and a short limit and cushion afterwards.
func hardProfile(t *testing.T) engine.Profile {
	p := subprocessProfile(t)
	p.MoveLimit = 500 * time.Millisecond
	p.Cushion = 500 * time.Millisecond
	return p
}

// TestSubprocessEndlessLoop: a script looping forever in its own process
// is not stopped at the limit (that would make it an error report or a
// late reply): it has not replied by the hard deadline, which is a
// timeout, a loss under comp424-2017, as for any agent.
func TestSubprocessEndlessLoop(t *testing.T) {
	longRunning(t)
	path := writeScript(t, "loop.lua", `
local moves_made = 0
function choose_move(state, clock)
  moves_made = moves_made + 1
  if moves_made == 2 then
    while true do end
  end
  local m = state:legal_moves()
  return m[math.random(#m)]
end`)
	var ps subprocesses
	rec := playReferee(t, ps.launcher(), bohnenspiel.Game{}, nil, hardProfile(t), Prefix+path, "builtin:random")
	ps.assertGone(t)
	assertTimeoutLoss(t, rec, 0, 2)
}

// assertTimeoutLoss checks that seat lost by TIMEOUT at ply, with one
// timeout event and the opponent's moves all its own.
func assertTimeoutLoss(t *testing.T, rec *record.Game, seat, ply int) {
	t.Helper()
	if rec.Result.Winner != 1-seat || rec.Result.Reason != "TIMEOUT" || rec.Result.Forfeit != string(engine.FailTimeout) {
		t.Fatalf("result %+v, events %+v; want a TIMEOUT loss for seat %d", rec.Result, rec.Events, seat)
	}
	if len(rec.Events) != 1 || rec.Events[0].Kind != string(engine.FailTimeout) || rec.Events[0].Seat != seat || rec.Events[0].Ply != ply {
		t.Fatalf("events %+v, want one timeout of seat %d at ply %d", rec.Events, seat, ply)
	}
	for _, m := range rec.Moves {
		if m.Source != record.SourceAgent {
			t.Fatalf("move %+v substituted; the opponent's game must be unaffected", m)
		}
	}
}

// TestSubprocessStuckInLibraryCall: a script inside one Go library call
// (a backtracking string.find pattern that runs for ages) cannot be
// interrupted by its Lua context; the referee judges the timeout at the
// hard deadline and the process is killed, under comp424-2017 (a loss)
// and hex cross-out (a random move, and a fresh process for the next
// turn).
func TestSubprocessStuckInLibraryCall(t *testing.T) {
	longRunning(t)
	path := writeScript(t, "find.lua", `
local moves_made = 0
function choose_move(state, clock)
  moves_made = moves_made + 1
  if moves_made == 2 then
    string.find(string.rep("a", 300), "a*a*a*a*a*a*b")
  end
  local m = state:legal_moves()
  return m[math.random(#m)]
end`)
	t.Run("comp424-2017", func(t *testing.T) {
		var ps subprocesses
		start := time.Now()
		rec := playReferee(t, ps.launcher(), bohnenspiel.Game{}, nil, hardProfile(t), Prefix+path, "builtin:random")
		ps.assertGone(t)
		assertTimeoutLoss(t, rec, 0, 2)
		if el := time.Since(start); el > time.Minute {
			t.Fatalf("the game took %v", el)
		}
	})
	t.Run("nycu-aicap-2023", func(t *testing.T) {
		prof, err := hexcrossout.Game{}.Profile(nil)
		if err != nil {
			t.Fatal(err)
		}
		prof.MoveLimit = time.Second
		prof.FirstMoveLimit = 20 * time.Second
		var ps subprocesses
		rec := playReferee(t, ps.launcher(), hexcrossout.Game{}, engine.Params{"free": "12", "seed": "3"}, prof, Prefix+path, "builtin:random")
		ps.assertGone(t)
		timeouts := 0
		for _, e := range rec.Events {
			if e.Kind == string(engine.FailTimeout) && e.Seat == 0 && e.Penalty == string(engine.RandomMove) {
				timeouts++
			}
		}
		if timeouts == 0 || rec.Result.Forfeit != "" {
			t.Fatalf("result %+v events %+v; want a timeout with a random move and the game going on", rec.Result, rec.Events)
		}
		if len(ps.list) < 3 {
			t.Fatalf("%d processes; the stuck one must be replaced by a fresh one", len(ps.list))
		}
		for _, m := range rec.Moves {
			if m.Seat == 1 && m.Source != record.SourceAgent {
				t.Fatalf("opponent's move %+v substituted", m)
			}
		}
	})
}

// TestSubprocessMemoryCap: in a profile without a memory limit the Lua
// host caps its own heap (here ?mem=48) and the script's error costs the
// profile's penalty; the host process survives to say so.
func TestSubprocessMemoryCap(t *testing.T) {
	longRunning(t)
	path := writeScript(t, "hog.lua", escapeScript(`local t, s = {}, string.rep("x", 1000) while true do t[#t + 1] = s .. #t end`))
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	// Memory is the subject, not time: filling 48 MB took the script past
	// the course's 5 s at sixteen CPU burners on two cores.
	prof.FirstMoveLimit, prof.MoveLimit = 2*time.Minute, 2*time.Minute
	var ps subprocesses
	rec := playReferee(t, ps.launcher(), dotsboxes.Game{}, nil, prof, Prefix+path+"?mem=48", "builtin:random")
	ps.assertGone(t)
	if rec.Result.Forfeit != string(engine.FailError) || rec.Result.Reason != "AGENT ERROR: player 1" {
		t.Fatalf("result %+v, events %+v", rec.Result, rec.Events)
	}
	if len(rec.Events) != 1 || !strings.Contains(rec.Events[0].Detail, path+":5: memory limit exceeded") {
		t.Fatalf("events %+v", rec.Events)
	}
}

// TestSubprocessSyntaxError: a script that does not compile never gets
// to play; the launch fails with the file and line on the agent's stderr.
func TestSubprocessSyntaxError(t *testing.T) {
	path := writeScript(t, "broken.lua", "function choose_move(state)\n  return state:legal_moves()[1]\nend end\n")
	var ps subprocesses
	rec := playReferee(t, ps.launcher(), bohnenspiel.Game{}, nil, subprocessProfile(t), Prefix+path, "builtin:random")
	if len(rec.Events) != 1 || rec.Events[0].Kind != string(engine.FailNoShow) || !strings.Contains(rec.Events[0].Detail, path+":3:") {
		t.Fatalf("events %+v", rec.Events)
	}
	if rec.Result.Winner != 1 || rec.Result.Forfeit != string(engine.FailNoShow) || len(rec.Moves) != 0 {
		t.Fatalf("result %+v: a script that never starts forfeits", rec.Result)
	}
}

// TestSubprocessRunawayLibraryCall: one library call (here a string.gsub
// with a 2 GB result) cannot be stopped halfway, so the Lua host ends its
// own process once the heap passes twice the cap, saying why; the referee
// sees a dead agent and the arena is unharmed.
func TestSubprocessRunawayLibraryCall(t *testing.T) {
	longRunning(t)
	path := writeScript(t, "gsub.lua", escapeScript(`local s = string.gsub(string.rep("x", 2^20), "x", string.rep("y", 2000))`))
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The memory rule must end the move, not the clock: a loaded machine
	// may take longer than the course's 5 s to build the string.
	prof.MoveLimit, prof.FirstMoveLimit = time.Minute, time.Minute
	var ps subprocesses
	rec := playReferee(t, ps.launcher(), dotsboxes.Game{}, nil, prof, Prefix+path+"?mem=16", "builtin:random")
	ps.assertGone(t)
	if rec.Result.Forfeit != string(engine.FailDead) || rec.Result.Reason != "AGENT DIED: player 1" {
		t.Fatalf("result %+v, events %+v", rec.Result, rec.Events)
	}
	if !strings.Contains(rec.Stderr[0], "memory limit exceeded") || !strings.Contains(rec.Stderr[0], "ending the agent process") {
		t.Fatalf("stderr %q; events %+v", rec.Stderr[0], rec.Events)
	}
}
