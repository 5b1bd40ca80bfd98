package referee_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/hexcrossout"
	"arena/plugins/host"
)

// Under a profile that skips a dead agent's turns (hex cross-out), a game
// whose two agents have both died cannot go on: it ends with no result
// instead of skipping turns for ever.
func TestBothAgentsDeadIsNoResult(t *testing.T) {
	prof, err := hexcrossout.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if prof.PenaltyFor(engine.FailDead) != engine.SkipTurn {
		t.Fatalf("hex cross-out's profile no longer skips a dead agent's turns: %v", prof.PenaltyFor(engine.FailDead))
	}
	clk := newReplyClock(time.Unix(1000, 0))
	hangUp := errors.New("connection reset by peer") // not an agent error: the process is gone
	agents := [2]*fakeAgent{
		{clk: clk, steps: []step{{err: hangUp}}, mem: make(chan struct{})},
		{clk: clk, steps: []step{{err: hangUp}}, mem: make(chan struct{})},
	}
	r := &referee.Referee{Clock: clk, Launch: func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
		if p.Ref == "0" {
			return agents[0], nil
		}
		return agents[1], nil
	}}
	type played struct {
		rec *record.Game
		err error
	}
	done := make(chan played, 1)
	go func() {
		rec, err := r.Play(context.Background(), referee.Match{
			ID: t.Name(), Game: hexcrossout.Game{}, Profile: prof, Seed: 5,
			Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}},
		})
		done <- played{rec, err}
	}()
	var p played
	select {
	case p = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the game with two dead agents never ended")
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	rec := p.rec
	if rec.Result.Winner != engine.NoSeat || rec.Result.Draw || rec.Result.Reason != "NO RESULT: both agents are dead" || rec.Result.Forfeit != "" {
		t.Fatalf("result %+v, want no result because both agents are dead", rec.Result)
	}
	if agents[0].n != 1 || agents[1].n != 1 {
		t.Fatalf("agents asked %d and %d times, want once each (then dead)", agents[0].n, agents[1].n)
	}
	// Each death is recorded once, and each dead turn was a skip.
	if len(rec.Events) != 2 || rec.Events[0].Kind != "dead" || rec.Events[0].Seat != 0 || rec.Events[1].Kind != "dead" || rec.Events[1].Seat != 1 {
		t.Fatalf("events %+v, want one death per seat", rec.Events)
	}
	if len(rec.Moves) != 2 || rec.Moves[0].Source != record.SourceSkip || rec.Moves[1].Source != record.SourceSkip {
		t.Fatalf("moves %+v, want the two skipped turns", rec.Moves)
	}
}
