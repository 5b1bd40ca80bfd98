package referee_test

import (
	"context"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/games/bohnenspiel"
)

// OnMove sees every move once, as it is made, with the record so far.
func TestOnMoveSeesEachMoveAsItIsMade(t *testing.T) {
	clk := newReplyClock(time.Unix(1000, 0))
	a := &fakeAgent{clk: clk, mem: make(chan struct{})}
	b := &fakeAgent{clk: clk, mem: make(chan struct{})}
	var seen []string
	r := &referee.Referee{
		Clock:  clk,
		Launch: seatLauncher(a, b),
		OnMove: func(m *referee.Match, rec *record.Game) {
			if rec.ID != m.ID || rec.Agents[0].Name == "" {
				t.Errorf("move %d: record of %q for match %q, agents %+v", len(seen), rec.ID, m.ID, rec.Agents)
			}
			if len(rec.Moves) != len(seen)+1 {
				t.Errorf("call %d: the record has %d moves", len(seen)+1, len(rec.Moves))
			}
			seen = append(seen, rec.Moves[len(rec.Moves)-1].Text)
		},
	}
	rec, err := r.Play(context.Background(), referee.Match{ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3, Players: fakeSeats})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) == 0 || len(seen) != len(rec.Moves) {
		t.Fatalf("OnMove saw %d moves of %d", len(seen), len(rec.Moves))
	}
	for i, m := range rec.Moves {
		if seen[i] != m.Text {
			t.Fatalf("move %d: OnMove saw %q, the record has %q", i, seen[i], m.Text)
		}
	}
}
