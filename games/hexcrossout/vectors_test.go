package hexcrossout

import (
	"testing"

	"arena/engine/enginetest"
)

// TestVectors replays every recorded course game.
func TestVectors(t *testing.T) {
	recs := enginetest.ReplayVectors(t, Game{}, "testdata/hex-crossout.jsonl")
	for i, rec := range recs {
		// The moves are recorded in canonical text.
		p, err := rec.EngineParams()
		if err != nil {
			t.Fatal(err)
		}
		st, err := NewFromBoard(p["board"])
		if err != nil {
			t.Fatal(err)
		}
		for _, mv := range rec.Moves {
			m, err := st.ParseMove(mv)
			if err != nil {
				break // reported by ReplayVectors
			}
			if got := st.FormatMove(m); got != mv {
				t.Errorf("game %d: %s formats as %s", i+1, mv, got)
			}
			st.Apply(m)
		}
	}
	t.Logf("replayed %d games", len(recs))
}
