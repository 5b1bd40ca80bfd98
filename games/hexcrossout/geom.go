package hexcrossout

import (
	"math/bits"

	"arena/engine"
)

// maxLocalLines bounds the canonical lines of 2 and 3 cells on one start
// board: at most six start at a cell (three directions each for l = 2 and
// l = 3 point to larger indices), and a board has at most maxFree cells.
const maxLocalLines = 6 * maxFree

// lineWords is the number of words in a set of local lines.
const lineWords = (maxLocalLines + 63) / 64

// geom numbers the free cells of one start board 0..n-1 in ascending cell
// order, so a set of them is one word, and its canonical lines of 2 and 3
// cells 0..m-1 in ascending (start cell, l, dir) order, the order of
// LegalMoves. A line stays playable until one of its cells is crossed
// out, so a state keeps the set of live lines and drops the lines through
// each crossed cell. Built once per game, shared read-only by clones.
type geom struct {
	local    [numCells]int8 // local index of a start-board cell, -1 for others
	cell     [maxFree]uint8 // cell of a local index
	move     [maxLocalLines]engine.Move
	first    [maxFree + 1]uint8         // lines starting at local cell c are first[c]..first[c+1]-1
	through  [maxFree][lineWords]uint64 // the lines containing local cell c
	allLines [lineWords]uint64
	nLines   int
}

func newGeom(free *mask) *geom {
	g := &geom{}
	for i := range g.local {
		g.local[i] = -1
	}
	n := 0
	for w := 0; w < 3; w++ {
		for b := free[w]; b != 0; b &= b - 1 {
			c := w*64 + bits.TrailingZeros64(b)
			g.local[c] = int8(n)
			g.cell[n] = uint8(c)
			n++
		}
	}
	for lc := 0; lc < n; lc++ {
		g.first[lc] = uint8(g.nLines)
		c := int(g.cell[lc])
		for _, ln := range lines[c][:nlines[c]] {
			if !ln.cells.within(free) {
				continue // crosses an obstacle: never playable on this board
			}
			id := g.nLines
			g.nLines++
			g.move[id] = ln.move
			g.allLines[id>>6] |= 1 << (id & 63)
			for w := 0; w < 3; w++ {
				for b := ln.cells[w]; b != 0; b &= b - 1 {
					x := g.local[w*64+bits.TrailingZeros64(b)]
					g.through[x][id>>6] |= 1 << (id & 63)
				}
			}
		}
	}
	g.first[n] = uint8(g.nLines)
	return g
}
