package reference

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Cachex follows the COMP30024 (2022) referee on a flat n×n array: the
// 12 diamond capture patterns tested around each placement, a flood fill
// from the placed cell for the win, and the repetition count of the
// referee's board counter kept as one Zobrist key per ply. Without a
// capture the stones only grow, so no board can repeat: the history is
// scanned only once a capture has happened.
type Cachex struct {
	board    [cachexCells]int8 // r*n+q: 0 empty, 1 red, 2 blue
	history  [cachexMaxPly + 1]uint64
	key      uint64
	n        int16
	t        int16
	empty    int16
	repeat   int16
	captured bool
	over     bool
	win      int8
}

const (
	cachexMax    = 15 // the largest board side
	cachexCells  = cachexMax * cachexMax
	cachexMaxPly = 343
	cachexSteal  = 1 << 16 // the STEAL move; PLACE r q is r*n+q
)

// cachexZobrist is a key per cell and colour, made once from a fixed seed.
var cachexZobrist = func() (z [cachexCells][3]uint64) {
	r := rand.New(rand.NewPCG(424, 30024))
	for i := range z {
		z[i][1], z[i][2] = r.Uint64(), r.Uint64()
	}
	return z
}()

// NewCachex returns the empty n×n board.
func NewCachex(n int) *Cachex {
	return &Cachex{n: int16(n), empty: int16(n * n), repeat: 1, win: -1}
}

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

func (c *Cachex) in(r, q int) bool { n := int(c.n); return r >= 0 && r < n && q >= 0 && q < n }

// banned is the centre of an odd board on the first action, else -1.
func (c *Cachex) banned() int {
	if c.t == 0 && c.n%2 == 1 {
		return int(c.n/2*c.n + c.n/2)
	}
	return -1
}

// Legal lists the empty cells row-major (not the banned centre), then
// STEAL on the second action.
func (c *Cachex) Legal(dst []int) []int {
	if c.over {
		return dst
	}
	banned := c.banned()
	for i := 0; i < int(c.n*c.n); i++ {
		if c.board[i] == 0 && i != banned {
			dst = append(dst, i)
		}
	}
	if c.t == 1 {
		dst = append(dst, cachexSteal)
	}
	return dst
}

// RandomMove draws an empty cell (not the banned centre) or STEAL
// uniformly: the counts are kept, so only the walk to the k-th cell scans.
func (c *Cachex) RandomMove(r *rand.Rand) int {
	banned := c.banned()
	n := int(c.empty)
	if banned >= 0 {
		n--
	}
	if c.t == 1 {
		n++
	}
	k := r.IntN(n)
	for i := 0; i < int(c.n*c.n); i++ {
		if c.board[i] == 0 && i != banned {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return cachexSteal
}

func (c *Cachex) put(i int, v int8) {
	c.key ^= cachexZobrist[i][c.board[i]] ^ cachexZobrist[i][v]
	if c.board[i] == 0 {
		c.empty--
	}
	if v == 0 {
		c.empty++
	}
	c.board[i] = v
}

// Play applies the action and judges win, repetition and turn limit.
func (c *Cachex) Play(m int) {
	me := int8(c.t%2 + 1)
	placed := m != cachexSteal
	if placed {
		c.place(m, me)
	} else {
		c.steal()
	}
	c.t++
	c.history[c.t] = c.key
	c.repeat = 1
	if c.captured {
		for i := int16(0); i < c.t; i++ {
			if c.history[i] == c.key {
				c.repeat++
			}
		}
	}
	switch {
	case placed && c.t >= 2*c.n-1 && c.connected(m):
		c.over, c.win = true, me-1
	case c.repeat >= 7:
		c.over = true
	case c.t >= cachexMaxPly:
		c.over = true
	}
}

// place puts a stone and removes the pairs it captures.
func (c *Cachex) place(m int, me int8) {
	n := int(c.n)
	r, q := m/n, m%n
	c.put(m, me)
	var pairs [24]int
	k := 0
	for _, p := range cachexPatterns {
		or, oq := r+p[0][0], q+p[0][1]
		ar, aq := r+p[1][0], q+p[1][1]
		br, bq := r+p[2][0], q+p[2][1]
		if !c.in(or, oq) || !c.in(ar, aq) || !c.in(br, bq) {
			continue
		}
		if c.board[or*n+oq] == me && c.board[ar*n+aq] == 3-me && c.board[br*n+bq] == 3-me {
			pairs[k], pairs[k+1] = ar*n+aq, br*n+bq
			k += 2
		}
	}
	for _, i := range pairs[:k] {
		if c.board[i] != 0 {
			c.put(i, 0)
		}
	}
	if k > 0 {
		c.captured = true
	}
}

// steal mirrors the board across its diagonal and swaps the colours.
func (c *Cachex) steal() {
	n := int(c.n)
	old := c.board
	for i := 0; i < n*n; i++ {
		c.put(i, 0)
	}
	for i := 0; i < n*n; i++ {
		if v := old[i]; v != 0 {
			c.put(i%n*n+i/n, 3-v)
		}
	}
}

// connected flood-fills the placed stone's group and checks both edges.
func (c *Cachex) connected(start int) bool {
	n := int(c.n)
	me := c.board[start]
	var seen [cachexCells]bool
	var stack [cachexCells]int16
	stack[0], seen[start] = int16(start), true
	top := 1
	low, high := false, false
	for top > 0 {
		top--
		v := int(stack[top])
		vr, vq := v/n, v%n
		axis := vr
		if me == 2 {
			axis = vq
		}
		low = low || axis == 0
		high = high || axis == n-1
		for _, s := range cachexSteps {
			nr, nq := vr+s[0], vq+s[1]
			if c.in(nr, nq) && c.board[nr*n+nq] == me && !seen[nr*n+nq] {
				seen[nr*n+nq] = true
				stack[top] = int16(nr*n + nq)
				top++
			}
		}
	}
	return low && high
}

// PlayoutListing plays a copy of c to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (c Cachex) PlayoutListing(r *rand.Rand) int {
	var buf [cachexCells + 1]int
	n := 0
	for ; !c.over; n++ {
		moves := c.Legal(buf[:0])
		c.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// PlayoutDraw plays a copy of c to the end by direct draws.
func (c Cachex) PlayoutDraw(r *rand.Rand) int {
	n := 0
	for ; !c.over; n++ {
		c.Play(c.RandomMove(r))
	}
	return n
}

// Over reports the end of the game.
func (c *Cachex) Over() bool { return c.over }

// Winner is the winning seat or -1 for a draw.
func (c *Cachex) Winner() int { return int(c.win) }

// ToMove is red (0) at even t.
func (c *Cachex) ToMove() int { return int(c.t % 2) }

// Ply is the number of actions applied.
func (c *Cachex) Ply() int { return int(c.t) }

// Repeat is how often the current board has occurred.
func (c *Cachex) Repeat() int { return int(c.repeat) }

// Text is the rows joined by '/'.
func (c *Cachex) Text() string {
	var sb strings.Builder
	n := int(c.n)
	for i := 0; i < n*n; i++ {
		if i > 0 && i%n == 0 {
			sb.WriteByte('/')
		}
		sb.WriteByte(".rb"[c.board[i]])
	}
	return sb.String()
}

// MoveText writes "PLACE r q" or "STEAL".
func (c *Cachex) MoveText(m int) string {
	if m == cachexSteal {
		return "STEAL"
	}
	return fmt.Sprintf("PLACE %d %d", m/int(c.n), m%int(c.n))
}
