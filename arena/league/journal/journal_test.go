package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

func TestJournalReadsCompleteLinesOnly(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"g1", "g2"} {
		if err := j.Append("L", &record.Game{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	// A write cut short by a kill: no newline.
	if _, err := j.f.WriteString(`{"league":"L","record":{"id":"g3"`); err != nil {
		t.Fatal(err)
	}
	j.Close()
	got, err := Read(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Record.ID != "g1" || got[1].Record.ID != "g2" || got[1].League != "L" {
		t.Fatalf("entries %+v, want g1 and g2 of league L", got)
	}
}

func TestJournalRefusesADamagedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	body := `{"league":"L","record":{"id":"g1"}}` + "\nnot json\n" + `{"league":"L","record":{"id":"g2"}}` + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path)
	if err == nil || !strings.Contains(err.Error(), path+":2") {
		t.Fatalf("err %v, want one naming %s:2", err, path)
	}
}

func TestJournalResetEmptiesIt(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Append("L", &record.Game{ID: "g1"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := j.Append("L", &record.Game{ID: "g2"}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(filepath.Join(dir, File))
	if err != nil || len(got) != 1 || got[0].Record.ID != "g2" {
		t.Fatalf("after reset and one append: %+v %v", got, err)
	}
}

// benchStore is a store with n scheduled matches m0..m(n-1) of league L.
func benchStore(b *testing.B, n int) (*resultsdb.SQLite, []*record.Game) {
	ctx := context.Background()
	st, err := resultsdb.OpenDir(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	var ms []results.Match
	var games []*record.Game
	for i := range n {
		id := fmt.Sprintf("m%d", i)
		ms = append(ms, results.Match{ID: id, Pairing: "a-vs-b", Index: i, Seq: i, Seats: [2]string{"a", "b"}})
		games = append(games, &record.Game{ID: id, Game: "bohnenspiel", Moves: make([]record.Move, 60), Result: record.Result{Winner: i % 2}})
	}
	l := results.League{Name: "L", Game: "bohnenspiel", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}
	if err := st.SaveLeague(ctx, l, []results.Agent{{Name: "a"}, {Name: "b"}}, ms); err != nil {
		b.Fatal(err)
	}
	return st, games
}

// BenchmarkStoreCommitPerGame is one durable store transaction per game.
func BenchmarkStoreCommitPerGame(b *testing.B) {
	st, games := benchStore(b, b.N)
	ctx := context.Background()
	b.ResetTimer()
	for _, g := range games {
		if _, err := st.AddGame(ctx, "L", g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJournalThenBatch is what a league run does per game: one fsynced
// journal append, and a store transaction per DefaultCommitEvery games.
func BenchmarkJournalThenBatch(b *testing.B) {
	st, games := benchStore(b, b.N)
	j, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	s := &Sink{Store: st, Journal: j, League: "L", Every: DefaultCommitEvery, Interval: time.Hour}
	ctx := context.Background()
	b.ResetTimer()
	for _, g := range games {
		if _, err := s.Add(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Flush(ctx); err != nil {
		b.Fatal(err)
	}
}

// A journal line that is JSON but names no league or no record is refused
// with that reason and its line number.
func TestJournalRefusesAnEntryWithoutLeagueOrRecord(t *testing.T) {
	for _, line := range []string{`{"league":"L"}`, `{"record":{"id":"g1"}}`} {
		path := filepath.Join(t.TempDir(), File)
		body := `{"league":"L","record":{"id":"g0"}}` + "\n" + line + "\n"
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		if err == nil || err.Error() != "journal "+path+":2: no league or record" {
			t.Errorf("line %s: err %v, want %q", line, err, "journal "+path+":2: no league or record")
		}
	}
}
