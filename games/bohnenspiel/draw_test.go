package bohnenspiel_test

import (
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
	"arena/games/bohnenspiel"
)

func TestDrawGolden(t *testing.T) {
	params, moves := enginetest.VectorGame(t, "testdata/bohnenspiel.jsonl", 0)
	enginetest.DrawGolden(t, bohnenspiel.Game{}, []enginetest.Position{
		{Name: "start", Params: engine.Params{}, Cells: 14},
		{Name: "skip-barred", Params: engine.Params{}, Moves: []string{"PIT 0 2", "PIT 1 3", "PIT 0 4", "SKIP 1"}, Cells: 14},
		{Name: "vector0-final", Params: params, Moves: moves, Cells: 14, Tell: true},
	})
}
