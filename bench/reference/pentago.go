package reference

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Pentago is Pentago-Twist as the COMP 424 (2021) framework played it,
// on two 36-bit bitboards (bit x*6+y): place, twist a quadrant through a
// 512-entry table of its nine bits, then test the 32 five-in-a-row masks.
// A move is cell*8 + a*2 + b: cell x*6+y, quadrant a, twist b (0 rotate,
// 1 flip).
type Pentago struct {
	stones [2]uint64 // white, black
	turn   int8      // moves played
	over   bool
	win    int8
}

// NewPentago returns the empty board, White to move.
func NewPentago() *Pentago { return &Pentago{win: -1} }

// pentagoTables are computed once: the five-in-a-row masks, and each
// quadrant twist of nine bits (bit r*3+c) as a table.
type pentagoTables struct {
	fives       [32]uint64
	rotate      [512]uint16 // clockwise: (r, c) -> (c, 2-r)
	flip        [512]uint16 // left-right: (r, c) -> (r, 2-c)
	quadrantLow [4]uint     // bit of each quadrant's top-left cell
}

var pentagoT = func() (t pentagoTables) {
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	k := 0
	for _, d := range dirs {
		for x := 0; x < 6; x++ {
			for y := 0; y < 6; y++ {
				ex, ey := x+4*d[0], y+4*d[1]
				if ex < 0 || ex >= 6 || ey < 0 || ey >= 6 {
					continue
				}
				for i := 0; i < 5; i++ {
					t.fives[k] |= 1 << ((x+i*d[0])*6 + y + i*d[1])
				}
				k++
			}
		}
	}
	for v := 0; v < 512; v++ {
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				if v>>(r*3+c)&1 != 0 {
					t.rotate[v] |= 1 << (c*3 + 2 - r)
					t.flip[v] |= 1 << (r*3 + 2 - c)
				}
			}
		}
	}
	for a := 0; a < 4; a++ {
		t.quadrantLow[a] = uint(3*(a/2)*6 + 3*(a%2))
	}
	return t
}()

// twist applies quadrant a's rotation (b 0) or flip (b 1) to one bitboard.
func pentagoTwist(bb uint64, a, b int) uint64 {
	lo := pentagoT.quadrantLow[a]
	v := bb>>lo&7 | (bb>>(lo+6)&7)<<3 | (bb>>(lo+12)&7)<<6
	var w uint64
	if b == 0 {
		w = uint64(pentagoT.rotate[v])
	} else {
		w = uint64(pentagoT.flip[v])
	}
	clear := ^(uint64(7)<<lo | uint64(7)<<(lo+6) | uint64(7)<<(lo+12))
	return bb&clear | (w&7)<<lo | (w>>3&7)<<(lo+6) | (w>>6&7)<<(lo+12)
}

func pentagoFive(bb uint64) bool {
	for _, m := range pentagoT.fives {
		if bb&m == m {
			return true
		}
	}
	return false
}

const pentagoFull = 1<<36 - 1

// Legal lists every empty cell's eight (a, b) tuples, in (x, y, a, b) order.
func (p *Pentago) Legal(dst []int) []int {
	if p.over {
		return dst
	}
	for empty := ^(p.stones[0] | p.stones[1]) & pentagoFull; empty != 0; empty &= empty - 1 {
		m := bits.TrailingZeros64(empty) * 8
		dst = append(dst, m, m+1, m+2, m+3, m+4, m+5, m+6, m+7)
	}
	return dst
}

// RandomMove draws an empty cell and one of its eight twists uniformly.
func (p *Pentago) RandomMove(r *rand.Rand) int {
	empty := ^(p.stones[0] | p.stones[1]) & pentagoFull
	k := r.IntN(8 * bits.OnesCount64(empty))
	for i := k / 8; i > 0; i-- {
		empty &= empty - 1
	}
	return bits.TrailingZeros64(empty)*8 + k%8
}

// Play places, twists and judges the board.
func (p *Pentago) Play(m int) {
	b, a, cell := m&1, m>>1&3, m>>3
	me := p.turn & 1
	p.stones[me] |= 1 << cell
	p.stones[0] = pentagoTwist(p.stones[0], a, b)
	p.stones[1] = pentagoTwist(p.stones[1], a, b)
	p.turn++
	mine, theirs := pentagoFive(p.stones[me]), pentagoFive(p.stones[1-me])
	switch {
	case mine && theirs:
		p.over, p.win = true, -1
	case mine:
		p.over, p.win = true, me
	case theirs:
		p.over, p.win = true, 1-me
	case p.turn >= 36:
		p.over, p.win = true, -1
	}
}

// PlayoutListing plays a copy of p to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (p Pentago) PlayoutListing(r *rand.Rand) int {
	var buf [288]int
	n := 0
	for ; !p.over; n++ {
		moves := p.Legal(buf[:0])
		p.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// PlayoutDraw plays a copy of p to the end by direct draws.
func (p Pentago) PlayoutDraw(r *rand.Rand) int {
	n := 0
	for ; !p.over; n++ {
		p.Play(p.RandomMove(r))
	}
	return n
}

// Over reports the end of the game.
func (p *Pentago) Over() bool { return p.over }

// Winner is the winning seat or -1.
func (p *Pentago) Winner() int { return int(p.win) }

// ToMove is White on even turns.
func (p *Pentago) ToMove() int { return int(p.turn & 1) }

// Text is 36 characters row-major.
func (p *Pentago) Text() string {
	buf := make([]byte, 36)
	for i := range buf {
		switch {
		case p.stones[0]>>i&1 != 0:
			buf[i] = 'w'
		case p.stones[1]>>i&1 != 0:
			buf[i] = 'b'
		default:
			buf[i] = '.'
		}
	}
	return string(buf)
}

// MoveText writes "x y a b p".
func (p *Pentago) MoveText(m int) string {
	b, a, cell := m&1, m>>1&3, m>>3
	return fmt.Sprintf("%d %d %d %d %d", cell/6, cell%6, a, b, p.turn&1)
}
