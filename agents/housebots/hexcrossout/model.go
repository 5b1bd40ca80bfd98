// Package hexcrossout holds the hex cross-out house bots: the course
// report's UCT agent with its parity endgame rule ("baseline") and an exact
// misère solver backed by MCTS ("strong").
package hexcrossout

import (
	"fmt"
	"math/bits"
	"strings"

	"arena/engine"
)

const side = 12

// deltas are the (dx, dy) steps of directions 1..6 for even and odd rows
// (rules §2: odd rows are shifted half a cell right).
var deltas = [2][6][2]int{
	{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}},
	{{0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}},
}

// model is the free cells of one position as a bit set over at most 64
// numbered cells, with every legal cell set precomputed. It is read from
// the board text, so it does not depend on the engine's layout.
type model struct {
	cells []cellXY // bit i = cells[i]
	free  uint64
	moves []cellMove // every straight run of 1..3 cells, each set once
	adj   []uint64   // neighbours of each cell
}

type cellXY struct{ x, y int }

type cellMove struct {
	set       uint64
	x, y, l   int
	dir       int
	singleton bool
}

func (m cellMove) text() string { return fmt.Sprintf("%d,%d,%d,%d", m.x, m.y, m.l, m.dir) }

// newModel reads the canonical board text: 12 rows joined by '/', '.' for
// a free cell.
func newModel(text string) (*model, error) {
	rows := strings.Split(text, "/")
	if len(rows) != side {
		return nil, fmt.Errorf("hex board text has %d rows, want %d", len(rows), side)
	}
	idx := map[cellXY]int{}
	m := &model{}
	for y, row := range rows {
		for x := 0; x < len(row) && x < side; x++ {
			if row[x] == '.' {
				if len(m.cells) == 64 {
					return nil, fmt.Errorf("more than 64 free cells")
				}
				idx[cellXY{x, y}] = len(m.cells)
				m.free |= 1 << len(m.cells)
				m.cells = append(m.cells, cellXY{x, y})
			}
		}
	}
	next := func(c cellXY, dir int) (cellXY, bool) {
		d := deltas[c.y&1][dir-1]
		n := cellXY{c.x + d[0], c.y + d[1]}
		_, ok := idx[n]
		return n, ok
	}
	m.adj = make([]uint64, len(m.cells))
	for i, c := range m.cells {
		m.moves = append(m.moves, cellMove{set: 1 << i, x: c.x, y: c.y, l: 1, dir: 1, singleton: true})
		for dir := 1; dir <= 6; dir++ {
			if n, ok := next(c, dir); ok {
				m.adj[i] |= 1 << idx[n]
			}
		}
		// Directions 4, 5, 6 (right, down-left, down-right) list every line
		// once; 3, 1, 2 are the same lines walked the other way.
		for dir := 4; dir <= 6; dir++ {
			set := uint64(1) << i
			cur := c
			for l := 2; l <= 3; l++ {
				n, ok := next(cur, dir)
				if !ok {
					break
				}
				set |= 1 << idx[n]
				cur = n
				m.moves = append(m.moves, cellMove{set: set, x: c.x, y: c.y, l: l, dir: dir})
			}
		}
	}
	return m, nil
}

// components splits a free set into its connected pieces.
func (m *model) components(free uint64) []uint64 {
	var out []uint64
	for free != 0 {
		seed := free & -free
		comp := seed
		for {
			grow := comp
			for r := comp; r != 0; r &= r - 1 {
				grow |= m.adj[bits.TrailingZeros64(r)]
			}
			grow &= free
			if grow == comp {
				break
			}
			comp = grow
		}
		out = append(out, comp)
		free &^= comp
	}
	return out
}

// moveFor finds the engine move for a cell set.
func (m *model) moveFor(st engine.State, cm cellMove) (engine.Move, error) {
	return st.ParseMove(cm.text())
}
