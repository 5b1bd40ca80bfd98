package pentagotwist

import "math/bits"

// fiveLines lists the 32 five-cell segments as bitboards. It is computed
// once and never written: a constant table.
var fiveLines = buildFiveLines()

func buildFiveLines() [32]uint64 {
	var out [32]uint64
	n := 0
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for _, d := range dirs {
		for x := 0; x < size; x++ {
			for y := 0; y < size; y++ {
				ex, ey := x+4*d[0], y+4*d[1]
				if ex < 0 || ex >= size || ey < 0 || ey >= size {
					continue
				}
				var m uint64
				for k := 0; k < 5; k++ {
					m |= uint64(1) << (size*(x+k*d[0]) + y + k*d[1])
				}
				out[n] = m
				n++
			}
		}
	}
	return out
}

// quadrantCentres are the cells (1,1), (1,4), (4,1), (4,4): neither twist
// moves them, so a stone there keeps its lines.
const quadrantCentres = 1<<7 | 1<<10 | 1<<25 | 1<<28

// lineWeight scores a segment holding k stones of one colour and none of
// the other: each extra stone is worth much more than the last.
func lineWeight(k int) float64 {
	return float64(int(1) << (3 * (k - 1)))
}

// Evaluate counts seat's open segments (no opposing stone) weighted by how
// full they are, minus the opponent's, plus a bonus for the quadrant
// centres. Twists reshuffle everything else, so nothing subtler pays.
func (s *State) Evaluate(seat int) float64 {
	mine, theirs := s.stones[seat&1], s.stones[(seat&1)^1]
	var v float64
	for _, l := range fiveLines {
		m, t := l&mine, l&theirs
		switch {
		case m != 0 && t == 0:
			v += lineWeight(bits.OnesCount64(m))
		case t != 0 && m == 0:
			v -= lineWeight(bits.OnesCount64(t))
		}
	}
	v += 2 * float64(bits.OnesCount64(mine&quadrantCentres)-bits.OnesCount64(theirs&quadrantCentres))
	return v
}
