package results_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"arena/arena/results"
)

func TestOpenLive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := results.OpenLive(ctx, filepath.Join(dir, results.FileName)); err == nil {
		t.Fatal("a missing store opened read-only; want an error")
	}
	w, err := results.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	l := results.League{Name: "l", Game: "bohnenspiel", Profile: "p", Format: "round-robin"}
	m := results.Match{ID: "l/m1", League: "l", Pairing: "a-vs-b", Seats: [2]string{"a", "b"}}
	if err := w.SaveLeague(ctx, l, []results.Agent{{Name: "a"}, {Name: "b"}}, []results.Match{m}); err != nil {
		t.Fatal(err)
	}
	ro, err := results.OpenLive(ctx, w.Path())
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
	if dirs := results.FindDirs(filepath.Dir(dir)); len(dirs) != 1 || dirs[0] != dir {
		t.Errorf("FindDirs: %v, want [%s]", dirs, dir)
	}
}
