package referee_test

import (
	"context"
	"testing"
	"time"

	"arena/arena/clock"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/plugins/host"
	"arena/plugins/host/proctree"
	"arena/plugins/protocol"
)

func playGame(t *testing.T, g engine.Game, params engine.Params, prof engine.Profile, a, b string) *record.Game {
	t.Helper()
	rec, _ := playGameProcs(t, timing{}, g, params, prof, a, b)
	return rec
}

// timing is how a real-process game keeps time. The zero value plays on a
// clock that stands still: no reply is ever late because the machine is
// busy, and a misbehaviour that is a matter of time comes on cue.
type timing struct {
	// real plays on the real clock: for the tests whose subject is how
	// long the referee waits in real time, or its wall-clock backstop.
	real bool
	// cueAt and cueBy make seat 0 slow on cue: once the cueAt-th move
	// request of each of its processes has left, the clock moves on by
	// cueBy, so its reply (or its deadline) comes that much later on the
	// referee's clock whatever the machine's load.
	cueAt int
	cueBy time.Duration
	// startupSubject keeps the profile's start-up limit. Otherwise it is
	// raised to startupRoom: a start-up is real time on the host, and a
	// sandboxed start on a machine at load 50 may take several seconds.
	startupSubject bool
}

// clockLead is how far ahead of the real clock a game's clock that stands
// still is set. Agents are told their deadlines on it: a Lua agent runs
// its script until then (plus its cushion), so a deadline the real clock
// passed during a slow start-up would stop a script at once. Half an hour
// is far past the five minutes a game is given (gameRoom).
const clockLead = 30 * time.Minute

// gameRoom bounds a real-process game in real time: on the clock that
// stands still nothing else ends a game that hangs. A flood game took over
// two minutes with eight CPU burners (load 47).
const gameRoom = 5 * time.Minute

// startupRoom is the start-up limit of games whose subject it is not.
const startupRoom = time.Minute

// playGameProcs plays a real-process game and also returns every agent
// process seen during it (all checked gone after it).
func playGameProcs(t *testing.T, tm timing, g engine.Game, params engine.Params, prof engine.Profile, a, b string) (*record.Game, []proctree.Proc) {
	t.Helper()
	var ps procs
	r := &referee.Referee{Launch: ps.launcher(t)}
	if !tm.real {
		clk := clock.NewFake(time.Now().Add(clockLead))
		r.Clock = clk
		if tm.cueAt > 0 {
			r.Launch = cueSeat0(r.Launch, clk, tm.cueAt, tm.cueBy)
		}
	}
	if !tm.startupSubject && prof.StartupTimeout > 0 && prof.StartupTimeout < startupRoom {
		prof = prof.Clone()
		prof.StartupTimeout = startupRoom
	}
	ctx, cancel := context.WithTimeout(context.Background(), gameRoom)
	defer cancel()
	rec, err := r.Play(ctx, referee.Match{
		ID: t.Name(), Game: g, Params: params, Profile: prof, Seed: 11,
		Players: [2]referee.Player{{Name: "A", Ref: a}, {Name: "B", Ref: b}},
	})
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	seen := ps.assertGone(t)
	return rec, seen
}

// cueSeat0 wraps every process launched for seat 0 in a cued handle.
func cueSeat0(launch referee.Launcher, clk *clock.Fake, at int, by time.Duration) referee.Launcher {
	return func(ctx context.Context, p referee.Player, opt host.Options) (referee.Handle, error) {
		h, err := launch(ctx, p, opt)
		if err != nil || p.Name != "A" {
			return h, err
		}
		return &cued{Handle: h, clk: clk, at: at, by: by}, nil
	}
}

// cued is a real agent's handle whose at-th move request takes by on the
// game's clock: the clock moves on once the request has left (the agent
// has it), before the referee waits for the reply, so the deadline timer
// fires then if by passes it.
type cued struct {
	referee.Handle
	clk *clock.Fake
	at  int
	by  time.Duration
	n   int
}

func (c *cued) MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error) {
	c.n++
	if c.n == c.at {
		inner := sent
		sent = func() {
			inner()
			c.clk.Advance(c.by)
		}
	}
	return c.Handle.(referee.Sender).MoveSent(ctx, req, sent)
}

// Usage keeps the run-queue evidence of the wrapped process.
func (c *cued) Usage() (cpu, runQueue time.Duration, err error) {
	return c.Handle.(referee.UsageReader).Usage()
}

func cachexProfile(t *testing.T, params engine.Params) engine.Profile {
	p, err := cachex.Game{}.Profile(params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCachexCPUBudgetWithRealProcess(t *testing.T) {
	longRunning(t)
	t.Parallel()
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params)
	prof.Budget = 1500 * time.Millisecond // the burner spends 3 s of CPU on its second move
	// The real clock: the budget's wall-clock backstop is part of the
	// subject (on a busy machine it, not the CPU count, ends the move).
	rec, _ := playGameProcs(t, timing{real: true}, cachex.Game{}, params, prof, "builtin:random", "builtin:burner")
	if rec.Result.Winner != 0 || rec.Result.Reason != "player 2 exceeded available time" {
		t.Fatalf("result %+v events %+v", rec.Result, rec.Events)
	}
	for _, m := range rec.Moves {
		if m.Seat == 1 && m.Text == "STEAL" && m.Ply > 1 {
			t.Fatalf("the over-budget reply was applied: %+v", m)
		}
	}
}

func TestCachexMemoryLimitWithRealProcess(t *testing.T) {
	longRunning(t)
	t.Parallel()
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params) // 100 MiB; the hog holds 320 MiB
	rec := playGame(t, cachex.Game{}, params, prof, "builtin:hog", "builtin:random")
	if rec.Result.Winner != 1 || rec.Result.Reason != "player 1 exceeded space limit" {
		t.Fatalf("result %+v events %+v", rec.Result, rec.Events)
	}
}

func TestCachexIllegalActionLoses(t *testing.T) {
	t.Parallel()
	params := engine.Params{"n": "5"}
	rec := playGame(t, cachex.Game{}, params, cachexProfile(t, params), "builtin:random", "builtin:garbage")
	if rec.Result.Winner != 0 || rec.Result.Reason != "error: invalid action!" ||
		rec.Result.Detail != "Action does not exist or is not well formed. See the specification/game rules for details." {
		t.Fatalf("result %+v", rec.Result)
	}
}

func TestHexDeadAgentTurnsAreSkipped(t *testing.T) {
	longRunning(t)
	t.Parallel()
	prof, err := hexcrossout.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := playGame(t, hexcrossout.Game{}, engine.Params{"free": "33", "seed": "5"}, prof, "builtin:quitter", "builtin:random")
	if rec.Result.Forfeit != "" {
		t.Fatalf("result %+v", rec.Result)
	}
	skips := 0
	for _, m := range rec.Moves {
		if m.Source == record.SourceSkip {
			skips++
			if m.Seat != 0 {
				t.Fatalf("skipped the wrong seat: %+v", m)
			}
		}
	}
	if skips == 0 {
		t.Fatalf("no skipped turns after the agent died: %+v", rec.Moves)
	}
	// The survivor moves every turn after the death, so it takes the last
	// cell and loses (misère), as the course referee's rule implies.
	if rec.Result.Winner != 0 {
		t.Fatalf("the survivor should have crossed out the last cell: %+v", rec.Result)
	}
}

func TestDotsAgentPlaysFromItsView(t *testing.T) {
	longRunning(t)
	t.Parallel()
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := playGame(t, dotsboxes.Game{}, nil, prof, "builtin:viewer", "builtin:random")
	if rec.Result.Forfeit != "" || len(rec.Events) != 0 {
		t.Fatalf("the view-driven agent was penalised: %+v %+v", rec.Result, rec.Events)
	}
	if len(rec.Moves) != 40 {
		t.Fatalf("%d moves, want all 40 lines drawn", len(rec.Moves))
	}
}
