package cachex_test

import (
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
	"arena/games/cachex"
)

func TestDrawGolden(t *testing.T) {
	params, moves := enginetest.VectorGame(t, "testdata/cachex.jsonl", 0)
	enginetest.DrawGolden(t, cachex.Game{}, []enginetest.Position{
		{Name: "start-n5", Params: engine.Params{"n": "5"}, Cells: 25},
		// Blue steals Red's (1,3), which becomes blue (3,1); Red plays (4,4).
		{Name: "steal-n5", Params: engine.Params{"n": "5"}, Moves: []string{"PLACE 1 3", "STEAL", "PLACE 4 4"}, Cells: 25},
		{Name: "vector0-final", Params: params, Moves: moves, Cells: 9, Tell: true},
	})
}
