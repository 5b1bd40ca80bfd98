package resultsdb_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

// A superseded game leaves the counted games and frees its match id for a
// new play, while it stays in the store with its reason, moves and events.
func TestSupersedeKeepsOldGame(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := results.League{Name: "L", Game: "bohnenspiel", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}
	agents := []results.Agent{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "lua:b.lua", Hash: "sha256:ff"}}
	matches := []results.Match{
		{ID: "m1", Pairing: "a-vs-b", Seats: [2]string{"a", "b"}, Seed: 3},
		{ID: "m2", Pairing: "a-vs-b", Index: 1, Seq: 1, Seats: [2]string{"b", "a"}, Seed: 3},
	}
	if err := s.SaveLeague(ctx, l, agents, matches); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"m1", "m2"} {
		if _, err := s.AddGame(ctx, "L", sample(id)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.Supersede(ctx, "L", []string{"m1", "missing"}, "b resubmitted")
	if err != nil || n != 1 {
		t.Fatalf("Supersede = %d, %v; want 1", n, err)
	}
	done, _ := s.Done(ctx, "L")
	if done["m1"] || !done["m2"] || len(done) != 1 {
		t.Fatalf("Done after supersede = %v; want only m2", done)
	}
	ms, _ := s.Matches(ctx, "L")
	if len(ms) != 2 || ms[0].ID != "m1" {
		t.Fatalf("Matches = %+v; want m1 and m2 only", ms)
	}
	// The freed id is played again, and superseded again.
	if added, err := s.AddGame(ctx, "L", sample("m1")); err != nil || !added {
		t.Fatalf("AddGame of the freed match = %v, %v", added, err)
	}
	if _, err := s.Supersede(ctx, "L", []string{"m1"}, "b resubmitted again"); err != nil {
		t.Fatal(err)
	}
	old, err := s.SupersededGames(ctx, "L")
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 2 || old[0].Match.ID != "m1~superseded-1" || old[1].Match.ID != "m1~superseded-2" ||
		old[0].Of != "m1" || old[0].Why != "b resubmitted" || old[0].Record.ID != "m1" {
		t.Fatalf("superseded games = %+v", old)
	}
	games, _ := s.Games(ctx, "L")
	if len(games) != 1 || games[0].Match.ID != "m2" {
		t.Fatalf("Games = %d; want only m2", len(games))
	}
	// Nothing of the old games was lost: their moves and events moved with them.
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, resultsdb.FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var moves, events int
	db.QueryRow(`SELECT count(*) FROM moves WHERE game_id = 'm1~superseded-1'`).Scan(&moves)
	db.QueryRow(`SELECT count(*) FROM events WHERE game_id = 'm1~superseded-1'`).Scan(&events)
	if moves != 3 || events != 1 {
		t.Fatalf("superseded game keeps %d moves, %d events; want 3, 1", moves, events)
	}
	var h1 string
	db.QueryRow(`SELECT hash1 FROM games WHERE match_id = 'm2'`).Scan(&h1)
	if h1 != "sha256:ff" {
		t.Fatalf("games.hash1 = %q; want the agent's content hash", h1)
	}
	ro, err := resultsdb.OpenDirReadOnly(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if games, _ := ro.Games(ctx, "L"); len(games) != 1 {
		t.Fatalf("read-only Games = %d; want 1", len(games))
	}
}

// Each entrant's content hashes are kept as versions: a new hash dates
// the one it replaces.
func TestVersions(t *testing.T) {
	ctx := context.Background()
	s, err := resultsdb.OpenDir(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := results.League{Name: "L", Game: "g", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}
	save := func(hash string) {
		t.Helper()
		if err := s.SaveLeague(ctx, l, []results.Agent{{Name: "ann", Ref: "ann.lua", Hash: hash}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	save("sha256:aa")
	save("sha256:aa")
	save("sha256:bb")
	vs, err := s.Versions(ctx, "L")
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Fatalf("versions = %+v; want 2", vs)
	}
	var cur, old []string
	for _, v := range vs {
		if v.Replaced.IsZero() {
			cur = append(cur, v.Hash)
		} else {
			old = append(old, v.Hash)
		}
	}
	if strings.Join(cur, ",") != "sha256:bb" || strings.Join(old, ",") != "sha256:aa" {
		t.Fatalf("current %v, replaced %v; want bb current, aa replaced", cur, old)
	}
}
