package dotsboxes

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// FuzzParseMove judges arbitrary text on a board of fuzzed size after a
// few seeded random moves: ParseMove must never panic, an accepted move
// must be legal and survive a FormatMove round trip, and a rejection must
// be a well-formed *engine.MoveError.
func FuzzParseMove(f *testing.F) {
	for _, seed := range []struct {
		text       string
		size, plys uint8
	}{
		{"[[0,0],[0,1]]", 0, 0}, {"[[0,1],[0,0]]", 0, 3}, {" [ [ 2 , 0 ] , [ 2 , 1 ] ] ", 0, 0},
		{"[[4,4],[4,5]]", 0, 0}, {"[[1,1],[1,1]]", 0, 0}, {"[[0,0],[1,1]]", 0, 0},
		{"[[-1,0],[0,0]]", 0, 0}, {"[[1.0,2],[1,3]]", 0, 0}, {"[[01,2],[1,3]]", 0, 0},
		{"[[1,2],[1,3]] x", 0, 0}, {"", 0, 0}, {"[[1,2],[1,3],-1]", 0, 0},
		{"[[99999999999999999999999,0],[0,0]]", 0, 0}, {"[[2,5],[3,5]]", 0x46, 10},
		{"[[0,0],[0,1]]", 0x33, 11}, {"[[11,11],[10,11]]", 0xff, 200},
	} {
		f.Add(seed.text, seed.size, seed.plys)
	}
	f.Fuzz(func(t *testing.T, text string, size, plies uint8) {
		rows, cols := 5, 5
		if size != 0 {
			rows, cols = MinDots+int(size>>4)%(MaxDots-1), MinDots+int(size&15)%(MaxDots-1)
		}
		s := NewState(rows, cols)
		r := rand.New(rand.NewPCG(uint64(plies), 7))
		var buf []engine.Move
		for i := 0; i < int(plies) && !s.Terminal(); i++ {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
		if _, me := enginetest.CheckParse(t, s, text); me != nil && me.Reason == "" {
			t.Fatalf("ParseMove(%q): %v with empty reason", text, me.Kind)
		}
	})
}
