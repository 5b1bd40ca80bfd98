package bohnenspiel

import (
	"fmt"
	"testing"

	"arena/engine/vector"
)

const vectorFile = "testdata/bohnenspiel.jsonl"

// TestVectors replays every recorded course game and compares every ply.
func TestVectors(t *testing.T) {
	recs, err := vector.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no games", vectorFile)
	}
	labels := map[string]int{}
	for i, rec := range recs {
		t.Run(fmt.Sprintf("game%03d_seed%s_%s", i+1, rec.Seed, rec.Tag), func(t *testing.T) {
			if rec.Game != name {
				t.Fatalf("%s: game %q, want %q", rec.Label(), rec.Game, name)
			}
			ms, err := vector.Replay(Game{}, rec)
			if err != nil {
				t.Fatalf("%s: %v", rec.Label(), err)
			}
			const show = 5
			for j, m := range ms {
				if j == show {
					t.Errorf("%s: ... and %d more mismatches", rec.Label(), len(ms)-show)
					break
				}
				t.Errorf("%s: %s", rec.Label(), m)
			}
		})
		if r, ok := rec.Result["reason"].(string); ok {
			labels[r]++
		}
	}
	// Both endings must be exercised, or the file is not the one expected.
	for _, l := range []string{LabelNoValidMoves, LabelMaxTurn} {
		if labels[l] == 0 {
			t.Errorf("no vector game ends with %q", l)
		}
	}
}
