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

// TestSubprocessEndlessLoop: a script looping forever in its own process
// is stopped by its Lua context at the deadline and answers with an error,
// so the referee gets a reply (a random move under this profile), not a
// silent agent it must kill; the same process then plays on.
func TestSubprocessEndlessLoop(t *testing.T) {
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
	rec := playReferee(t, ps.launcher(), bohnenspiel.Game{}, nil, subprocessProfile(t), Prefix+path, "builtin:random")
	ps.assertGone(t)
	if len(rec.Events) != 1 {
		t.Fatalf("events %+v, want one", rec.Events)
	}
	// The deadline crosses the wire in whole milliseconds, so the error
	// may arrive just before the referee's limit (an error report) or just
	// after it (a late reply); both cost a random move here.
	ev := rec.Events[0]
	if (ev.Kind != string(engine.FailLate) && ev.Kind != string(engine.FailError)) || ev.Seat != 0 || ev.Penalty != string(engine.RandomMove) ||
		!strings.Contains(ev.Reply+ev.Detail, path+":6: stopped at the move deadline") {
		t.Fatalf("event %+v", ev)
	}
	if rec.Result.Forfeit != "" || len(ps.list) != 2 {
		t.Fatalf("result %+v with %d processes; want the game to go on with the same process", rec.Result, len(ps.list))
	}
}

// TestSubprocessMemoryCap: in a profile without a memory limit the Lua
// host caps its own heap (here ?mem=48) and the script's error costs the
// profile's penalty; the host process survives to say so.
func TestSubprocessMemoryCap(t *testing.T) {
	path := writeScript(t, "hog.lua", escapeScript(`local t, s = {}, string.rep("x", 1000) while true do t[#t + 1] = s .. #t end`))
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
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
	if len(rec.Events) == 0 || rec.Events[0].Kind != string(engine.FailDead) || !strings.Contains(rec.Events[0].Detail, path+":3:") {
		t.Fatalf("events %+v", rec.Events)
	}
}

// TestSubprocessRunawayLibraryCall: one library call (here a string.gsub
// with a 2 GB result) cannot be stopped halfway, so the Lua host ends its
// own process once the heap passes twice the cap, saying why; the referee
// sees a dead agent and the arena is unharmed.
func TestSubprocessRunawayLibraryCall(t *testing.T) {
	path := writeScript(t, "gsub.lua", escapeScript(`local s = string.gsub(string.rep("x", 2^20), "x", string.rep("y", 2000))`))
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
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
