package reference

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Dots64 is Dots-and-Boxes on a board whose lines, in Dots' grid
// numbering, fit one word (2·rows·cols ≤ 64: the course's 5×5 among
// them), as a plain implementation for that board is written: every set
// a uint64, and per line the side masks of the boxes beside it, so a box
// is complete when its mask has no undrawn bit left.
type Dots64 struct {
	t                  *dots64Lines
	undrawn            uint64 // lines still to draw
	byOne              uint64 // lines drawn by seat 1
	ownedAny, ownedOne uint64 // boxes (bit x*cols+y) completed by anyone, by seat 1
	left               int
	score              [2]int
	player             int
}

// dots64Lines is the board's geometry, built once by NewDots64 and shared
// read-only by every copy.
type dots64Lines struct {
	rows, cols int
	beside     [64][2]dots64Box // the boxes beside each line
}

// dots64Box is one box beside a line: the mask of its four sides (0 where
// the line has no box on that side) and its own bit.
type dots64Box struct{ sides, bit uint64 }

// NewDots64 returns the empty board; 2·rows·cols must not exceed 64.
func NewDots64(rows, cols int) *Dots64 {
	if 2*rows*cols > 64 {
		panic(fmt.Sprintf("reference: %d×%d dots do not fit one word", rows, cols))
	}
	t := &dots64Lines{rows: rows, cols: cols}
	d := &Dots64{t: t, left: rows*(cols-1) + (rows-1)*cols}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols {
				d.undrawn |= 1 << ((a*cols + b) * 2)
			}
			if a+1 < rows {
				d.undrawn |= 1 << ((a*cols+b)*2 + 1)
			}
		}
	}
	for x := 0; x+1 < rows; x++ {
		for y := 0; y+1 < cols; y++ {
			top := (x*cols + y) * 2
			box := dots64Box{sides: 1<<top | 1<<(top+1) | 1<<(top+3) | 1<<(top+2*cols), bit: 1 << (x*cols + y)}
			// Top and left sides have the box as their second neighbour
			// (below, right of them), bottom and right as their first.
			t.beside[top][1], t.beside[top+1][1] = box, box
			t.beside[top+2*cols][0], t.beside[top+3][0] = box, box
		}
	}
	return d
}

// Legal lists the undrawn lines in grid order.
func (d *Dots64) Legal(dst []int) []int {
	for u := d.undrawn; u != 0; u &= u - 1 {
		dst = append(dst, bits.TrailingZeros64(u))
	}
	return dst
}

// RandomMove draws an undrawn line uniformly: the k-th set bit.
func (d *Dots64) RandomMove(r *rand.Rand) int {
	u := d.undrawn
	for k := r.IntN(d.left); k > 0; k-- {
		u &= u - 1
	}
	return bits.TrailingZeros64(u)
}

// Play draws the line, scores completed boxes, passes the turn if none.
func (d *Dots64) Play(m int) {
	bit := uint64(1) << m
	d.undrawn &^= bit
	if d.player == 1 {
		d.byOne |= bit
	}
	d.left--
	done := false
	for j := range 2 {
		b := &d.t.beside[m][j]
		if b.sides != 0 && d.undrawn&b.sides == 0 {
			d.ownedAny |= b.bit
			if d.player == 1 {
				d.ownedOne |= b.bit
			}
			d.score[d.player]++
			done = true
		}
	}
	if !done {
		d.player ^= 1
	}
}

// PlayoutListing plays a copy of d to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (d Dots64) PlayoutListing(r *rand.Rand) int {
	var buf [64]int
	n := 0
	for ; d.left > 0; n++ {
		moves := d.Legal(buf[:0])
		d.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// PlayoutDraw plays a copy of d to the end by direct draws.
func (d Dots64) PlayoutDraw(r *rand.Rand) int {
	n := 0
	for ; d.left > 0; n++ {
		d.Play(d.RandomMove(r))
	}
	return n
}

// Over reports whether every line is drawn.
func (d *Dots64) Over() bool { return d.left == 0 }

// Winner compares the box counts.
func (d *Dots64) Winner() int { return dotsWinner(d.score[0], d.score[1]) }

// ToMove is the player to move.
func (d *Dots64) ToMove() int { return d.player }

// Scores are the boxes each seat completed.
func (d *Dots64) Scores() [2]int { return d.score }

// Text is each line's drawer in grid order, '/', each box's owner.
func (d *Dots64) Text() string {
	has := func(set uint64) func(int) bool {
		return func(i int) bool { return set>>i&1 != 0 }
	}
	return dotsText(d.t.rows, d.t.cols, has(^d.undrawn), has(d.byOne), has(d.ownedAny), has(d.ownedOne))
}

// MoveText writes "[[a,b],[c,d]]".
func (d *Dots64) MoveText(m int) string { return dotsMoveText(d.t.cols, m) }
