package reference

import (
	"fmt"
	"strings"
)

// Cachex follows the COMP30024 (2022) referee: an n×n array of cells,
// the 12 diamond capture patterns tested after each placement, a flood
// fill from the placed cell for the win, and a counter of board contents
// for the repetition draw, as game.py kept one.
type Cachex struct {
	n       int
	board   cachexBoard // 0 empty, 1 red, 2 blue
	t       int
	history map[cachexBoard]int
	over    bool
	win     int
	visited [cachexMax * cachexMax]bool // scratch for the flood fill
	queue   []int
}

// cachexMax is the largest board side.
const cachexMax = 15

// cachexBoard is the board, also the repetition counter's key.
type cachexBoard [cachexMax][cachexMax]int8

// NewCachex returns the empty n×n board.
func NewCachex(n int) *Cachex {
	c := &Cachex{n: n, history: map[cachexBoard]int{}, win: -1, queue: make([]int, 0, n*n)}
	c.history[c.board]++
	return c
}

// cachexSteal is the STEAL move; PLACE r q is r*n+q.
const cachexSteal = 1 << 16

// cachexSteps are the six neighbour directions (dr, dq).
var cachexSteps = [6][2]int{{1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}}

// cachexPatterns: for each diamond, the mover's corner O and the pair M1, M2.
var cachexPatterns = [12][3][2]int{
	{{1, -2}, {1, -1}, {0, -1}},
	{{2, -1}, {1, 0}, {1, -1}},
	{{1, 1}, {0, 1}, {1, 0}},
	{{-1, 2}, {-1, 1}, {0, 1}},
	{{-2, 1}, {-1, 0}, {-1, 1}},
	{{-1, -1}, {0, -1}, {-1, 0}},
	{{0, -1}, {1, -1}, {-1, 0}},
	{{1, -1}, {1, 0}, {0, -1}},
	{{1, 0}, {0, 1}, {1, -1}},
	{{0, 1}, {-1, 1}, {1, 0}},
	{{-1, 1}, {-1, 0}, {0, 1}},
	{{-1, 0}, {0, -1}, {-1, 1}},
}

func (c *Cachex) in(r, q int) bool { return r >= 0 && r < c.n && q >= 0 && q < c.n }

// Legal lists the empty cells row-major (not the centre of an odd board
// on the first action), then STEAL on the second.
func (c *Cachex) Legal(dst []int) []int {
	if c.over {
		return dst
	}
	for r := 0; r < c.n; r++ {
		for q := 0; q < c.n; q++ {
			if c.board[r][q] != 0 {
				continue
			}
			if c.t == 0 && c.n%2 == 1 && r == c.n/2 && q == c.n/2 {
				continue
			}
			dst = append(dst, r*c.n+q)
		}
	}
	if c.t == 1 {
		dst = append(dst, cachexSteal)
	}
	return dst
}

// Play applies the action and judges win, repetition and turn limit.
func (c *Cachex) Play(m int) {
	me := int8(c.t%2 + 1)
	placed := m != cachexSteal
	r, q := m/c.n, m%c.n
	if !placed {
		var nb cachexBoard
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.n; j++ {
				if v := c.board[i][j]; v != 0 {
					nb[j][i] = 3 - v
				}
			}
		}
		c.board = nb
	} else {
		c.board[r][q] = me
		var captured [][2]int
		for _, p := range cachexPatterns {
			or, oq := r+p[0][0], q+p[0][1]
			ar, aq := r+p[1][0], q+p[1][1]
			br, bq := r+p[2][0], q+p[2][1]
			if !c.in(or, oq) || !c.in(ar, aq) || !c.in(br, bq) {
				continue
			}
			if c.board[or][oq] == me && c.board[ar][aq] == 3-me && c.board[br][bq] == 3-me {
				captured = append(captured, [2]int{ar, aq}, [2]int{br, bq})
			}
		}
		for _, x := range captured {
			c.board[x[0]][x[1]] = 0
		}
	}
	c.t++
	c.history[c.board]++
	switch {
	case placed && c.t >= 2*c.n-1 && c.connected(r, q):
		c.over, c.win = true, int(me)-1
	case c.history[c.board] >= 7:
		c.over = true
	case c.t >= 343:
		c.over = true
	}
}

// connected flood-fills the placed stone's group and checks both edges.
func (c *Cachex) connected(r, q int) bool {
	me := c.board[r][q]
	for i := range c.visited {
		c.visited[i] = false
	}
	queue := append(c.queue[:0], r*c.n+q)
	c.visited[r*c.n+q] = true
	low, high := false, false
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		vr, vq := v/c.n, v%c.n
		axis := vr
		if me == 2 {
			axis = vq
		}
		low = low || axis == 0
		high = high || axis == c.n-1
		for _, s := range cachexSteps {
			nr, nq := vr+s[0], vq+s[1]
			if c.in(nr, nq) && c.board[nr][nq] == me && !c.visited[nr*c.n+nq] {
				c.visited[nr*c.n+nq] = true
				queue = append(queue, nr*c.n+nq)
			}
		}
	}
	c.queue = queue
	return low && high
}

// Over reports the end of the game.
func (c *Cachex) Over() bool { return c.over }

// Winner is the winning seat or -1 for a draw.
func (c *Cachex) Winner() int { return c.win }

// ToMove is red (0) at even t.
func (c *Cachex) ToMove() int { return c.t % 2 }

// Ply is the number of actions applied.
func (c *Cachex) Ply() int { return c.t }

// Repeat is how often the current board has occurred.
func (c *Cachex) Repeat() int { return c.history[c.board] }

// Text is the rows joined by '/'.
func (c *Cachex) Text() string {
	var sb strings.Builder
	for r := 0; r < c.n; r++ {
		if r > 0 {
			sb.WriteByte('/')
		}
		for q := 0; q < c.n; q++ {
			sb.WriteByte(".rb"[c.board[r][q]])
		}
	}
	return sb.String()
}

// MoveText writes "PLACE r q" or "STEAL".
func (c *Cachex) MoveText(m int) string {
	if m == cachexSteal {
		return "STEAL"
	}
	return fmt.Sprintf("PLACE %d %d", m/c.n, m%c.n)
}

// Copy returns an independent copy.
func (c *Cachex) Copy() Game {
	d := *c
	d.history = make(map[cachexBoard]int, len(c.history))
	for k, v := range c.history {
		d.history[k] = v
	}
	d.queue = make([]int, 0, c.n*c.n)
	return &d
}
