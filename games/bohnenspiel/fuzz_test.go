package bohnenspiel

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// fuzzStates are positions to judge replies in: the start, and every ply of
// a few fixed random games (so barred players, spent credits, empty pits and
// finished games all occur).
func fuzzStates() []*State {
	r := rand.New(rand.NewPCG(424, 2017))
	states := []*State{New()}
	var buf []engine.Move
	for g := 0; g < 4; g++ {
		s := New()
		for !s.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
			states = append(states, s.Clone().(*State))
		}
	}
	return states
}

func FuzzParseMove(f *testing.F) {
	for _, text := range []string{
		"", " ", "  ", "PIT", "PIT ", "PIT 0", "PIT 0 ", "PIT 0 0", "PIT 0 5", "PIT 1 0", "PIT 1 5",
		"PIT 0 6", "PIT 0 9", "PIT 0 -1", "PIT 0 -0", "PIT -0 +0", "PIT +1 +2", "PIT 0 00",
		"PIT 0 2147483647", "PIT 0 -2147483648", "PIT 0 2147483648", "PIT 0 99999999999",
		"PIT 2147483647 0", "PIT -2147483648 3", "PIT 5 3", "PIT  0 1", "PIT 0  1", " PIT 0 1",
		"PIT 0 1 ", "PIT 0 1 extra", "PIT 0 1 2 3", "PIT\t0 1", "PIT 0 1\r", "PIT 0 1\n",
		"pit 0 1", "Pit 0 1", "PIT x 1", "PIT 0 x", "PIT 0 +", "PIT 0 -", "PIT 0 +-1", "PIT 0 1.5",
		"PIT 0 0x3", "PIT 0 1e2", "PIT 0 \uFF13", "PIT \u0660 \u0662", "PIT 0 \U0001D7D1", "PIT 0 \xff",
		"SKIP", "SKIP ", "SKIP 0", "SKIP 1", "SKIP 0 ", "SKIP 0 1", "SKIP x", "SKIP 2", "SKIP -1",
		"skip 0", "NOTHING", "NOTHING 0", "NOTHING 1", "NOTHING x", "NOTHING 0 PIT 0 1", "FOO 0", "FOO x",
		"MOVE 0 1", "0 1", "PIT PIT PIT", strings.Repeat("9", 100), "PIT 0 " + strings.Repeat("0", 60) + "3",
	} {
		for _, ply := range []uint16{0, 1, 7, 200} {
			f.Add(text, ply)
		}
	}
	states := fuzzStates()
	f.Fuzz(func(t *testing.T, text string, ply uint16) {
		s := states[int(ply)%len(states)]
		before := *s
		_, me := enginetest.CheckParse(t, s, text)
		if *s != before {
			t.Fatalf("ParseMove(%q) changed the position", text)
		}
		if me == nil {
			return
		}
		// CheckParse has already rejected any other kind.
		switch me.Kind {
		case engine.Illegal:
			if !strings.HasPrefix(me.Reason, illegalPre) {
				t.Fatalf("%q: illegal reason %q", text, me.Reason)
			}
		case engine.Unparseable:
			if me.Reason != "" {
				t.Fatalf("%q: unparseable with reason %q", text, me.Reason)
			}
		}
	})
}
