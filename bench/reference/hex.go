package reference

import (
	"fmt"
	"strings"
)

// Hex is hex cross-out (NYCU 2023) on a 12×12 array: -1 obstacle, 0
// free, 1 or 2 crossed out by seat 0 or 1. A move crosses out 1 to 3
// free cells in a line; the player who crosses out the last cell loses.
type Hex struct {
	board  [12][12]int // board[x][y]
	player int
	free   int
	over   bool
	win    int
}

// NewHex reads a start board: 12 rows (y) of 12 '#' or '.' (x) joined by '/'.
func NewHex(text string) (*Hex, error) {
	rows := strings.Split(text, "/")
	if len(rows) != 12 {
		return nil, fmt.Errorf("hex board: %d rows, want 12", len(rows))
	}
	h := &Hex{win: -1}
	for y, row := range rows {
		if len(row) != 12 {
			return nil, fmt.Errorf("hex board: row %d has %d cells, want 12", y, len(row))
		}
		for x := 0; x < 12; x++ {
			if row[x] == '.' {
				h.free++
			} else {
				h.board[x][y] = -1
			}
		}
	}
	return h, nil
}

// hexDeltas are directions 1..6 for even and odd rows y.
var hexDeltas = [2][6][2]int{
	{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}},
	{{0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}},
}

// walk returns the cell k steps from (x, y) in direction dir (1..6), or
// ok false when it leaves the board.
func hexWalk(x, y, k, dir int) (int, int, bool) {
	for ; k > 0; k-- {
		d := hexDeltas[y&1][dir-1]
		x, y = x+d[0], y+d[1]
		if x < 0 || x >= 12 || y < 0 || y >= 12 {
			return 0, 0, false
		}
	}
	return x, y, true
}

// A move is the canonical tuple packed as cell | l<<8 | dir<<10, cell = x*12+y.
func hexMove(x, y, l, dir int) int { return x*12 + y | l<<8 | dir<<10 }

// Legal lists every distinct cell set once, as its canonical tuple in
// ascending (x, y, l, dir): the single cell (l = 1, dir = 1), then the
// lines of 2 and 3 written from their smaller end.
func (h *Hex) Legal(dst []int) []int {
	if h.over {
		return dst
	}
	for x := 0; x < 12; x++ {
		for y := 0; y < 12; y++ {
			if h.board[x][y] != 0 {
				continue
			}
			dst = append(dst, hexMove(x, y, 1, 1))
			for l := 2; l <= 3; l++ {
				for dir := 1; dir <= 6; dir++ {
					ok := true
					ex, ey := x, y
					for k := 1; k < l && ok; k++ {
						ex, ey, ok = hexWalk(x, y, k, dir)
						ok = ok && h.board[ex][ey] == 0
					}
					if ok && ex*12+ey > x*12+y {
						dst = append(dst, hexMove(x, y, l, dir))
					}
				}
			}
		}
	}
	return dst
}

// Play crosses out the move's cells.
func (h *Hex) Play(m int) {
	cell, l, dir := m&0xff, m>>8&3, m>>10&7
	x, y := cell/12, cell%12
	for k := 0; k < l; k++ {
		cx, cy, _ := hexWalk(x, y, k, dir)
		h.board[cx][cy] = h.player + 1
	}
	h.free -= l
	if h.free == 0 {
		h.over, h.win = true, 1-h.player
	}
	h.player = 1 - h.player
}

// Over reports whether every free cell is crossed out.
func (h *Hex) Over() bool { return h.over }

// Winner is the player who did not take the last cell.
func (h *Hex) Winner() int { return h.win }

// ToMove is the player to move.
func (h *Hex) ToMove() int { return h.player }

// Text is rows y joined by '/', cells x as '#', '.', '1' or '2'.
func (h *Hex) Text() string {
	var sb strings.Builder
	for y := 0; y < 12; y++ {
		if y > 0 {
			sb.WriteByte('/')
		}
		for x := 0; x < 12; x++ {
			switch v := h.board[x][y]; v {
			case -1:
				sb.WriteByte('#')
			case 0:
				sb.WriteByte('.')
			default:
				sb.WriteByte(byte('0' + v))
			}
		}
	}
	return sb.String()
}

// MoveText writes "x,y,l,dir".
func (h *Hex) MoveText(m int) string {
	cell, l, dir := m&0xff, m>>8&3, m>>10&7
	return fmt.Sprintf("%d,%d,%d,%d", cell/12, cell%12, l, dir)
}

// Copy returns an independent copy.
func (h *Hex) Copy() Game {
	c := *h
	return &c
}
