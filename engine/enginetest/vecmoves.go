package enginetest

import (
	"testing"

	"arena/engine"
	"arena/engine/vector"
)

// VectorGame returns the parameters and moves of the i-th recorded course
// game of a vector file, for tests that want a real, finished game.
func VectorGame(t *testing.T, path string, i int) (engine.Params, []string) {
	t.Helper()
	recs, err := vector.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if i >= len(recs) {
		t.Fatalf("%s: %d games, want game %d", path, len(recs), i)
	}
	p, err := recs[i].EngineParams()
	if err != nil {
		t.Fatal(err)
	}
	return p, recs[i].Moves
}
