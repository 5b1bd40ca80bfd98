package referee_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// startSpy records the start options its agent was given.
type startSpy struct {
	*fakeAgent
	options map[string]string
}

func (s *startSpy) Start(ctx context.Context, info protocol.StartInfo) error {
	s.options = info.Options
	return s.fakeAgent.Start(ctx, info)
}

// TestMemoryRuleFollowsTheRuntime: under COMP424 a course JVM is started
// under a tree ceiling of heap + headroom and told its heap; an SDK agent
// in the same game keeps the 520 MiB resident rule; the course JVM's
// breach of its ceiling is recorded as such.
func TestMemoryRuleFollowsTheRuntime(t *testing.T) {
	prof := comp424(t)
	clk := newReplyClock(time.Unix(1000, 0))
	spies := [2]*startSpy{
		{fakeAgent: &fakeAgent{clk: clk, steps: []step{{}, {breach: true}}, mem: make(chan struct{})}},
		{fakeAgent: &fakeAgent{clk: clk, mem: make(chan struct{})}},
	}
	var limits [2]int
	r := &referee.Referee{
		Clock: clk,
		Launch: func(_ context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
			seat := int(p.Ref[0] - '0')
			limits[seat] = o.MemoryMB
			return spies[seat], nil
		},
		Runtime: func(p referee.Player) engine.Runtime {
			if p.Ref == "0" {
				return engine.RuntimeCourseJVM
			}
			return engine.RuntimeNative
		},
	}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: t.Name(), Game: bohnenspiel.Game{}, Profile: prof, Seed: 3,
		Players: [2]referee.Player{{Name: "jvm", Ref: "0", Options: map[string]string{engine.OptionJVMHeapMB: "4096", "own": "x"}}, {Name: "sdk", Ref: "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if limits != [2]int{520 + 1024, 520} {
		t.Fatalf("tree limits %v, want [1544 520]", limits)
	}
	// The profile's heap wins over a player's option; the player's own
	// options are kept.
	if o := spies[0].options; o[engine.OptionJVMHeapMB] != "520" || o["own"] != "x" {
		t.Fatalf("JVM start options %v", o)
	}
	if o := spies[1].options; len(o) != 0 {
		t.Fatalf("SDK agent start options %v, want none", o)
	}
	var ev []string
	for _, e := range rec.Events {
		ev = append(ev, e.Kind+": "+e.Detail)
	}
	if len(rec.Events) == 0 || rec.Events[0].Kind != string(engine.FailMemory) ||
		!strings.Contains(rec.Events[0].Detail, "1544 MiB safety ceiling of a JVM with a 520 MiB heap") {
		t.Fatalf("events %q", ev)
	}
}

// pythonRuleMatch plays a game under a profile with the course Python
// space rule (a 200 MiB peak): seat 0 is the handle seat0 makes, run as
// rt, seat 1 a plain fake.
func pythonRuleMatch(t *testing.T, rt engine.Runtime, seat0 func(*replyClock) referee.Handle) *record.Game {
	t.Helper()
	prof := cpuProfile()
	prof.PythonPeakMB, prof.PythonCeilingMB = 200, 2048
	prof.Reasons[engine.FailMemory] = "player {player} exceeded space limit"
	clk := newReplyClock(time.Unix(1000, 0))
	r := &referee.Referee{
		Clock:  clk,
		Launch: seatLauncher(seat0(clk), &fakeAgent{clk: clk, mem: make(chan struct{})}),
		Runtime: func(p referee.Player) engine.Runtime {
			if p.Ref == "0" {
				return rt
			}
			return engine.RuntimeNative
		},
	}
	rec, err := r.Play(context.Background(), referee.Match{ID: t.Name(), Game: bohnenspiel.Game{}, Profile: prof, Seed: 3, Players: fakeSeats})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// checkPythonRule checks that seat 0 lost by want, one event, and, under
// the course Python rule, with the course's reason and detail.
func checkPythonRule(t *testing.T, rec *record.Game, rt engine.Runtime, want engine.Failure, detail string) {
	t.Helper()
	if len(rec.Events) != 1 || rec.Events[0].Kind != string(want) || rec.Events[0].Seat != 0 || rec.Result.Forfeit != string(want) {
		t.Fatalf("%q: events %+v result %+v, want one %s of seat 0", rt, rec.Events, rec.Result, want)
	}
	if rt == engine.RuntimeCoursePython && (rec.Result.Reason != "player 1 exceeded space limit" || !strings.Contains(rec.Events[0].Detail, detail)) {
		t.Fatalf("result %+v, event %+v", rec.Result, rec.Events[0])
	}
}

// TestSpaceBreachOnlyFromCoursePython: a course Python agent's report that
// it passed the course's space limit is a memory loss with the course's
// reason; the same text from an agent not under that rule is an agent
// error, so no agent can choose its verdict.
func TestSpaceBreachOnlyFromCoursePython(t *testing.T) {
	for _, rt := range []engine.Runtime{engine.RuntimeCoursePython, engine.RuntimeNative} {
		breach := &protocol.AgentError{Message: engine.SpaceBreach + "peak 250 MiB above the size after imports"}
		rec := pythonRuleMatch(t, rt, func(clk *replyClock) referee.Handle {
			return &fakeAgent{clk: clk, steps: []step{{}, {err: breach}}, mem: make(chan struct{})}
		})
		want := engine.FailMemory
		if rt == engine.RuntimeNative {
			want = engine.FailError
		}
		checkPythonRule(t, rec, rt, want, "250 MiB")
	}
}

// failingStart is a fake whose game opening fails with err.
type failingStart struct {
	*fakeAgent
	err error
}

func (f *failingStart) Start(context.Context, protocol.StartInfo) error { return f.err }

// TestSpaceBreachAtStartOnlyFromCoursePython: a course Python agent whose
// constructor passed the course's space limit came and lost for space,
// told by the text the protocol returns for a failed opening; the same
// text from an agent not under that rule is a failed handshake (no-show).
func TestSpaceBreachAtStartOnlyFromCoursePython(t *testing.T) {
	for _, rt := range []engine.Runtime{engine.RuntimeCoursePython, engine.RuntimeNative} {
		rec := pythonRuleMatch(t, rt, func(clk *replyClock) referee.Handle {
			return &failingStart{
				fakeAgent: &fakeAgent{clk: clk, mem: make(chan struct{})},
				err:       errors.New("the agent failed: " + engine.SpaceBreach + "peak 300 MiB above the size after imports"),
			}
		})
		want := engine.FailMemory
		if rt == engine.RuntimeNative {
			want = engine.FailNoShow
		}
		checkPythonRule(t, rec, rt, want, "300 MiB")
	}
}
