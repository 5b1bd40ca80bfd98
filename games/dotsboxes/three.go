package dotsboxes

import "math/bits"

// sideMasks counts a one-word board's three-sided boxes from its drawn
// lines, all boxes at once. A box stands at the bit of its top side, and
// the drawn lines shifted down by the distance from a box's top side to
// another of its sides say, at every box's bit, whether that side is
// drawn. The lines stay in Grid order, so listing keeps its table copies:
// a row of lines holds 2·cols−1 (right and down from each dot, the last
// dot only down), so the left side is 1 further, the bottom side 2·cols−1
// and the right side 3, but 2 in the last column; below the last row of
// boxes the bottom sides are the last row of dots' lines, one bit apart
// instead of two, spread by a table. A layout with holes making every
// side a single shift needs 2·rows·cols−3 bits: 69 for 6×6.
type sideMasks struct {
	boxes  uint64 // the bits of the boxes' top sides
	inner  uint64 // those of the boxes not in the last column
	last   uint64 // those of the boxes in the last column
	upper  uint64 // those of the boxes not in the last row
	down   uint   // lines from a box's top side to its bottom side
	floor  uint   // the first line of the last row of dots
	lowTop uint   // the top side of the first box of the last row
}

// spread2 moves bit i of an 11-bit value to bit 2i: the last row of
// lines (at most MaxDots−1 = 11) spread to its boxes' top sides. 8 KiB.
var spread2 = func() (t [1 << (MaxDots - 1)]uint32) {
	for v := range t {
		for i := range MaxDots - 1 {
			t[v] |= uint32(v>>i&1) << (2 * i)
		}
	}
	return t
}()

// fillSideMasks builds g.sideMasks from boxSides, checking that every box
// has its sides where sideMasks.three looks for them.
func (g *geometry) fillSideMasks() {
	m := &g.sideMasks
	m.down = uint(2*g.cols - 1)
	m.floor = uint(g.right[g.rows-1][0])
	m.lowTop = uint(g.right[g.rows-2][0])
	for k := 0; k < g.nBoxes; k++ {
		x, y := k/(g.cols-1), k%(g.cols-1)
		left, top, bottom, right := uint(g.boxSides[k][0]), uint(g.boxSides[k][1]), uint(g.boxSides[k][2]), uint(g.boxSides[k][3])
		lowRow, lastCol := x == g.rows-2, y == g.cols-2
		if left != top+1 || (!lowRow && bottom != top+m.down) || (lowRow && bottom != m.floor+uint(y)) ||
			(lowRow && top != m.lowTop+2*uint(y)) || (!lastCol && right != top+3) || (lastCol && right != top+2) {
			panic("dotsboxes: a box's sides are not where the side masks look for them")
		}
		m.boxes |= 1 << top
		if lastCol {
			m.last |= 1 << top
		} else {
			m.inner |= 1 << top
		}
		if !lowRow {
			m.upper |= 1 << top
		}
	}
}

// three counts the boxes with exactly three sides drawn among the lines
// drawn. t, l, b and r say, at each box's bit, whether its top, left,
// bottom and right side is drawn; a box has three of four exactly when
// their parity is odd and one of the pairs (t, l) and (b, r) is complete.
func (m *sideMasks) three(drawn uint64) int {
	t, l := drawn, drawn>>1
	r := drawn>>3&m.inner | drawn>>2&m.last
	b := drawn>>(m.down&63)&m.upper | uint64(spread2[drawn>>(m.floor&63)&(1<<(MaxDots-1)-1)])<<(m.lowTop&63)
	return bits.OnesCount64((t ^ l ^ b ^ r) & (t&l | b&r) & m.boxes)
}
