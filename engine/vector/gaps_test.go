package vector_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"arena/engine/vector"
	"arena/games/all"
)

// Every compared field, tampered with alone, gives exactly one mismatch
// naming that field, its ply and both values.
func TestReplayReportsEachFieldWithPlyAndValues(t *testing.T) {
	g, err := all.Registry().Lookup("bohnenspiel")
	if err != nil {
		t.Fatal(err)
	}
	base := firstRecord(t)
	last := len(base.Moves)
	cases := []struct {
		name  string
		edit  func(r *vector.Record)
		ply   int
		field string
		want  any
	}{
		{"to_move", func(r *vector.Record) { r.Plies[3]["to_move"] = 5.0 }, 3, "to_move", 5.0},
		{"legal_count", func(r *vector.Record) { r.Plies[3]["legal_count"] = 99.0 }, 3, "legal_count", 99.0},
		{"board", func(r *vector.Record) { r.Plies[0]["board"] = "x" }, 0, "board", "x"},
		{"scores", func(r *vector.Record) { r.Plies[7]["scores"] = []any{1.0, 2.0} }, 7, "scores", []any{1.0, 2.0}},
		{"legal", func(r *vector.Record) { r.Plies[3]["legal"] = []any{"PIT 0 0"} }, 3, "legal", []any{"PIT 0 0"}},
		{"final to_move", func(r *vector.Record) { r.Plies[last]["to_move"] = 1.0 }, last, "to_move", 1.0},
		{"final legal_count", func(r *vector.Record) { r.Plies[last]["legal_count"] = 3.0 }, last, "legal_count", 3.0},
		{"final board", func(r *vector.Record) { r.Plies[last]["board"] = "y" }, last, "board", "y"},
		{"final scores", func(r *vector.Record) { r.Plies[last]["scores"] = []any{0.0, 0.0} }, last, "scores", []any{0.0, 0.0}},
		{"winner", func(r *vector.Record) { r.Result["winner"] = 1.0 }, -1, "winner", 1.0},
		{"no winner", func(r *vector.Record) { r.Result["winner"] = nil }, -1, "winner", nil},
		{"draw", func(r *vector.Record) { r.Result["draw"] = true }, -1, "draw", true},
		{"result scores", func(r *vector.Record) { r.Result["scores"] = []any{32.0, 40.0} }, -1, "scores", []any{32.0, 40.0}},
		{"reason", func(r *vector.Record) { r.Result["reason"] = "max_turn_x" }, -1, "reason", "max_turn_x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := cloneRecord(t, base)
			c.edit(r)
			ms, err := vector.Replay(g, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != 1 {
				t.Fatalf("mismatches %v, want one", ms)
			}
			m := ms[0]
			if m.Ply != c.ply || m.Field != c.field || !reflect.DeepEqual(m.Want, c.want) || reflect.DeepEqual(m.Got, c.want) {
				t.Fatalf("mismatch %+v, want ply %d field %s want %v (and a different got)", m, c.ply, c.field, c.want)
			}
			where := fmt.Sprintf("ply %d: ", c.ply)
			if c.ply < 0 {
				where = "result: "
			}
			if !strings.HasPrefix(m.String(), where+c.field+": want ") {
				t.Fatalf("message %q does not start with %q", m, where+c.field)
			}
		})
	}
}

// A record that stops before the game is over is reported as such, even
// when its last ply looks like an end (no mover, no legal moves).
func TestReplayReportsRecordEndingBeforeTheEnd(t *testing.T) {
	g, _ := all.Registry().Lookup("bohnenspiel")
	r := firstRecord(t)
	n := len(r.Moves) - 1
	r.Moves = r.Moves[:n]
	r.Plies = r.Plies[:n+1]
	// Make the new last ply claim what a final ply claims, so that only
	// the missing end is wrong.
	r.Plies[n]["to_move"] = nil
	r.Plies[n]["legal_count"] = 0.0
	delete(r.Plies[n], "legal")
	ms, err := vector.Replay(g, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []vector.Mismatch{{Ply: -1, Field: "terminal", Want: true, Got: false}}
	if !reflect.DeepEqual(ms, want) {
		t.Fatalf("mismatches %v, want %v", ms, want)
	}
}

// A record that goes on after the game ended is stopped at the ply where
// the position was already terminal.
func TestReplayReportsMovesAfterTheEnd(t *testing.T) {
	g, _ := all.Registry().Lookup("bohnenspiel")
	r := firstRecord(t)
	n := len(r.Moves)
	r.Moves = append(r.Moves, "PIT 0 0")
	r.Plies = append(r.Plies, map[string]any{})
	ms, err := vector.Replay(g, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []vector.Mismatch{{Ply: n, Field: "terminal", Want: false, Got: true}}
	if !reflect.DeepEqual(ms, want) {
		t.Fatalf("mismatches %v, want %v", ms, want)
	}
}

func TestReplayRejectsPlyCountAndBadParams(t *testing.T) {
	g, _ := all.Registry().Lookup("bohnenspiel")
	r := firstRecord(t)
	r.Plies = r.Plies[:len(r.Plies)-1]
	if _, err := vector.Replay(g, r); err == nil || !strings.Contains(err.Error(), "plies for") {
		t.Fatalf("plies one short: err %v", err)
	}
	r = firstRecord(t)
	r.Params = map[string]json.RawMessage{"n": json.RawMessage(`{"x":1}`)}
	if _, err := vector.Replay(g, r); err == nil || !strings.Contains(err.Error(), "param n") {
		t.Fatalf("object param: err %v", err)
	}
}

// cloneRecord deep-copies a record (reading the vector file again for each
// case is slow on a busy machine).
func cloneRecord(t *testing.T, r *vector.Record) *vector.Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	out := &vector.Record{}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Read names the line of a broken record, counting blank lines.
func TestReadNamesTheLine(t *testing.T) {
	_, err := vector.Read(strings.NewReader("{\"game\":\"x\"}\n\n{broken\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 3: ") {
		t.Fatalf("err %v, want one naming line 3", err)
	}
	recs, err := vector.Read(strings.NewReader("\n{\"game\":\"a\"}\n  \n{\"game\":\"b\"}\n"))
	if err != nil || len(recs) != 2 || recs[0].Game != "a" || recs[1].Game != "b" {
		t.Fatalf("records %v, err %v", recs, err)
	}
}
