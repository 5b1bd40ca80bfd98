package gameview_test

import (
	"testing"

	"arena/arena/gameview"
	"arena/arena/record"
	"arena/games/all"
)

// A game from an opening: the opening's moves (both seats') are the
// referee's, untimed, and each agent's first own move is still timed
// against the first-move allowance.
func TestOpeningMovesLeaveTheFirstMoveAllowance(t *testing.T) {
	rec := bohnenspielRecord(t)
	rec.Moves[0].Source, rec.Moves[0].WallMS = record.SourceOpening, 0
	rec.Moves[1].Source, rec.Moves[1].WallMS = record.SourceOpening, 0
	rec.Events = rec.Events[1:] // the substitute's late event belonged to move 2
	rec.Opening = &record.Opening{Index: 1, Moves: []string{rec.Moves[0].Text, rec.Moves[1].Text}}
	v, err := gameview.Build(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 2} {
		if f := v.Frames[i]; f.Limit != 0 || f.Move.Source != record.SourceOpening {
			t.Errorf("opening move %d: limit %v, source %q", i, f.Limit, f.Move.Source)
		}
	}
	if f := v.Frames[3]; f.Limit != v.Profile.FirstMoveLimit {
		t.Errorf("seat 0's first own move: limit %v, want the first-move allowance %v", f.Limit, v.Profile.FirstMoveLimit)
	}
}
