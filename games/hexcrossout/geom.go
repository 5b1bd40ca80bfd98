package hexcrossout

import (
	"math/bits"

	"arena/engine"
)

// maxLinesPerCell is the most canonical lines of 2 and 3 cells that start
// at one cell: three directions each for l = 2 and l = 3 point to larger
// indices.
const maxLinesPerCell = 6

// lineWords is the number of words in a set of line ids: enough for a
// board whose every cell is free (a start board given as a parameter may
// have any number of free cells; the course's have 12 to 35).
const lineWords = (maxLinesPerCell*numCells + 63) / 64

// geom numbers the canonical lines of 2 and 3 cells of one start board
// 0..nLines-1 in ascending (start cell, l, dir) order, the order of
// LegalMoves. A line stays playable until one of its cells is crossed
// out, so a state keeps the set of live line ids and drops the lines
// through each crossed cell. Built once per game, shared read-only by
// clones.
type geom struct {
	move    [maxLinesPerCell * numCells]engine.Move
	first   [numCells + 1]uint16 // lines starting at cell c are first[c]..first[c+1]-1
	through [numCells][lineWords]uint64
	all     [lineWords]uint64
	nLines  int
	words   int // words of a line set in use
}

func newGeom(free *mask) *geom {
	g := &geom{}
	for c := 0; c < numCells; c++ {
		g.first[c] = uint16(g.nLines)
		if !free.has(c) {
			continue
		}
		for _, ln := range lines[c][:nlines[c]] {
			if !ln.cells.within(free) {
				continue // crosses an obstacle: never playable on this board
			}
			id := g.nLines
			g.nLines++
			g.move[id] = ln.move
			g.all[id>>6] |= 1 << (id & 63)
			for w := 0; w < 3; w++ {
				for b := ln.cells[w]; b != 0; b &= b - 1 {
					x := w*64 + bits.TrailingZeros64(b)
					g.through[x][id>>6] |= 1 << (id & 63)
				}
			}
		}
	}
	g.first[numCells] = uint16(g.nLines)
	g.words = (g.nLines + 63) / 64
	return g
}
