package pentagotwist

import (
	"errors"
	"math/rand/v2"
	"testing"

	"arena/engine"
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
		m, err := s.ParseMove(text)
		if err != nil {
			var me *engine.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("ParseMove(%q): error %T %v is not a *engine.MoveError", text, err, err)
			}
			if me.Kind != engine.Unparseable && me.Kind != engine.Illegal {
				t.Fatalf("ParseMove(%q): kind %v", text, me.Kind)
			}
			if me.Detail == "" || me.Text != text {
				t.Fatalf("ParseMove(%q): detail %q text %q", text, me.Detail, me.Text)
			}
			if (me.Kind == engine.Illegal) != (me.Reason != "") {
				t.Fatalf("ParseMove(%q): kind %v with reason %q", text, me.Kind, me.Reason)
			}
			return
		}
		found := false
		for _, l := range s.LegalMoves(buf[:0]) {
			if l == m {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("ParseMove(%q) = %v (%q), not a legal move", text, m, s.FormatMove(m))
		}
		back, err := s.ParseMove(s.FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("FormatMove(%v) = %q re-parses to %v, %v", m, s.FormatMove(m), back, err)
		}
	})
}
