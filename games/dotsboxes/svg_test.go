package dotsboxes_test

import (
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
	"arena/games/dotsboxes"
)

func TestDrawGolden(t *testing.T) {
	params, moves := enginetest.VectorGame(t, "testdata/dots-and-boxes.jsonl", 0)
	enginetest.DrawGolden(t, dotsboxes.Game{}, []enginetest.Position{
		{Name: "start-3x4", Params: engine.Params{"rows": "3", "cols": "4"}, Cells: 6},
		// Seat 1 closes box 0 and so moves again.
		{Name: "box-3x4", Params: engine.Params{"rows": "3", "cols": "4"},
			Moves: []string{"[[0,0],[0,1]]", "[[0,0],[1,0]]", "[[1,0],[1,1]]", "[[0,1],[1,1]]", "[[2,2],[2,3]]"}, Cells: 6},
		{Name: "vector0-final", Params: params, Moves: moves, Cells: 16, Tell: true},
	})
}
