package hexcrossout

import (
	"testing"

	"arena/engine/vector"
)

// TestVectors replays every recorded course game.
func TestVectors(t *testing.T) {
	recs, err := vector.ReadFile("testdata/hex-crossout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no vectors")
	}
	for i, rec := range recs {
		mm, err := vector.Replay(Game{}, rec)
		if err != nil {
			t.Errorf("game %d (%s): %v", i+1, rec.Label(), err)
			continue
		}
		for k, m := range mm {
			if k == 5 {
				t.Errorf("game %d (%s): ... %d more", i+1, rec.Label(), len(mm)-k)
				break
			}
			t.Errorf("game %d (%s): %s", i+1, rec.Label(), m)
		}
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
				break // reported by Replay
			}
			if got := st.FormatMove(m); got != mv {
				t.Errorf("game %d: %s formats as %s", i+1, mv, got)
			}
			st.Apply(m)
		}
	}
	t.Logf("replayed %d games", len(recs))
}
