// Package cachex holds the Cachex house bots: the course report's greedy
// path/capture player with a shallow minimax ("baseline") and an
// alpha-beta searcher on shortest-path distances ("strong").
package cachex

import (
	"fmt"
	"sync"

	"arena/engine"
)

// steps are the six neighbour directions (rules §2).
var steps = [6][2]int{{1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}}

// board is a position read from the canonical text: rows r = 0..n-1
// (bottom first) joined by '/', cells 'r' (red, seat 0), 'b' (blue, seat
// 1) or '.'.
type board struct {
	n     int
	cells []int8 // -1 empty, else the seat
}

func readBoard(st engine.State) (board, error) {
	t := st.Text()
	n := 0
	for n < len(t) && t[n] != '/' {
		n++
	}
	if n == 0 || len(t) != n*n+n-1 {
		return board{}, fmt.Errorf("cachex board text %q is not n rows of n cells", t)
	}
	b := board{n: n, cells: make([]int8, n*n)}
	for r := 0; r < n; r++ {
		for q := 0; q < n; q++ {
			switch t[r*(n+1)+q] {
			case 'r':
				b.cells[r*n+q] = 0
			case 'b':
				b.cells[r*n+q] = 1
			default:
				b.cells[r*n+q] = -1
			}
		}
	}
	return b, nil
}

func (b board) neighbours(i int, f func(j int)) {
	r, q := i/b.n, i%b.n
	for _, d := range steps {
		nr, nq := r+d[0], q+d[1]
		if nr >= 0 && nr < b.n && nq >= 0 && nq < b.n {
			f(nr*b.n + nq)
		}
	}
}

// onEdge reports whether cell i is on seat's start (end=false) or goal
// edge: red joins r = 0 and r = n-1, blue q = 0 and q = n-1.
func (b board) onEdge(i, seat int, end bool) bool {
	v := i / b.n
	if seat == 1 {
		v = i % b.n
	}
	if end {
		return v == b.n-1
	}
	return v == 0
}

const unreachable = 1 << 20

// scratch is the distance search's working memory, reused: the search
// calls it at every node, and the Cachex profile caps memory at 100 MiB.
type scratch struct{ dist, dq []int }

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// distance is seat's shortest-path cost between its edges: own stones
// cost 0, empty cells 1, enemy stones block (0-1 breadth-first search).
// It returns the cost and, if asked, the cells of one cheapest path.
func (b board) distance(seat int, wantPath bool) (int, []int) {
	n2 := b.n * b.n
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	if len(sc.dist) < n2 {
		sc.dist, sc.dq = make([]int, n2), make([]int, 14*n2)
	}
	dist := sc.dist[:n2]
	var prev []int
	if wantPath {
		prev = make([]int, n2)
	}
	// Every relaxation pushes once: at most 7·n² pushes either way.
	dq := sc.dq[:14*n2]
	head, tail := 7*n2, 7*n2
	enemy := int8(1 - seat)
	cost := func(i int) int {
		if b.cells[i] == int8(seat) {
			return 0
		}
		return 1
	}
	push := func(i, d, from int) {
		if d >= dist[i] {
			return
		}
		dist[i] = d
		if prev != nil {
			prev[i] = from
		}
		if cost(i) == 0 {
			head--
			dq[head] = i
		} else {
			dq[tail] = i
			tail++
		}
	}
	for i := range dist {
		dist[i] = unreachable
	}
	for i := 0; i < n2; i++ {
		if b.onEdge(i, seat, false) && b.cells[i] != enemy {
			push(i, cost(i), -1)
		}
	}
	for head < tail {
		x := dq[head]
		head++
		b.neighbours(x, func(j int) {
			if b.cells[j] != enemy {
				push(j, dist[x]+cost(j), x)
			}
		})
	}
	best, end := unreachable, -1
	for i := 0; i < n2; i++ {
		if b.onEdge(i, seat, true) && dist[i] < best {
			best, end = dist[i], i
		}
	}
	if !wantPath || end < 0 {
		return best, nil
	}
	var path []int
	for x := end; x >= 0; x = prev[x] {
		path = append(path, x)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return best, path
}

func (b board) stones(seat int) int {
	c := 0
	for _, v := range b.cells {
		if v == int8(seat) {
			c++
		}
	}
	return c
}
