package live

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/arena/record"
)

func TestUpdateIsThrottledAndDoneRemoves(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	w.now = func() time.Time { return now }
	rec := &record.Game{ID: "a/b#1", Game: "bohnenspiel", Moves: []record.Move{{Ply: 0, Text: "1"}}}
	w.Update("lg", rec)
	rec.Moves = append(rec.Moves, record.Move{Ply: 1, Seat: 1, Text: "2"})
	now = now.Add(DefaultEvery / 2)
	w.Update("lg", rec) // within the period: not written
	gs, err := Read(dir)
	if err != nil || len(gs) != 1 {
		t.Fatalf("read %v %v", gs, err)
	}
	if g := gs[0]; g.League != "lg" || g.Record.ID != "a/b#1" || len(g.Record.Moves) != 1 {
		t.Fatalf("first write: %+v", g)
	}
	now = now.Add(DefaultEvery)
	w.Update("lg", rec)
	if gs, _ = Read(dir); len(gs) != 1 || len(gs[0].Record.Moves) != 2 || !gs[0].Updated.Equal(now) {
		t.Fatalf("after the period: %+v", gs)
	}
	w.Done("a/b#1")
	if gs, _ = Read(dir); len(gs) != 0 {
		t.Fatalf("after the end: %+v", gs)
	}
	// Played again under the same id (a replay): written at once.
	rec.Moves = rec.Moves[:1]
	w.Update("lg", rec)
	if gs, _ = Read(dir); len(gs) != 1 || len(gs[0].Record.Moves) != 1 {
		t.Fatalf("a replay: %+v", gs)
	}
}

// A killed run's files are gone once the next run opens the folder, and
// a reader skips what is not a live game.
func TestOpenSweepsAndReadSkipsStrayFiles(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.Update("lg", &record.Game{ID: "x"})
	for name, body := range map[string]string{"junk.json": "{", "note.txt": "hi", ".y.json.tmp": "{}", "empty.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dir, Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gs, err := Read(dir)
	if err != nil || len(gs) != 1 || gs[0].Record.ID != "x" {
		t.Fatalf("read %+v %v", gs, err)
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(filepath.Join(dir, Dir))
	if len(left) != 0 {
		t.Fatalf("left after the next run's open: %v", left)
	}
	if gs, err := Read(t.TempDir()); err != nil || gs != nil {
		t.Fatalf("a directory without live games: %v %v", gs, err)
	}
}

// A move made within the period is written when the period is over, so a
// board does not stay behind while the next agent thinks; a game that
// ends first is not written again.
func TestThrottledMoveIsWrittenAfterThePeriod(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.every = 50 * time.Millisecond
	rec := &record.Game{ID: "g", Moves: []record.Move{{Text: "1"}}}
	w.Update("lg", rec)
	rec.Moves = append(rec.Moves, record.Move{Text: "2"})
	w.Update("lg", rec)
	rec.Moves[1].Text = "changed by the referee afterwards"
	deadline := time.Now().Add(30 * time.Second)
	for {
		gs, _ := Read(dir)
		if len(gs) == 1 && len(gs[0].Record.Moves) == 2 {
			if got := gs[0].Record.Moves[1].Text; got != "2" {
				t.Fatalf("the written move is %q: the record was not copied", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second move was never written: %+v", gs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	rec.Moves = append(rec.Moves, record.Move{Text: "3"})
	w.Update("lg", rec) // pending, unless the period is already over
	w.Done("g")
	time.Sleep(3 * w.every)
	if gs, _ := Read(dir); len(gs) != 0 {
		t.Fatalf("an ended game was written again: %+v", gs)
	}
}
