package bohnenspiel

import (
	"math/rand/v2"
	"testing"
)

// walkSow is the rule read literally: take the pit's seeds, drop them one
// by one forwards around the ring, then capture backwards from the last
// pit while it holds 2, 4 or 6.
func walkSow(pits [ringSize]uint8, r0 int) ([ringSize]uint8, uint8) {
	n := int(pits[r0])
	pits[r0] = 0
	last := r0
	for ; n > 0; n-- {
		last = (last + 1) % ringSize
		pits[last]++
	}
	var took uint8
	for c := pits[last]; c == 2 || c == 4 || c == 6; c = pits[last] {
		took += c
		pits[last] = 0
		last = (last + ringSize - 1) % ringSize
	}
	return pits, took
}

// TestSowingTable checks Apply's table-driven sowing and register
// captures against walkSow for every pit and every seed count from 1 to
// all 72, on boards holding the rest of the 72 seeds at random, and on
// the board where one pit's 24 seeds end with every pit holding 2 (the
// capture chain going once round the ring).
func TestSowingTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(pits [ringSize]uint8, r0 int) {
		t.Helper()
		mover := uint8(r0 / pitsPerSide)
		s := &State{pits: pits, toMove: mover}
		// Seeds on the other side too, so the game goes on and the
		// board is not swept.
		want, took := walkSow(pits, r0)
		s.Apply(PitMove(int(mover), r0%pitsPerSide))
		if s.end == noValidMoves {
			return // swept: the pits no longer show the sowing
		}
		if s.pits != want || s.score[mover] != took {
			t.Fatalf("pit %d of %v: got %v captured %d, want %v captured %d", r0, pits, s.pits, s.score[mover], want, took)
		}
	}
	for r0 := 0; r0 < ringSize; r0++ {
		for n := 1; n <= totalSeeds; n++ {
			for trial := 0; trial < 20; trial++ {
				var pits [ringSize]uint8
				pits[r0] = uint8(n)
				for k := 0; k < totalSeeds-n; k++ {
					if i := r.IntN(ringSize); i != r0 {
						pits[i]++
					}
				}
				check(pits, r0)
			}
		}
		var pits [ringSize]uint8
		pits[r0] = 2 * ringSize
		want, took := walkSow(pits, r0)
		s := &State{pits: pits, toMove: uint8(r0 / pitsPerSide)}
		s.Apply(PitMove(r0/pitsPerSide, r0%pitsPerSide))
		if took != 2*ringSize || want != [ringSize]uint8{} || s.pits != want || s.Scores()[r0/pitsPerSide] != int(took) {
			t.Errorf("whole ring from pit %d: %v scores %v, want all %d captured", r0, s.pits, s.Scores(), took)
		}
	}
}
