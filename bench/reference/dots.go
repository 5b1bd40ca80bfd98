package reference

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Dots is Dots-and-Boxes on rows × cols dots with the lines as bit sets:
// line (a*cols+b)*2 runs right from dot (a, b), line (a*cols+b)*2+1 down
// from it, so ascending bits are the course's grid order. A box is
// complete when its four line bits are drawn; nothing else is kept.
type Dots struct {
	undrawn    dotsLines // lines still to draw
	byOne      dotsLines // lines drawn by seat 1
	ownedOne   dotsLines // boxes (bit x*cols+y) completed by seat 1
	ownedAny   dotsLines // boxes completed by anyone
	rows, cols int16
	left       int16
	score      [2]int16
	player     int8
}

// dotsLines holds a bit per line of the largest board (12×12 dots: line
// numbers below 2*144).
type dotsLines [5]uint64

func (s *dotsLines) has(i int) bool { return s[i>>6]>>(i&63)&1 != 0 }
func (s *dotsLines) set(i int)      { s[i>>6] |= 1 << (i & 63) }
func (s *dotsLines) unset(i int)    { s[i>>6] &^= 1 << (i & 63) }

// NewDots returns the empty board.
func NewDots(rows, cols int) *Dots {
	d := &Dots{rows: int16(rows), cols: int16(cols)}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols {
				d.undrawn.set((a*cols + b) * 2)
			}
			if a+1 < rows {
				d.undrawn.set((a*cols+b)*2 + 1)
			}
		}
	}
	d.left = int16(rows*(cols-1) + (rows-1)*cols)
	return d
}

// Legal lists the undrawn lines in grid order.
func (d *Dots) Legal(dst []int) []int {
	for w, word := range d.undrawn {
		for ; word != 0; word &= word - 1 {
			dst = append(dst, w*64+bits.TrailingZeros64(word))
		}
	}
	return dst
}

// RandomMove draws an undrawn line uniformly: the k-th set bit.
func (d *Dots) RandomMove(r *rand.Rand) int {
	k := r.IntN(int(d.left))
	for w, word := range d.undrawn {
		c := bits.OnesCount64(word)
		if k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1
		}
		return w*64 + bits.TrailingZeros64(word)
	}
	panic("reference: dots undrawn-line count changed")
}

// Play draws the line, scores completed boxes, passes the turn if none.
func (d *Dots) Play(m int) {
	d.undrawn.unset(m)
	if d.player == 1 {
		d.byOne.set(m)
	}
	d.left--
	cols := int(d.cols)
	a, b := m/2/cols, m/2%cols
	// The boxes beside the line: above and below a horizontal one, left
	// and right of a vertical one.
	done := false
	if m&1 == 0 {
		done = d.claim(a-1, b) || done
		done = d.claim(a, b) || done
	} else {
		done = d.claim(a, b-1) || done
		done = d.claim(a, b) || done
	}
	if !done {
		d.player = 1 - d.player
	}
}

// claim gives box (x, y), if it exists and has all four sides, to the
// player to move, and reports whether it did.
func (d *Dots) claim(x, y int) bool {
	cols := int(d.cols)
	if x < 0 || y < 0 || x >= int(d.rows)-1 || y >= cols-1 {
		return false
	}
	top := (x*cols + y) * 2
	if d.undrawn.has(top) || d.undrawn.has(top+2*cols) || d.undrawn.has(top+1) || d.undrawn.has(top+3) {
		return false
	}
	box := x*cols + y
	d.ownedAny.set(box)
	if d.player == 1 {
		d.ownedOne.set(box)
	}
	d.score[d.player]++
	return true
}

// PlayoutListing plays a copy of d to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (d Dots) PlayoutListing(r *rand.Rand) int {
	var buf [264]int
	n := 0
	for ; d.left > 0; n++ {
		moves := d.Legal(buf[:0])
		d.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// PlayoutDraw plays a copy of d to the end by direct draws.
func (d Dots) PlayoutDraw(r *rand.Rand) int {
	n := 0
	for ; d.left > 0; n++ {
		d.Play(d.RandomMove(r))
	}
	return n
}

// Over reports whether every line is drawn.
func (d *Dots) Over() bool { return d.left == 0 }

// Winner compares the box counts.
func (d *Dots) Winner() int { return dotsWinner(int(d.score[0]), int(d.score[1])) }

// dotsWinner is the seat with more boxes, -1 for a draw.
func dotsWinner(zero, one int) int {
	switch {
	case zero > one:
		return 0
	case one > zero:
		return 1
	}
	return -1
}

// ToMove is the player to move.
func (d *Dots) ToMove() int { return int(d.player) }

// Scores are the boxes each seat completed.
func (d *Dots) Scores() [2]int { return [2]int{int(d.score[0]), int(d.score[1])} }

// Text is each line's drawer in grid order, '/', each box's owner.
func (d *Dots) Text() string {
	return dotsText(int(d.rows), int(d.cols), func(i int) bool { return !d.undrawn.has(i) },
		d.byOne.has, d.ownedAny.has, d.ownedOne.has)
}

// dotsText writes the board text of both Dots types from their sets in
// the grid numbering (lines) and x*cols+y (boxes).
func dotsText(rows, cols int, drawn, byOne, ownedAny, ownedOne func(int) bool) string {
	var buf []byte
	mark := func(drawn bool, one bool) byte {
		switch {
		case !drawn:
			return '.'
		case one:
			return '1'
		}
		return '0'
	}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			i := (a*cols + b) * 2
			if b+1 < cols {
				buf = append(buf, mark(drawn(i), byOne(i)))
			}
			if a+1 < rows {
				buf = append(buf, mark(drawn(i+1), byOne(i+1)))
			}
		}
	}
	buf = append(buf, '/')
	for x := 0; x < rows-1; x++ {
		for y := 0; y < cols-1; y++ {
			box := x*cols + y
			buf = append(buf, mark(ownedAny(box), ownedOne(box)))
		}
	}
	return string(buf)
}

// MoveText writes "[[a,b],[c,d]]".
func (d *Dots) MoveText(m int) string { return dotsMoveText(int(d.cols), m) }

// dotsMoveText writes line m of the grid numbering as "[[a,b],[c,d]]".
func dotsMoveText(cols, m int) string {
	a, b := m/2/cols, m/2%cols
	if m&1 == 0 {
		return fmt.Sprintf("[[%d,%d],[%d,%d]]", a, b, a, b+1)
	}
	return fmt.Sprintf("[[%d,%d],[%d,%d]]", a, b, a+1, b)
}
