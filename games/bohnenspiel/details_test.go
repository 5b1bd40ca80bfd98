package bohnenspiel

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"arena/engine"
)

// TestUnparseableDetails pins the reason given for each kind of text the
// framework's parser rejects: an empty line (also before a line break),
// a lone token, only spaces, a missing pit, and tokens quoted in full up
// to 24 bytes and cut at a rune boundary beyond.
func TestUnparseableDetails(t *testing.T) {
	x23 := strings.Repeat("x", 23)
	for _, c := range []struct{ text, detail string }{
		{"", "empty move text"},
		{"\nPIT 0 1", "empty move text"},
		{"\r\nPIT 0 1", "empty move text"},
		{"PIT", `missing player id after "PIT"`},
		{" ", "no move type: the text is only spaces"},
		{"   ", "no move type: the text is only spaces"},
		{"PIT 0", "missing pit number after the player id"},
		{"PIT 0 ", "missing pit number after the player id"},
		{"PIT 0  ", "missing pit number after the player id"},
		{"PIT x 1", `player id "x" is not a 32-bit integer`},
		{"PIT 0 x", `pit "x" is not a 32-bit integer`},
		{"MOVE 0", `unknown move type "MOVE" (want PIT, SKIP or NOTHING, exact case)`},
		// 24 bytes: quoted whole.
		{"PIT " + x23 + "y", `player id "` + x23 + `y" is not a 32-bit integer`},
		// 25 bytes: the first 24, then an ellipsis.
		{"PIT " + x23 + "yz", `player id "` + x23 + `y"... is not a 32-bit integer`},
		// The 25th byte continues a rune begun at the 24th: the cut goes
		// back to the rune's start.
		{"PIT " + x23 + "éz", `player id "` + x23 + `"... is not a 32-bit integer`},
		// No rune starts in the first 25 bytes: nothing is kept.
		{"PIT " + strings.Repeat("\x80", 30), `player id ""... is not a 32-bit integer`},
	} {
		_, err := New().ParseMove(c.text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Kind != engine.Unparseable {
			t.Errorf("%q: err = %v, want an unparseable *MoveError", c.text, err)
			continue
		}
		if me.Detail != c.detail {
			t.Errorf("%q: detail %q, want %q", c.text, me.Detail, c.detail)
		}
	}
}

// TestEvaluateValue checks the exact value: the score difference plus a
// tenth of the seed difference over every pit of both rows, the last
// pits included.
func TestEvaluateValue(t *testing.T) {
	s := &State{score: [2]uint8{20, 10}}
	s.pits = [ringSize]uint8{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 7}
	for seat, want := range []float64{10 + 0.1*(21-7), -10 + 0.1*(7-21)} {
		if got := s.Evaluate(seat); math.Abs(got-want) > 1e-9 {
			t.Errorf("Evaluate(%d) = %v, want %v", seat, got, want)
		}
	}
}

// TestLegalMovesWithRoomKeepTheSlice: a slice with room for a whole list
// (eight moves) is filled in place; one with less is grown, and moves
// already in it are kept.
func TestLegalMovesWithRoomKeepTheSlice(t *testing.T) {
	s := New()
	want := []engine.Move{PitMove(0, 0), PitMove(0, 1), PitMove(0, 2), PitMove(0, 3), PitMove(0, 4), PitMove(0, 5), SkipMove(0)}
	for _, held := range []int{0, 1, 3} {
		dst := make([]engine.Move, held, held+8)
		got := s.LegalMoves(dst)
		if &got[:1][0] != &dst[:1][0] {
			t.Errorf("%d moves held, room for 8 more: the slice was reallocated", held)
		}
		if !slices.Equal(got[held:], want) {
			t.Errorf("%d held: %v, want %v", held, got[held:], want)
		}
		short := make([]engine.Move, held, held+7)
		if got := s.LegalMoves(short); !slices.Equal(got[held:], want) || len(got) != held+len(want) {
			t.Errorf("%d held, room for 7: %v", held, got)
		}
	}
}
