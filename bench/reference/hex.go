package reference

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Hex is hex cross-out (NYCU 2023) on a flat 12×12 array (cell x*12+y):
// -1 obstacle, 0 free, 1 or 2 crossed out by seat 0 or 1. A move crosses
// out 1 to 3 free cells in a line; the player who crosses out the last
// cell loses. Each cell's neighbour in each direction is a table made once.
type Hex struct {
	board  [144]int8
	player int8
	free   int16
	over   bool
	win    int8
}

// hexNext[cell][dir-1] is the neighbour in direction dir, or -1 off the board.
var hexNext = func() (t [144][6]int16) {
	deltas := [2][6][2]int{
		{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}},
		{{0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}},
	}
	for x := 0; x < 12; x++ {
		for y := 0; y < 12; y++ {
			for d, s := range deltas[y&1] {
				nx, ny := x+s[0], y+s[1]
				t[x*12+y][d] = -1
				if nx >= 0 && nx < 12 && ny >= 0 && ny < 12 {
					t[x*12+y][d] = int16(nx*12 + ny)
				}
			}
		}
	}
	return t
}()

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
				h.board[x*12+y] = -1
			}
		}
	}
	return h, nil
}

// A move is the canonical tuple packed as cell | l<<8 | dir<<10.
func hexMove(cell, l, dir int) int { return cell | l<<8 | dir<<10 }

// freeNext is the free neighbour of cell in direction dir, or -1.
func (h *Hex) freeNext(cell, dir int) int {
	n := int(hexNext[cell][dir-1])
	if n < 0 || h.board[n] != 0 {
		return -1
	}
	return n
}

// Legal lists every distinct cell set once, as its canonical tuple in
// ascending (x, y, l, dir): the single cell (l = 1, dir = 1), then the
// lines of 2 and 3 written from their smaller end.
func (h *Hex) Legal(dst []int) []int {
	if h.over {
		return dst
	}
	for cell := 0; cell < 144; cell++ {
		if h.board[cell] != 0 {
			continue
		}
		dst = append(dst, hexMove(cell, 1, 1))
		var second [6]int
		for dir := 1; dir <= 6; dir++ {
			second[dir-1] = h.freeNext(cell, dir)
			if second[dir-1] > cell {
				dst = append(dst, hexMove(cell, 2, dir))
			}
		}
		for dir := 1; dir <= 6; dir++ {
			if s := second[dir-1]; s >= 0 {
				if third := h.freeNext(s, dir); third > cell {
					dst = append(dst, hexMove(cell, 3, dir))
				}
			}
		}
	}
	return dst
}

// Play crosses out the move's cells.
func (h *Hex) Play(m int) {
	cell, l, dir := m&0xff, m>>8&3, m>>10&7
	for k := 0; k < l; k++ {
		h.board[cell] = h.player + 1
		if k+1 < l {
			cell = int(hexNext[cell][dir-1])
		}
	}
	h.free -= int16(l)
	if h.free == 0 {
		h.over, h.win = true, 1-h.player
	}
	h.player = 1 - h.player
}

// PlayoutListing plays a copy of h to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (h Hex) PlayoutListing(r *rand.Rand) int {
	var buf [144 * 7]int
	n := 0
	for ; !h.over; n++ {
		moves := h.Legal(buf[:0])
		h.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// Over reports whether every free cell is crossed out.
func (h *Hex) Over() bool { return h.over }

// Winner is the player who did not take the last cell.
func (h *Hex) Winner() int { return int(h.win) }

// ToMove is the player to move.
func (h *Hex) ToMove() int { return int(h.player) }

// Text is rows y joined by '/', cells x as '#', '.', '1' or '2'.
func (h *Hex) Text() string {
	var sb strings.Builder
	for y := 0; y < 12; y++ {
		if y > 0 {
			sb.WriteByte('/')
		}
		for x := 0; x < 12; x++ {
			switch v := h.board[x*12+y]; v {
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
