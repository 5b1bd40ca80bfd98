package referee_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/protocol"
)

// firstHistory is a fake agent that keeps the history of its first move
// request.
type firstHistory struct {
	*fakeAgent
	first []string
	asked bool
}

func (f *firstHistory) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	if !f.asked {
		f.asked, f.first = true, slices.Clone(req.History)
	}
	return f.fakeAgent.Move(ctx, req)
}

func openingMatch(t *testing.T, o *record.Opening) (*record.Game, [2]*firstHistory, error) {
	t.Helper()
	clk := newReplyClock(time.Unix(1000, 0))
	var agents [2]*firstHistory
	for i := range agents {
		agents[i] = &firstHistory{fakeAgent: &fakeAgent{clk: clk, mem: make(chan struct{})}}
	}
	r := &referee.Referee{Clock: clk, Launch: seatLauncher(agents[0], agents[1])}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3, Players: fakeSeats, Opening: o,
	})
	return rec, agents, err
}

func TestOpeningIsTheHistoryAgentsStartFrom(t *testing.T) {
	o := &record.Opening{Index: 4, Moves: []string{"PIT 0 2", "PIT 1 3", "PIT 0 5"}}
	rec, agents, err := openingMatch(t, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Check(); err != nil {
		t.Fatal(err)
	}
	start, _ := bohnenspiel.Game{}.NewState(nil)
	if rec.Start != start.Text() {
		t.Error("the record's start board is not the game's start")
	}
	if rec.Opening == nil || rec.Opening.Index != 4 || !slices.Equal(rec.Opening.Moves, o.Moves) {
		t.Fatalf("record's opening %+v, want %+v", rec.Opening, o)
	}
	for i, m := range rec.Moves[:3] {
		if m.Source != record.SourceOpening || m.Text != o.Moves[i] || m.Seat != i%2 || m.Ply != i {
			t.Errorf("move %d: %+v, want the opening's %q", i, m, o.Moves[i])
		}
	}
	if len(rec.Moves) <= 3 || rec.Moves[3].Source != record.SourceAgent || rec.Moves[3].Seat != 1 {
		t.Fatalf("the first agent move %+v, want seat 1's own after the opening", rec.Moves[3:])
	}
	// Seat 1 moves first after three plies and sees them; seat 0 sees them
	// and seat 1's reply.
	if !slices.Equal(agents[1].first, o.Moves) {
		t.Errorf("seat 1's first history %q, want the opening %q", agents[1].first, o.Moves)
	}
	if len(agents[0].first) != 4 || !slices.Equal(agents[0].first[:3], o.Moves) {
		t.Errorf("seat 0's first history %q, want the opening and one reply", agents[0].first)
	}
	st, _ := bohnenspiel.Game{}.NewState(nil)
	if err := engine.Replay(st, rec.History()); err != nil || st.Text() != rec.Final {
		t.Errorf("the record does not replay to its final board: %v", err)
	}
	if len(rec.Events) != 0 {
		t.Errorf("events %+v", rec.Events)
	}
}

func TestBadOpeningIsAnErrorNamingThePly(t *testing.T) {
	_, _, err := openingMatch(t, &record.Opening{Index: 2, Moves: []string{"PIT 0 2", "PIT 0 3"}})
	if err == nil || !strings.Contains(err.Error(), `opening 2: ply 1 "PIT 0 3"`) {
		t.Errorf("error %v, want it to name opening 2, ply 1 and the move", err)
	}
}

func TestRecordCheckHoldsTheOpening(t *testing.T) {
	rec, _, err := openingMatch(t, &record.Opening{Index: 0, Moves: []string{"PIT 0 2"}})
	if err != nil {
		t.Fatal(err)
	}
	bad := *rec
	bad.Opening = &record.Opening{Index: 0, Moves: []string{"PIT 0 1"}}
	if err := bad.Check(); err == nil {
		t.Error("a record whose opening is not its first move passed the check")
	}
	bad = *rec
	bad.Opening = nil
	if err := bad.Check(); err == nil {
		t.Error("a record with an opening move and no opening passed the check")
	}
}
