package resultsdb_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

func TestOpenLive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := resultsdb.OpenLive(ctx, filepath.Join(dir, resultsdb.FileName)); err == nil {
		t.Fatal("a missing store opened read-only; want an error")
	}
	w, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	l := results.League{Name: "l", Game: "bohnenspiel", Profile: "p", Format: "round-robin"}
	m := results.Match{ID: "l/m1", League: "l", Pairing: "a-vs-b", Seats: [2]string{"a", "b"}}
	if err := w.SaveLeague(ctx, l, []results.Agent{{Name: "a"}, {Name: "b"}}, []results.Match{m}); err != nil {
		t.Fatal(err)
	}
	ro, err := resultsdb.OpenLive(ctx, w.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	v1, err := ro.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ro.Record(ctx, "l/m1"); !errors.Is(err, results.ErrNotFound) {
		t.Fatalf("Record of an unplayed match: %v, want ErrNotFound", err)
	}
	// The read-only handle refuses writes.
	if err := ro.SaveLeague(ctx, l, nil, nil); err == nil {
		t.Fatal("SaveLeague through a read-only store succeeded")
	}
	g := sample(m.ID)
	if ok, err := w.AddGame(ctx, "l", g); err != nil || !ok {
		t.Fatalf("AddGame: %v %v", ok, err)
	}
	v2, err := ro.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v1 == v2 {
		t.Fatalf("Version did not change after a game was added: %q", v1)
	}
	rec, league, err := ro.Record(ctx, "l/m1")
	if err != nil || league != "l" || rec.ID != "l/m1" {
		t.Fatalf("Record: %v %q %v", rec, league, err)
	}
	if dirs := resultsdb.FindDirs(filepath.Dir(dir)); len(dirs) != 1 || dirs[0] != dir {
		t.Errorf("FindDirs: %v, want [%s]", dirs, dir)
	}
}

// A store written by another schema version is refused by the read-only
// opener, naming both versions.
func TestReadOnlyRefusesAnotherSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	w, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	path := w.Path()
	w.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `UPDATE meta SET value = '999' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for name, open := range map[string]func(context.Context, string) (*resultsdb.SQLite, error){"OpenLive": resultsdb.OpenLive, "OpenReadOnly": resultsdb.OpenReadOnly} {
		s, err := open(ctx, path)
		if err == nil {
			s.Close()
			t.Errorf("%s opened a store of schema 999", name)
		} else if !strings.Contains(err.Error(), "schema version 999") {
			t.Errorf("%s: %v; want the versions named", name, err)
		}
	}
	// Without a write-ahead log the refusal names none.
	for _, f := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if s, err := resultsdb.OpenReadOnly(ctx, path); err == nil {
		s.Close()
		t.Error("OpenReadOnly opened a store of schema 999")
	} else if strings.Contains(err.Error(), "write-ahead log") {
		t.Errorf("%v; names a write-ahead log there is none of", err)
	}
	// With a write-ahead log beside the file (a league running), the
	// refusal says the log may hold games the file lacks.
	live, err := sql.Open("sqlite", path+"?_pragma=journal_mode(wal)")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := live.ExecContext(ctx, `UPDATE meta SET value = '998' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("no write-ahead log beside the store: %v", err)
	}
	s, err := resultsdb.OpenReadOnly(ctx, path)
	if err == nil {
		s.Close()
		t.Fatal("OpenReadOnly opened a store of schema 998")
	}
	if !strings.Contains(err.Error(), "schema version 998") || !strings.Contains(err.Error(), "write-ahead log "+path+"-wal") {
		t.Errorf("with a write-ahead log: %v; want the version and the log named", err)
	}
}

// FindDirs looks three directories deep, no deeper.
func TestFindDirsDepth(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	var want []string
	for _, rel := range []string{"a", "a/b/c", "x/y/z/deep"} {
		dir := filepath.Join(root, filepath.FromSlash(rel))
		w, err := resultsdb.OpenDir(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if rel != "x/y/z/deep" {
			want = append(want, dir)
		}
	}
	got := resultsdb.FindDirs(root)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("FindDirs: %v, want %v", got, want)
	}
}
