package pentagotwist_test

import (
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
	"arena/games/pentagotwist"
)

func TestDrawGolden(t *testing.T) {
	params, moves := enginetest.VectorGame(t, "testdata/pentago-twist.jsonl", 0)
	enginetest.DrawGolden(t, pentagotwist.Game{}, []enginetest.Position{
		{Name: "start", Params: engine.Params{}, Cells: 36},
		// White's stone at (1,2) then a clockwise twist of quadrant 0 moves
		// it to (2,1); Black mirrors quadrant 3.
		{Name: "twists", Params: engine.Params{}, Moves: []string{"1 2 0 0 0", "4 4 3 1 1"}, Cells: 36},
		{Name: "vector0-final", Params: params, Moves: moves, Cells: 36, Tell: true},
	})
}
