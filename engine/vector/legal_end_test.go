package vector_test

import (
	"path/filepath"
	"testing"

	"arena/engine"
	"arena/engine/vector"
	"arena/games/all"
)

// A game's own ply fields are compared on the final ply too (only a
// "legal" list is left out there): for every game whose vectors carry
// such fields, tampering one on the last ply is reported at that ply.
func TestFinalPlyGameFieldsAreCompared(t *testing.T) {
	files, err := filepath.Glob("../../games/*/testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector files: %v", err)
	}
	reg := all.Registry()
	tested := 0
	for _, f := range files {
		recs, err := vector.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := recs[0]
		g, err := reg.Lookup(r.Game)
		if err != nil {
			t.Fatal(err)
		}
		params, err := r.EngineParams()
		if err != nil {
			t.Fatal(err)
		}
		st, err := g.NewState(params)
		if err != nil {
			t.Fatal(err)
		}
		pf, ok := st.(engine.PlyFielder)
		if !ok {
			continue
		}
		extra := map[string]any{}
		pf.PlyFields(extra)
		last := len(r.Plies) - 1
		for k := range extra {
			if _, recorded := r.Plies[last][k]; !recorded || k == "legal" {
				continue
			}
			r.Plies[last][k] = "tampered"
			ms, err := vector.Replay(g, r)
			if err != nil || len(ms) != 1 || ms[0].Field != k || ms[0].Ply != last {
				t.Errorf("%s: %s tampered on the final ply: %v %v", r.Game, k, ms, err)
			}
			tested++
			break
		}
	}
	if tested == 0 {
		t.Fatal("no game's vectors carry a ply field of their own on the final ply")
	}
}
