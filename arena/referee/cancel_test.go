package referee_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/games/bohnenspiel"
	"arena/plugins/protocol"
)

// calledOff is a fake agent whose move request outlives the game: the
// arena calls the game off (its context ends) while the agent thinks.
type calledOff struct {
	*fakeAgent
	callOff context.CancelFunc
}

func (c calledOff) Move(ctx context.Context, _ protocol.MoveRequest) (string, error) {
	c.callOff()
	<-ctx.Done()
	return "", ctx.Err()
}

// A game called off during a move ends with the context's error and no
// verdict: the call failed because of the arena, not of the agent, so no
// penalty is reported (a league interrupted must not log its agents as
// dead).
func TestGameCalledOffDuringAMoveJudgesNobody(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := newReplyClock(time.Unix(1000, 0))
	a := calledOff{&fakeAgent{clk: clk, mem: make(chan struct{})}, cancel}
	b := &fakeAgent{clk: clk, mem: make(chan struct{})}
	var events []record.Event
	r := &referee.Referee{
		Clock:   clk,
		Launch:  seatLauncher(a, b),
		OnEvent: func(_ *referee.Match, e record.Event) { events = append(events, e) },
	}
	_, err := r.Play(ctx, referee.Match{ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3, Players: fakeSeats})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Play: %v, want the context's cancellation", err)
	}
	if len(events) != 0 {
		t.Fatalf("events %+v for a game the arena called off, want none", events)
	}
}
