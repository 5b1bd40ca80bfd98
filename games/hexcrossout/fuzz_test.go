package hexcrossout

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// fuzzPositions: a start board, positions part-way through random games,
// and a finished game.
func fuzzPositions() []*State {
	var out []*State
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{12, 24, 33} {
		free, err := generate(n, int64(n))
		if err != nil {
			panic(err)
		}
		s := newState(free)
		out = append(out, s.Clone().(*State))
		for k := 0; k < 4 && !s.Terminal(); k++ {
			s.Apply(s.RandomMove(r))
		}
		out = append(out, s.Clone().(*State))
		for !s.Terminal() {
			s.Apply(s.RandomMove(r))
		}
		out = append(out, s)
	}
	return out
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"6,6,1,1", "6,6,2,4", "6,6,3,6", "7,6,2,3", "6,6,1,0", "6,6,1,-9", "-1,5,2,4", "12,0,1,1",
		"6,6,0,1", "6,6,4,1", "6,6,2,7", "6,6,2,0", "", "6,6,1", "6,6,1,1,1", " 6,6,1,1", "+6,6,1,1",
		"99999999999999999999,6,1,1", "6,6,1,99999999999999999999", "0,0,1,1", "11,11,3,1", "5,5,3,5",
	} {
		for p := range 9 {
			f.Add(seed, uint8(p))
		}
	}
	positions := fuzzPositions()
	f.Fuzz(func(t *testing.T, text string, pos uint8) {
		s := positions[int(pos)%len(positions)]
		if _, me := enginetest.CheckParse(t, s, text); me != nil && (me.Reason == "" || me.Kind != engine.Illegal) {
			t.Fatalf("%q: bad MoveError %+v", text, *me)
		}
	})
}
