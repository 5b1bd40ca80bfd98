package cachex

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// fuzzPositions are a few positions covering the special turns: the first
// move of odd and even n, the STEAL turn, a position after captures, and a
// finished game.
func fuzzPositions() []*State {
	var out []*State
	out = append(out, New(5), New(4))
	s := New(5)
	s.Apply(engine.Move(7))
	out = append(out, s)
	s = New(9)
	for _, m := range []string{"PLACE 3 4", "PLACE 3 3", "PLACE 4 5", "PLACE 3 5", "PLACE 5 4", "PLACE 4 3", "PLACE 5 3", "PLACE 4 4"} {
		mv, err := s.ParseMove(m)
		if err != nil {
			panic(err)
		}
		s.Apply(mv)
	}
	out = append(out, s)
	r := rand.New(rand.NewPCG(5, 5))
	s = New(6)
	var buf []engine.Move
	for !s.Terminal() {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
	}
	out = append(out, s, New(15))
	return out
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"STEAL", "PLACE 0 0", "PLACE 2 2", "PLACE 4 4", "PLACE -1 0", "PLACE 5 0", "PLACE 1 2 3",
		"PLACE 01 -0", "PLACE +1 2", "place 1 2", "PLACE 1  2", "PLACE 9223372036854775807 0",
		"PLACE 9223372036854775808 0", "", "STEAL ", "PLACE 3 3", "PLACE 14 14", "PLACE \x00 1",
	} {
		for p := range 6 {
			f.Add(seed, uint8(p))
		}
	}
	positions := fuzzPositions()
	f.Fuzz(func(t *testing.T, text string, pos uint8) {
		s := positions[int(pos)%len(positions)]
		if _, me := enginetest.CheckParse(t, s, text); me != nil && me.Reason != ReasonInvalid {
			t.Fatalf("%q: bad MoveError %+v", text, *me)
		}
	})
}
