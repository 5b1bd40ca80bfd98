package referee_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/hexcrossout"
)

// playFakes plays one game of g (with params) between two given fake
// agents on a reply clock.
func playFakes(t *testing.T, g engine.Game, params engine.Params, prof engine.Profile, a, b *fakeAgent) *record.Game {
	t.Helper()
	clk := newReplyClock(time.Unix(1000, 0))
	agents := [2]*fakeAgent{a, b}
	for _, f := range agents {
		f.clk = clk
		f.game = g
		f.params = params
		if f.mem == nil {
			f.mem = make(chan struct{})
		}
	}
	r := &referee.Referee{Clock: clk, Launch: seatLauncher(agents[0], agents[1])}
	type played struct {
		rec *record.Game
		err error
	}
	done := make(chan played, 1)
	go func() {
		rec, err := r.Play(context.Background(), referee.Match{ID: t.Name(), Game: g, Params: params, Profile: prof, Seed: 9, Players: fakeSeats})
		done <- played{rec, err}
	}()
	select {
	case p := <-done:
		if p.err != nil {
			t.Fatal(p.err)
		}
		return p.rec
	case <-time.After(30 * time.Second):
		t.Fatal("the game never ended")
	}
	return nil
}

// A CPU-budget agent that has spent its budget before the game starts
// (COMP30024 counted start-up) loses before its first move; under a
// per-move profile start-up CPU is nobody's business.
func TestStartupCPUCountsOnlyUnderABudget(t *testing.T) {
	hungry := &fakeAgent{cpu: 11 * time.Second} // over cpuProfile's 10 s
	rec := playFakes(t, bohnenspiel.Game{}, nil, cpuProfile(), hungry, &fakeAgent{})
	if rec.Result.Winner != 1 || rec.Result.Forfeit != string(engine.FailTimeout) || rec.Result.Reason != "player 1 exceeded available time" {
		t.Fatalf("result %+v, want seat 0 to lose on its start-up CPU", rec.Result)
	}
	if hungry.n != 0 || len(rec.Moves) != 0 {
		t.Fatalf("asked %d times, %d moves; want none", hungry.n, len(rec.Moves))
	}
	if len(rec.Events) != 1 || rec.Events[0].Kind != "timeout" || rec.Events[0].Ply != 0 {
		t.Fatalf("events %+v", rec.Events)
	}

	// Per move: the same start-up costs nothing.
	rec = playFakes(t, bohnenspiel.Game{}, nil, comp424(t), &fakeAgent{cpu: 11 * time.Second}, &fakeAgent{cpu: 11 * time.Second})
	if rec.Result.Forfeit != "" || len(rec.Events) != 0 {
		t.Fatalf("per-move game charged start-up CPU: %+v %+v", rec.Result, rec.Events)
	}
}

// Under skip-turn for the dead (hex cross-out), a dead second player's
// turns are skipped while the first plays the game to its end.
func TestDeadSecondPlayerIsSkippedToTheEnd(t *testing.T) {
	prof, err := hexcrossout.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	live := &fakeAgent{}
	dead := &fakeAgent{steps: []step{{err: errors.New("broken pipe")}}}
	rec := playFakes(t, hexcrossout.Game{}, nil, prof, live, dead)
	if dead.n != 1 {
		t.Fatalf("the dead agent was asked %d times, want once", dead.n)
	}
	if len(rec.Events) != 1 || rec.Events[0].Kind != "dead" || rec.Events[0].Seat != 1 {
		t.Fatalf("events %+v, want one death of seat 1", rec.Events)
	}
	skips := 0
	for _, m := range rec.Moves {
		switch {
		case m.Seat == 1 && m.Source == record.SourceSkip:
			skips++
		case m.Seat == 1 || m.Source != record.SourceAgent:
			t.Fatalf("move %+v: seat 1 only skips, seat 0 plays its own moves", m)
		}
	}
	if skips == 0 || rec.Result.Forfeit != "" || rec.Result.Winner == engine.NoSeat && !rec.Result.Draw {
		t.Fatalf("%d skips, result %+v: want a game played to its end", skips, rec.Result)
	}
}
