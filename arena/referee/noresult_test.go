package referee_test

import (
	"errors"
	"testing"

	"arena/arena/record"
	"arena/engine"
	"arena/games/hexcrossout"
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
	hangUp := errors.New("connection reset by peer") // not an agent error: the process is gone
	agents := [2]*fakeAgent{{steps: []step{{err: hangUp}}}, {steps: []step{{err: hangUp}}}}
	// playFakes fails the test if the game never ends.
	rec := playFakes(t, hexcrossout.Game{}, nil, prof, agents[0], agents[1])
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
