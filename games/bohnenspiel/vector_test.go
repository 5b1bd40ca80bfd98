package bohnenspiel

import (
	"testing"

	"arena/engine/enginetest"
)

const vectorFile = "testdata/bohnenspiel.jsonl"

// TestVectors replays every recorded course game and compares every ply.
func TestVectors(t *testing.T) {
	recs := enginetest.ReplayVectors(t, Game{}, vectorFile)
	labels := map[string]int{}
	for _, rec := range recs {
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
