package cachex

import (
	"testing"

	"arena/engine/enginetest"
)

// TestVectors replays every recorded course game.
func TestVectors(t *testing.T) {
	recs := enginetest.ReplayVectors(t, Game{}, "testdata/cachex.jsonl")
	tags := map[string]int{}
	for _, rec := range recs {
		tags[rec.Tag]++
	}
	t.Logf("replayed %d games: %v", len(recs), tags)
}
