package reference

import "fmt"

// Pentago is Pentago-Twist as the COMP 424 (2021) framework played it:
// a 6×6 array, place then twist a quadrant, then scan for five in a row.
type Pentago struct {
	board [6][6]int // 0 empty, 1 white, 2 black
	turn  int       // moves played
	over  bool
	win   int
}

// NewPentago returns the empty board, White to move.
func NewPentago() *Pentago { return &Pentago{win: -1} }

// A move is x*16 + y*... packed as ((x*6+y)*4+a)*2+b.
func pentagoMove(x, y, a, b int) int { return ((x*6+y)*4+a)*2 + b }

// Legal lists every empty cell's eight (a, b) tuples, in (x, y, a, b) order.
func (p *Pentago) Legal(dst []int) []int {
	if p.over {
		return dst
	}
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			if p.board[x][y] == 0 {
				for a := 0; a < 4; a++ {
					for b := 0; b < 2; b++ {
						dst = append(dst, pentagoMove(x, y, a, b))
					}
				}
			}
		}
	}
	return dst
}

// Play places, twists and judges the board.
func (p *Pentago) Play(m int) {
	b, a, cell := m%2, m/2%4, m/8
	x, y := cell/6, cell%6
	me := p.turn%2 + 1
	p.board[x][y] = me
	r0, c0 := 3*(a/2), 3*(a%2)
	var q [3][3]int
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			q[r][c] = p.board[r0+r][c0+c]
		}
	}
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			if b == 0 {
				p.board[r0+c][c0+2-r] = q[r][c] // clockwise rotation
			} else {
				p.board[r0+r][c0+2-c] = q[r][c] // left-right flip
			}
		}
	}
	p.turn++
	mine, theirs := p.five(me), p.five(3-me)
	switch {
	case mine && theirs:
		p.over, p.win = true, -1
	case mine:
		p.over, p.win = true, me-1
	case theirs:
		p.over, p.win = true, 2-me
	case p.turn >= 36:
		p.over, p.win = true, -1
	}
}

// pentagoSegments lists the 32 segments of five cells as (x, y) pairs,
// computed once.
var pentagoSegments = func() (segs [][5][2]int) {
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for _, d := range dirs {
		for x := 0; x < 6; x++ {
			for y := 0; y < 6; y++ {
				ex, ey := x+4*d[0], y+4*d[1]
				if ex < 0 || ex >= 6 || ey < 0 || ey >= 6 {
					continue
				}
				var seg [5][2]int
				for k := 0; k < 5; k++ {
					seg[k] = [2]int{x + k*d[0], y + k*d[1]}
				}
				segs = append(segs, seg)
			}
		}
	}
	return segs
}()

// five reports whether colour c fills one of the 32 segments.
func (p *Pentago) five(c int) bool {
	for _, seg := range pentagoSegments {
		k := 0
		for k < 5 && p.board[seg[k][0]][seg[k][1]] == c {
			k++
		}
		if k == 5 {
			return true
		}
	}
	return false
}

// Over reports the end of the game.
func (p *Pentago) Over() bool { return p.over }

// Winner is the winning seat or -1.
func (p *Pentago) Winner() int { return p.win }

// ToMove is White on even turns.
func (p *Pentago) ToMove() int { return p.turn % 2 }

// Text is 36 characters row-major.
func (p *Pentago) Text() string {
	buf := make([]byte, 0, 36)
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			buf = append(buf, ".wb"[p.board[x][y]])
		}
	}
	return string(buf)
}

// MoveText writes "x y a b p".
func (p *Pentago) MoveText(m int) string {
	b, a, cell := m%2, m/2%4, m/8
	return fmt.Sprintf("%d %d %d %d %d", cell/6, cell%6, a, b, p.turn%2)
}

// Copy returns an independent copy.
func (p *Pentago) Copy() Game {
	c := *p
	return &c
}
