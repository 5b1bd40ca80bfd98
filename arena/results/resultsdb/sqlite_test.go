package resultsdb_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

func sample(id string) *record.Game {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	return &record.Game{
		Schema: record.SchemaVersion, ID: id, Game: "bohnenspiel", Profile: "comp424-2017",
		Params: map[string]string{"x": "1"}, Overrides: []string{"move-limit: 700ms -> 500ms"},
		Seed:   1<<63 + 5, // seeds use all 64 bits
		Agents: [2]record.Agent{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "lua:b.lua", Hash: "sha256:ff"}},
		Start:  "start", Final: "final",
		Moves: []record.Move{
			{Ply: 0, Seat: 0, Text: "1", Source: record.SourceAgent, WallMS: 1.5},
			{Ply: 1, Seat: 1, Text: "7", Source: record.SourceRandom},
			{Ply: 2, Seat: 0, Source: record.SourceSkip},
		},
		Events: []record.Event{{Ply: 1, Seat: 1, Kind: "late", Penalty: "random-move", Detail: "slow", Reply: "7"}},
		Result: record.Result{Winner: 0, Scores: []int{40, 32}, Reason: "done"},
		Stderr: [2]string{"", "oops\n"}, Started: t0, Ended: t0.Add(time.Second),
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	l := results.League{Name: "L", Game: "bohnenspiel", Params: map[string]string{"x": "1"}, Profile: "p",
		Overrides: []string{"move-limit: 700ms -> 500ms"}, Format: "round-robin", ConfigHash: "h1", Config: `{"a":1}`}
	agents := []results.Agent{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "lua:b.lua", Hash: "sha256:ff", Options: map[string]string{"depth": "3"}}}
	matches := []results.Match{
		{ID: "m1", Pairing: "a-vs-b", Pair: 0, Index: 0, Seq: 0, Seats: [2]string{"a", "b"}, Seed: 1<<63 + 5},
		{ID: "m2", Pairing: "a-vs-b", Pair: 0, Index: 1, Seq: 1, Seats: [2]string{"b", "a"}, Seed: 1<<63 + 5},
	}
	if err := s.SaveLeague(ctx, l, agents, matches); err != nil {
		t.Fatal(err)
	}
	g := sample("m1")
	added, err := s.AddGame(ctx, "L", g)
	if err != nil || !added {
		t.Fatalf("AddGame = %v, %v", added, err)
	}
	// A second write of the same match changes nothing.
	g2 := sample("m1")
	g2.Result.Winner = 1
	if added, err := s.AddGame(ctx, "L", g2); err != nil || added {
		t.Fatalf("second AddGame = %v, %v; want false, nil", added, err)
	}
	// A game of a match that was never scheduled is refused.
	if _, err := s.AddGame(ctx, "L", sample("nope")); err == nil {
		t.Fatal("AddGame of an unscheduled match succeeded")
	}
	// Saving the league again (a resume) keeps games and adds nothing twice.
	if err := s.SaveLeague(ctx, l, agents, matches); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = resultsdb.Open(ctx, filepath.Join(dir, resultsdb.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gotL, gotA, err := s.League(ctx, "L")
	if err != nil {
		t.Fatal(err)
	}
	if gotL.ConfigHash != "h1" || gotL.Game != "bohnenspiel" || !reflect.DeepEqual(gotL.Params, l.Params) || !reflect.DeepEqual(gotL.Overrides, l.Overrides) {
		t.Fatalf("league = %+v", gotL)
	}
	if len(gotA) != 2 || gotA[1].Options["depth"] != "3" || gotA[1].Hash != "sha256:ff" {
		t.Fatalf("agents = %+v", gotA)
	}
	ms, err := s.Matches(ctx, "L")
	if err != nil || !reflect.DeepEqual(ms, []results.Match{
		{ID: "m1", League: "L", Pairing: "a-vs-b", Pair: 0, Index: 0, Seq: 0, Seats: [2]string{"a", "b"}, Seed: 1<<63 + 5},
		{ID: "m2", League: "L", Pairing: "a-vs-b", Pair: 0, Index: 1, Seq: 1, Seats: [2]string{"b", "a"}, Seed: 1<<63 + 5},
	}) {
		t.Fatalf("matches = %+v, %v", ms, err)
	}
	done, err := s.Done(ctx, "L")
	if err != nil || !reflect.DeepEqual(done, map[string]bool{"m1": true}) {
		t.Fatalf("done = %v, %v", done, err)
	}
	games, err := s.Games(ctx, "L")
	if err != nil || len(games) != 1 {
		t.Fatalf("games = %v, %v", games, err)
	}
	want, _ := json.Marshal(sample("m1"))
	got, _ := json.Marshal(games[0].Record)
	if string(got) != string(want) {
		t.Fatalf("record round trip:\n got %s\nwant %s", got, want)
	}
	if games[0].Match.Seats != [2]string{"a", "b"} {
		t.Fatalf("game match = %+v", games[0].Match)
	}
	if _, _, err := s.League(ctx, "other"); !errors.Is(err, results.ErrNotFound) {
		t.Fatalf("League(other) error = %v, want ErrNotFound", err)
	}
	ls, err := s.Leagues(ctx)
	if err != nil || len(ls) != 1 || ls[0].Name != "L" {
		t.Fatalf("leagues = %+v, %v", ls, err)
	}
}

// A read-only open writes nothing beside a checkpointed store, and reads
// games that are still only in the write-ahead log of a writer that is
// open (or was killed) rather than missing them.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, resultsdb.FileName)
	w, err := resultsdb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SaveLeague(ctx, results.League{Name: "l", Game: "g", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	// The writer is still open: the league may be only in the log.
	r, err := resultsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if ls, err := r.Leagues(ctx); err != nil || len(ls) != 1 {
		t.Fatalf("while the writer is open: leagues %v, %v", ls, err)
	}
	if err := r.SaveLeague(ctx, results.League{Name: "m", Game: "g", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}, nil, nil); err == nil {
		t.Error("a read-only store accepted a write")
	}
	r.Close()
	w.Close()

	before, _ := os.ReadDir(dir)
	r, err = resultsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if ls, err := r.Leagues(ctx); err != nil || len(ls) != 1 {
		t.Fatalf("after the writer closed: leagues %v, %v", ls, err)
	}
	r.Close()
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		t.Errorf("files beside the store: %v before, %v after a read-only open", before, after)
	}
	if _, err := resultsdb.OpenReadOnly(ctx, filepath.Join(dir, "missing.db")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing store: %v", err)
	}
}

// AddGames commits a batch in one transaction: new games are stored and
// flagged, a game already stored is flagged false and left alone, and a
// batch with an unscheduled match stores none of its games.
func TestAddGamesBatch(t *testing.T) {
	ctx := context.Background()
	s, err := resultsdb.OpenDir(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := results.League{Name: "L", Game: "bohnenspiel", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: `{}`}
	var matches []results.Match
	for i, id := range []string{"m1", "m2", "m3", "m4"} {
		matches = append(matches, results.Match{ID: id, Pairing: "a-vs-b", Index: i, Seq: i, Seats: [2]string{"a", "b"}})
	}
	if err := s.SaveLeague(ctx, l, []results.Agent{{Name: "a"}, {Name: "b"}}, matches); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddGame(ctx, "L", sample("m1")); err != nil {
		t.Fatal(err)
	}
	added, err := s.AddGames(ctx, "L", []*record.Game{sample("m1"), sample("m2"), sample("m3")})
	if err != nil || !reflect.DeepEqual(added, []bool{false, true, true}) {
		t.Fatalf("AddGames = %v, %v; want [false true true]", added, err)
	}
	if _, err := s.AddGames(ctx, "L", []*record.Game{sample("m4"), sample("nope")}); err == nil {
		t.Fatal("a batch with an unscheduled match was stored")
	}
	done, err := s.Done(ctx, "L")
	if err != nil || !reflect.DeepEqual(done, map[string]bool{"m1": true, "m2": true, "m3": true}) {
		t.Fatalf("done = %v, %v; want m1-m3 (m4 rolled back with its batch)", done, err)
	}
	// Every stored game, in schedule order; an error from fn ends the pass
	// at that game and is returned.
	var seen []string
	if err := s.EachGame(ctx, "L", func(g results.Game) error { seen = append(seen, g.Match.ID); return nil }); err != nil || !reflect.DeepEqual(seen, []string{"m1", "m2", "m3"}) {
		t.Fatalf("EachGame saw %v, %v; want m1 m2 m3", seen, err)
	}
	stop := errors.New("stop")
	seen = nil
	err = s.EachGame(ctx, "L", func(g results.Game) error {
		seen = append(seen, g.Match.ID)
		if g.Match.ID == "m2" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || !reflect.DeepEqual(seen, []string{"m1", "m2"}) {
		t.Fatalf("EachGame stopped at %v with %v; want m1 m2 and the error", seen, err)
	}
}
