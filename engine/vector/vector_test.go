package vector_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/vector"
	"arena/games/all"
)

// One recorded Bohnenspiel game, replayed, then tampered with field by
// field: every tampering must be reported at the right ply and field.
// firstRecord reads and parses the file's first line only: the tests take
// a fresh copy of that game many times, and the whole file is 3 MB of them.
func firstRecord(t *testing.T) *vector.Record {
	t.Helper()
	f, err := os.Open("../../games/bohnenspiel/testdata/bohnenspiel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		t.Fatalf("the first line of bohnenspiel.jsonl: %v", err)
	}
	recs, err := vector.Read(strings.NewReader(first))
	if err != nil || len(recs) != 1 {
		t.Fatalf("the first line of bohnenspiel.jsonl: %d records, %v", len(recs), err)
	}
	return recs[0]
}

func TestReplayDetectsEveryField(t *testing.T) {
	g, _ := all.Registry().Lookup("bohnenspiel")
	rec := firstRecord(t)
	if ms, err := vector.Replay(g, rec); err != nil || len(ms) != 0 {
		t.Fatalf("clean record: %v %v", ms, err)
	}
	tamper := []struct {
		field string
		edit  func(r *vector.Record)
	}{
		{"to_move", func(r *vector.Record) { r.Plies[3]["to_move"] = 5.0 }},
		{"legal_count", func(r *vector.Record) { r.Plies[3]["legal_count"] = 99.0 }},
		{"board", func(r *vector.Record) { r.Plies[3]["board"] = "x" }},
		{"scores", func(r *vector.Record) { r.Plies[3]["scores"] = []any{1.0, 2.0} }},
		{"legal", func(r *vector.Record) { r.Plies[3]["legal"] = []any{"PIT 0 0"} }},
		{"winner", func(r *vector.Record) { r.Result["winner"] = 7.0 }},
		{"reason", func(r *vector.Record) { r.Result["reason"] = "max_turn_x" }},
	}
	for _, tc := range tamper {
		r := firstRecord(t)
		tc.edit(r)
		ms, err := vector.Replay(g, r)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != 1 || ms[0].Field != tc.field {
			t.Errorf("tampered %s: mismatches %v", tc.field, ms)
		}
	}
	// A move the rules reject stops the replay with a mismatch.
	r := firstRecord(t)
	r.Moves[2] = "PIT 9 9"
	ms, _ := vector.Replay(g, r)
	if len(ms) == 0 || !strings.Contains(ms[len(ms)-1].String(), "ply 2") {
		t.Fatalf("illegal move not reported at ply 2: %v", ms)
	}
}

func TestVerifyFileReportsLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.jsonl")
	src, err := os.ReadFile("../../games/bohnenspiel/testdata/bohnenspiel.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(src), "\n", 3)
	bad := strings.Replace(lines[1], `"PIT`, `"PUT`, 1)
	body := lines[0] + "\n" + bad + "\n{not json\n" + `{"game":"chess","moves":[],"plies":[{}],"result":{}}` + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := all.Registry()
	outs, err := vector.VerifyFile(path, func(name string) (engine.Game, error) { return reg.Lookup(name) })
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 4 {
		t.Fatalf("%d outcomes, want 4", len(outs))
	}
	if !outs[0].OK() || outs[1].OK() || outs[2].Err == nil || outs[3].Err == nil {
		t.Fatalf("outcomes: %+v", outs)
	}
	if outs[2].Line != 3 || !strings.Contains(outs[2].Err.Error(), ":3:") {
		t.Fatalf("JSON error does not name line 3: %v", outs[2].Err)
	}
}
