package dotsboxes

import (
	"cmp"
	"slices"
	"testing"
)

// gridOrder lists a board's lines from the rules alone (§2, §9): every
// pair of dots on the board that differ by one in exactly one coordinate,
// smaller dot first, sorted ascending by (a, b, c, d).
func gridOrder(rows, cols int) [][4]int {
	var lines [][4]int
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if a+1 < rows {
				lines = append(lines, [4]int{a, b, a + 1, b})
			}
			if b+1 < cols {
				lines = append(lines, [4]int{a, b, a, b + 1})
			}
		}
	}
	slices.SortFunc(lines, func(x, y [4]int) int {
		for i := range x {
			if c := cmp.Compare(x[i], y[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return lines
}

// TestGeometryTables checks every board size's tables against the lines
// the rules define: the endpoints in Grid order, the right and down
// indices of every dot (-1 where the neighbour is off the board, and for
// every slot of the fixed-size table past the board), and, on one-word
// boards, the number of bytes of the word that hold lines.
func TestGeometryTables(t *testing.T) {
	for rows := MinDots; rows <= MaxDots; rows++ {
		for cols := MinDots; cols <= MaxDots; cols++ {
			g := newGeometry(rows, cols)
			lines := gridOrder(rows, cols)
			if g.nLines != len(lines) {
				t.Fatalf("%dx%d: %d lines, want %d", rows, cols, g.nLines, len(lines))
			}
			index := map[[4]int]int{}
			for i, l := range lines {
				index[l] = i
				e := g.ends[i]
				if got := [4]int{int(e[0]), int(e[1]), int(e[2]), int(e[3])}; got != l {
					t.Fatalf("%dx%d: line %d ends %v, want %v", rows, cols, i, got, l)
				}
			}
			for a := 0; a < MaxDots; a++ {
				for b := 0; b < MaxDots; b++ {
					right, down := -1, -1
					if i, ok := index[[4]int{a, b, a, b + 1}]; ok {
						right = i
					}
					if i, ok := index[[4]int{a, b, a + 1, b}]; ok {
						down = i
					}
					if int(g.right[a][b]) != right || int(g.down[a][b]) != down {
						t.Fatalf("%dx%d: dot [%d,%d] right %d down %d, want %d and %d",
							rows, cols, a, b, g.right[a][b], g.down[a][b], right, down)
					}
				}
			}
		}
	}
}

// TestLineJoinsAdjacentDots asks geometry.line for every pair of dots on
// and just off every board, in both orders: the index of the line in Grid
// order when both dots are on the board and adjacent, else -1. ParseMove
// checks the board's bounds before it asks, so only this test reaches
// line's own bounds checks.
func TestLineJoinsAdjacentDots(t *testing.T) {
	for rows := MinDots; rows <= MaxDots; rows++ {
		for cols := MinDots; cols <= MaxDots; cols++ {
			g := newGeometry(rows, cols)
			index := map[[4]int]int{}
			for i, l := range gridOrder(rows, cols) {
				index[l] = i
				index[[4]int{l[2], l[3], l[0], l[1]}] = i
			}
			for a := -1; a <= rows; a++ {
				for b := -1; b <= cols; b++ {
					for c := -1; c <= rows; c++ {
						for d := -1; d <= cols; d++ {
							want, ok := index[[4]int{a, b, c, d}]
							if !ok {
								want = -1
							}
							if got := g.line(a, b, c, d); got != want {
								t.Fatalf("%dx%d: line(%d,%d,%d,%d) = %d, want %d", rows, cols, a, b, c, d, got, want)
							}
						}
					}
				}
			}
		}
	}
}
