package resultsdb_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

// The store's per-game tables (games, moves, events, penalties, stderr) are
// what SQL users of a league directory query; each is read back here row
// by row, for two games, so a table left unwritten, a column swapped or a
// row filed under the wrong game shows.
func TestEveryTableRoundTrips(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	l := results.League{Name: "L", Game: "bohnenspiel", Profile: "p", Format: "round-robin", ConfigHash: "h", Config: "{}"}
	agents := []results.Agent{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "builtin:greedy"}}
	matches := []results.Match{
		{ID: "m1", Pairing: "a-vs-b", Index: 0, Seq: 0, Seats: [2]string{"a", "b"}, Seed: 7},
		{ID: "m2", Pairing: "a-vs-b", Index: 1, Seq: 1, Seats: [2]string{"b", "a"}, Seed: 8},
	}
	if err := s.SaveLeague(ctx, l, agents, matches); err != nil {
		t.Fatal(err)
	}
	g1 := sample("m1")
	g1.Moves = append(g1.Moves, record.Move{Ply: 3, Seat: 1, Text: "4", Source: record.SourceAgent, WallMS: 2.25, CPUMS: 1.5})
	g1.Events = []record.Event{
		{Ply: 0, Seat: 0, Kind: "launch", Detail: "started late"}, // not a penalty
		{Ply: 1, Seat: 1, Kind: "late", Penalty: "random-move", Detail: "slow", Reply: "7"},
		{Ply: 2, Seat: 0, Kind: "error", Penalty: "skip", Detail: "boom"},
		{Ply: 3, Seat: 1, Kind: "late", Penalty: "random-move", Detail: "slow again", Reply: "9"},
	}
	g1.Stderr = [2]string{"zero\n", "one\n"}
	g2 := sample("m2")
	g2.Agents[0], g2.Agents[1] = g2.Agents[1], g2.Agents[0]
	g2.Moves = g2.Moves[:1]
	g2.Events = nil
	g2.Stderr = [2]string{}
	g2.Result = record.Result{Winner: -1, Draw: true, Reason: "draw by rule"}
	for _, g := range []*record.Game{g1, g2} {
		if added, err := s.AddGame(ctx, "L", g); err != nil || !added {
			t.Fatalf("AddGame %s = %v, %v", g.ID, added, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sql.Open("sqlite", filepath.Join(dir, resultsdb.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := func(q string, width int) [][]any {
		t.Helper()
		r, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer r.Close()
		var out [][]any
		for r.Next() {
			vals := make([]any, width)
			ptrs := make([]any, width)
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, vals)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(table string, got, want [][]any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", table, got, want)
		}
	}
	t0 := g1.Started.UTC().Format(time.RFC3339Nano)
	t1 := g1.Ended.UTC().Format(time.RFC3339Nano)
	check("games", rows(`SELECT match_id, league, winner, draw, score0, score1, reason, forfeit, plies, started, ended FROM games ORDER BY match_id`, 11), [][]any{
		{"m1", "L", int64(0), int64(0), int64(40), int64(32), "done", "", int64(4), t0, t1},
		{"m2", "L", int64(-1), int64(1), nil, nil, "draw by rule", "", int64(1), t0, t1},
	})
	check("moves", rows(`SELECT game_id, idx, ply, seat, text, source, wall_ms, cpu_ms FROM moves ORDER BY game_id, idx`, 8), [][]any{
		{"m1", int64(0), int64(0), int64(0), "1", record.SourceAgent, 1.5, 0.0},
		{"m1", int64(1), int64(1), int64(1), "7", record.SourceRandom, 0.0, 0.0},
		{"m1", int64(2), int64(2), int64(0), "", record.SourceSkip, 0.0, 0.0},
		{"m1", int64(3), int64(3), int64(1), "4", record.SourceAgent, 2.25, 1.5},
		{"m2", int64(0), int64(0), int64(0), "1", record.SourceAgent, 1.5, 0.0},
	})
	check("events", rows(`SELECT game_id, idx, ply, seat, kind, penalty, detail, reply FROM events ORDER BY game_id, idx`, 8), [][]any{
		{"m1", int64(0), int64(0), int64(0), "launch", "", "started late", ""},
		{"m1", int64(1), int64(1), int64(1), "late", "random-move", "slow", "7"},
		{"m1", int64(2), int64(2), int64(0), "error", "skip", "boom", ""},
		{"m1", int64(3), int64(3), int64(1), "late", "random-move", "slow again", "9"},
	})
	check("penalties", rows(`SELECT game_id, seat, kind, count FROM penalties ORDER BY game_id, seat, kind`, 4), [][]any{
		{"m1", int64(0), "error", int64(1)},
		{"m1", int64(1), "late", int64(2)},
	})
	check("stderr", rows(`SELECT game_id, seat, tail FROM stderr ORDER BY game_id, seat`, 3), [][]any{
		{"m1", int64(0), "zero\n"},
		{"m1", int64(1), "one\n"},
	})
}
