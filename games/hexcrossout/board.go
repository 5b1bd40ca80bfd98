package hexcrossout

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// The board is a fixed 12×12 array; cell (x, y) has index x*12 + y, so
// ascending index is ascending (x, y), the order of canonical moves.
const (
	side     = 12
	numCells = side * side
	centre   = 6*side + 6

	minFree = 12
	maxFree = 33
)

// mask is a set of cells, bit i = cell i.
type mask [3]uint64

func (m *mask) set(i int)      { m[i>>6] |= 1 << (i & 63) }
func (m *mask) clear(i int)    { m[i>>6] &^= 1 << (i & 63) }
func (m *mask) has(i int) bool { return m[i>>6]>>(i&63)&1 == 1 }
func (m *mask) count() int {
	return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) + bits.OnesCount64(m[2])
}
func (m *mask) within(o *mask) bool { return m[0]&^o[0]|m[1]&^o[1]|m[2]&^o[2] == 0 }
func (m *mask) andNot(o *mask) {
	m[0] &^= o[0]
	m[1] &^= o[1]
	m[2] &^= o[2]
}

// deltas are the (dx, dy) steps of directions 1..6 (index dir-1), for a
// cell on an even row and on an odd row (odd rows are shifted right).
var deltas = [2][6][2]int{
	{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}},
	{{0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}},
}

// step[i][dir-1] is the neighbour of cell i in direction dir, or -1 off
// the board. Filled once, never changed.
var step = func() (t [numCells][6]int16) {
	for x := 0; x < side; x++ {
		for y := 0; y < side; y++ {
			for d := 0; d < 6; d++ {
				dl := deltas[y&1][d]
				nx, ny := x+dl[0], y+dl[1]
				t[x*side+y][d] = -1
				if nx >= 0 && nx < side && ny >= 0 && ny < side {
					t[x*side+y][d] = int16(nx*side + ny)
				}
			}
		}
	}
	return t
}()

// parseBoard reads a start board: 12 rows of 12 '#' or '.' joined by '/',
// with the free cells one connected region.
func parseBoard(text string) (mask, error) {
	var free mask
	rows := strings.Split(text, "/")
	if len(rows) != side {
		return free, fmt.Errorf("parameter board: want %d rows joined by '/', got %d", side, len(rows))
	}
	for y, row := range rows {
		if len(row) != side {
			return free, fmt.Errorf("parameter board: row %d has %d characters, want %d", y, len(row), side)
		}
		for x := 0; x < side; x++ {
			switch row[x] {
			case '.':
				free.set(x*side + y)
			case '#':
			default:
				return free, fmt.Errorf("parameter board: row %d column %d: %q is not '#' (obstacle) or '.' (free)", y, x, row[x])
			}
		}
	}
	n := free.count()
	if n == 0 {
		return free, fmt.Errorf("parameter board: no free cell")
	}
	if c := component(&free, firstCell(&free)); c.count() != n {
		return free, fmt.Errorf("parameter board: the free cells are not one connected region")
	}
	return free, nil
}

func firstCell(m *mask) int {
	for w := 0; w < 3; w++ {
		if m[w] != 0 {
			return w*64 + bits.TrailingZeros64(m[w])
		}
	}
	return -1
}

// component is the set of cells of m connected to cell c over the six
// directions.
func component(m *mask, c int) mask {
	var seen mask
	var stack [numCells]int16
	sp := 0
	stack[sp] = int16(c)
	sp++
	seen.set(c)
	for sp > 0 {
		sp--
		v := stack[sp]
		for _, u := range step[v] {
			if u >= 0 && m.has(int(u)) && !seen.has(int(u)) {
				seen.set(int(u))
				stack[sp] = u
				sp++
			}
		}
	}
	return seen
}

// maxAttempts bounds the generator's retries; a dead end is rare, so
// running out means a bug rather than bad luck.
const maxAttempts = 10000

// generate grows a region of exactly n free cells from the centre (6,6):
// a random reached free cell is expanded, each newly reached neighbour
// becoming free with probability 0.7 (else an obstacle for good), until n
// cells are free. A frontier that runs dry restarts the growth, drawing on
// the same PCG stream, so (n, seed) always gives the same board.
func generate(n int, seed int64) (mask, error) {
	if n < minFree || n > maxFree {
		return mask{}, fmt.Errorf("parameter free=%d: must be in %d..%d", n, minFree, maxFree)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x6865782d63726f73))
	var queue [numCells]int16
	for attempt := 0; attempt < maxAttempts; attempt++ {
		var free, reached mask
		free.set(centre)
		reached.set(centre)
		queue[0] = centre
		q, count := 1, 1
		for count < n && q > 0 {
			j := r.IntN(q)
			c := queue[j]
			q--
			queue[j] = queue[q]
			for _, u := range step[c] {
				if u < 0 || reached.has(int(u)) {
					continue
				}
				reached.set(int(u))
				if r.Float64() < 0.7 {
					free.set(int(u))
					queue[q] = u
					q++
					if count++; count == n {
						break
					}
				}
			}
		}
		if count == n {
			return free, nil
		}
	}
	return mask{}, fmt.Errorf("board generator: no region of %d cells for seed %d", n, seed)
}

// boardText renders a start board (free cells '.', all others '#').
func boardText(free *mask) string {
	var b strings.Builder
	b.Grow(numCells + side)
	for y := 0; y < side; y++ {
		if y > 0 {
			b.WriteByte('/')
		}
		for x := 0; x < side; x++ {
			if free.has(x*side + y) {
				b.WriteByte('.')
			} else {
				b.WriteByte('#')
			}
		}
	}
	return b.String()
}

// Generate returns the canonical start board of the arena's generator for
// n free cells (12..33) and seed.
func Generate(n int, seed int64) (string, error) {
	free, err := generate(n, seed)
	if err != nil {
		return "", err
	}
	return boardText(&free), nil
}
