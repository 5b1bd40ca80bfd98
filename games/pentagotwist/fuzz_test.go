package pentagotwist

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// FuzzParseMove judges arbitrary text in a position reached by a few
// seeded random moves: ParseMove must never panic, an accepted move must be
// legal and survive a FormatMove round trip, and a rejection must be a
// well-formed *engine.MoveError.
func FuzzParseMove(f *testing.F) {
	for _, seed := range []struct {
		text  string
		plies uint8
	}{
		{"1 0 2 0 0", 0}, {"1 0 2 0 1", 1}, {"0 0 0 0 0", 3}, {"5 5 3 1 0", 0},
		{"1 0 2 0 0 ", 0}, {"1 0 2 0 0 extra tokens", 0}, {"+1 -0 2 0 0", 0},
		{" 1 0 2 0 0", 0}, {"1  0 2 0 0", 0}, {"1\t0 2 0 0", 0}, {"a b c d e", 0},
		{"", 0}, {" ", 0}, {"1 0 2 0", 0}, {"2147483648 0 0 0 0", 0},
		{"-2147483648 0 0 0 0", 0}, {"6 0 0 0 0", 2}, {"0 0 4 0 0", 2}, {"0 0 0 2 0", 2},
		{"１ ０ ２ ０ ０", 0}, {"1 0 2 0 0\r\n", 0}, {"0 0 0 0 1", 40},
	} {
		f.Add(seed.text, seed.plies)
	}
	f.Fuzz(func(t *testing.T, text string, plies uint8) {
		s := NewState()
		r := rand.New(rand.NewPCG(uint64(plies), 99))
		var buf []engine.Move
		for i := 0; i < int(plies%40) && !s.Terminal(); i++ {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
		_, me := enginetest.CheckParse(t, s, text)
		if me != nil && (me.Kind == engine.Illegal) != (me.Reason != "") {
			t.Fatalf("ParseMove(%q): kind %v with reason %q", text, me.Kind, me.Reason)
		}
	})
}
