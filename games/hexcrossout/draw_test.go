package hexcrossout_test

import (
	"strings"
	"testing"

	"arena/engine/enginetest"
	"arena/games/hexcrossout"
)

func TestDrawGolden(t *testing.T) {
	params, moves := enginetest.VectorGame(t, "testdata/hex-crossout.jsonl", 0)
	cells := strings.Count(params["board"], ".")
	enginetest.DrawGolden(t, hexcrossout.Game{}, []enginetest.Position{
		{Name: "vector0-start", Params: params, Cells: cells},
		{Name: "vector0-ply3", Params: params, Moves: moves[:3], Cells: cells},
		{Name: "vector0-final", Params: params, Moves: moves, Cells: cells, Tell: true},
	})
}
