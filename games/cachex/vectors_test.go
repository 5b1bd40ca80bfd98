package cachex

import (
	"testing"

	"arena/engine/vector"
)

// TestVectors replays every recorded course game.
func TestVectors(t *testing.T) {
	recs, err := vector.ReadFile("testdata/cachex.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no vectors")
	}
	tags := map[string]int{}
	for i, rec := range recs {
		tags[rec.Tag]++
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
	}
	t.Logf("replayed %d games: %v", len(recs), tags)
}
