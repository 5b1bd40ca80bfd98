package gameview_test

import (
	"strings"
	"testing"
	"time"

	"arena/arena/gameview"
	"arena/arena/record"
	"arena/engine"
	"arena/games/all"
)

// bohnenspielRecord: four moves, the second a late reply replaced by the
// referee, then seat 0's illegal reply ends the game.
func bohnenspielRecord(t *testing.T) *record.Game {
	t.Helper()
	g, _ := all.Registry().Lookup("bohnenspiel")
	st, _ := g.NewState(engine.Params{})
	rec := &record.Game{ID: "g", Game: "bohnenspiel", Profile: "comp424-2017", Start: st.Text(),
		Overrides: []string{"move-limit: 700ms -> 500ms"},
		Agents:    [2]record.Agent{{Name: "ann"}, {Name: "bob"}}}
	for i, text := range []string{"PIT 0 2", "PIT 1 3", "PIT 0 4", "SKIP 1"} {
		src := record.SourceAgent
		if i == 1 {
			src = record.SourceRandom
			rec.Events = append(rec.Events, record.Event{Ply: st.Ply(), Seat: 1, Kind: "late", Penalty: "random-move", Detail: "replied after 600 ms"})
		}
		rec.Moves = append(rec.Moves, record.Move{Ply: st.Ply(), Seat: st.ToMove(), Text: text, Source: src, WallMS: float64(100 * (i + 1))})
		if err := engine.Replay(st, []string{text}); err != nil {
			t.Fatal(err)
		}
	}
	rec.Events = append(rec.Events, record.Event{Ply: st.Ply(), Seat: 0, Kind: "illegal", Penalty: "loss", Detail: "pit 9 is outside 0..5"})
	rec.Final = st.Text()
	rec.Result = record.Result{Winner: 1, Reason: "ILLEGAL MOVE", Forfeit: "illegal", Scores: []int{0, 0}}
	return rec
}

func TestBuildFramesTimesAndPenalties(t *testing.T) {
	rec := bohnenspielRecord(t)
	v, err := gameview.Build(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Frames) != len(rec.Moves)+2 {
		t.Fatalf("%d frames, want start, one per move and the ending (%d)", len(v.Frames), len(rec.Moves)+2)
	}
	if v.Profile.MoveLimit != 500*time.Millisecond {
		t.Errorf("override not applied: move limit %v", v.Profile.MoveLimit)
	}
	// Each side's first move is timed against the first-move allowance,
	// later ones against the (overridden) move limit.
	first := v.Profile.FirstMoveLimit
	if f := v.Frames[1]; f.Limit != first || f.Used != 100*time.Millisecond {
		t.Errorf("move 1: %v of %v, want 100ms of %v", f.Used, f.Limit, first)
	}
	if f := v.Frames[3]; f.Limit != 500*time.Millisecond || !strings.Contains(f.FormatTime(), "300.0 ms of 500.0 ms") {
		t.Errorf("move 3: %q", f.FormatTime())
	}
	if f := v.Frames[2]; f.Limit != 0 || len(f.Events) != 1 || f.Events[0].Kind != "late" {
		t.Errorf("move 2 (the referee's substitute): limit %v, events %v", f.Limit, f.Events)
	}
	end := v.Frames[len(v.Frames)-1]
	if !end.Ending || end.Seat != 0 || len(end.Events) != 1 || end.Events[0].Kind != "illegal" || end.Board != rec.Final {
		t.Errorf("ending frame: %+v", end)
	}
	if end.Text == "" || !strings.Contains(end.SVG, "<svg") {
		t.Error("frames are not drawn")
	}
	if want := "bob (seat 1) wins; seeds in store: ann 0, bob 0 — ILLEGAL MOVE [ended by a penalty: illegal]"; v.Result != want {
		t.Errorf("result %q, want %q", v.Result, want)
	}
}

func TestBuildRefusesWrongRecords(t *testing.T) {
	rec := bohnenspielRecord(t)
	rec.Final = "not it"
	if _, err := gameview.Build(all.Registry(), rec); err == nil || !strings.Contains(err.Error(), "final board differs") {
		t.Errorf("tampered final board: %v", err)
	}
	rec = bohnenspielRecord(t)
	rec.Moves[2].Text = "PIT 0 9"
	if _, err := gameview.Build(all.Registry(), rec); err == nil || !strings.Contains(err.Error(), "move 3") {
		t.Errorf("illegal recorded move: %v", err)
	}
}

// A game in progress (no final board, no result) is drawn after the moves
// it has so far; a move the rules refuse is named.
func TestPositionOfAGameInProgress(t *testing.T) {
	rec := bohnenspielRecord(t)
	final := rec.Final
	rec.Final, rec.Result, rec.Events = "", record.Result{}, nil
	f, info, err := gameview.Position(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if f.Board != final || f.Index != 4 || f.Seat != rec.Moves[3].Seat || info.Name != "bohnenspiel" || f.SVG == "" {
		t.Fatalf("frame %d seat %d board %q (want %q), game %q, svg %d bytes", f.Index, f.Seat, f.Board, final, info.Name, len(f.SVG))
	}
	rec.Moves = rec.Moves[:0]
	if f, _, err = gameview.Position(all.Registry(), rec); err != nil || f.Board != rec.Start || f.Seat != engine.NoSeat {
		t.Fatalf("no moves yet: %q %d %v", f.Board, f.Seat, err)
	}
	rec.Moves = append(rec.Moves, record.Move{Seat: 0, Text: "PIT 9 9"})
	if _, _, err = gameview.Position(all.Registry(), rec); err == nil || !strings.Contains(err.Error(), "move 1") {
		t.Fatalf("a refused move: %v", err)
	}
}
