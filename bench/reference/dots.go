package reference

import "fmt"

// Dots is Dots-and-Boxes on rows × cols dots: a 2-D array of horizontal
// lines, one of vertical lines and one of box owners.
type Dots struct {
	rows, cols int
	right      [dotsMax][dotsMax]int8 // right[a][b]: line [a,b]-[a,b+1]; -1 undrawn, else the seat
	down       [dotsMax][dotsMax]int8 // down[a][b]: line [a,b]-[a+1,b]
	owner      [dotsMax][dotsMax]int8 // owner[x][y] of box (x, y), -1 open
	score      [2]int
	player     int
	left       int
}

// NewDots returns the empty board.
func NewDots(rows, cols int) *Dots {
	d := &Dots{rows: rows, cols: cols}
	for a := range d.right {
		for b := range d.right[a] {
			d.right[a][b], d.down[a][b], d.owner[a][b] = -1, -1, -1
		}
	}
	d.left = rows*(cols-1) + (rows-1)*cols
	return d
}

// dotsMax is the largest board, in dots per side.
const dotsMax = 12

// A move is (a*cols+b)*2 + 0 for the line to the right, + 1 for down.

// Legal lists the undrawn lines in grid order: from each dot row-major,
// the line to the right before the line down.
func (d *Dots) Legal(dst []int) []int {
	for a := 0; a < d.rows; a++ {
		for b := 0; b < d.cols; b++ {
			if b+1 < d.cols && d.right[a][b] < 0 {
				dst = append(dst, (a*d.cols+b)*2)
			}
			if a+1 < d.rows && d.down[a][b] < 0 {
				dst = append(dst, (a*d.cols+b)*2+1)
			}
		}
	}
	return dst
}

// Play draws the line, scores completed boxes, passes the turn if none.
func (d *Dots) Play(m int) {
	a, b := m/2/d.cols, m/2%d.cols
	if m%2 == 0 {
		d.right[a][b] = int8(d.player)
	} else {
		d.down[a][b] = int8(d.player)
	}
	d.left--
	// The boxes beside the line: above and below a horizontal one, left
	// and right of a vertical one.
	done := false
	if m%2 == 0 {
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
	if x < 0 || y < 0 || x >= d.rows-1 || y >= d.cols-1 {
		return false
	}
	if d.right[x][y] >= 0 && d.right[x+1][y] >= 0 && d.down[x][y] >= 0 && d.down[x][y+1] >= 0 {
		d.owner[x][y] = int8(d.player)
		d.score[d.player]++
		return true
	}
	return false
}

// Over reports whether every line is drawn.
func (d *Dots) Over() bool { return d.left == 0 }

// Winner compares the box counts.
func (d *Dots) Winner() int {
	switch {
	case d.score[0] > d.score[1]:
		return 0
	case d.score[1] > d.score[0]:
		return 1
	}
	return -1
}

// ToMove is the player to move.
func (d *Dots) ToMove() int { return d.player }

// Scores are the boxes each seat completed.
func (d *Dots) Scores() [2]int { return d.score }

// Text is each line's drawer in grid order, '/', each box's owner.
func (d *Dots) Text() string {
	var buf []byte
	ch := func(v int8) byte {
		if v < 0 {
			return '.'
		}
		return byte('0' + v)
	}
	for a := 0; a < d.rows; a++ {
		for b := 0; b < d.cols; b++ {
			if b+1 < d.cols {
				buf = append(buf, ch(d.right[a][b]))
			}
			if a+1 < d.rows {
				buf = append(buf, ch(d.down[a][b]))
			}
		}
	}
	buf = append(buf, '/')
	for x := 0; x < d.rows-1; x++ {
		for y := 0; y < d.cols-1; y++ {
			buf = append(buf, ch(d.owner[x][y]))
		}
	}
	return string(buf)
}

// MoveText writes "[[a,b],[c,d]]".
func (d *Dots) MoveText(m int) string {
	a, b := m/2/d.cols, m/2%d.cols
	if m%2 == 0 {
		return fmt.Sprintf("[[%d,%d],[%d,%d]]", a, b, a, b+1)
	}
	return fmt.Sprintf("[[%d,%d],[%d,%d]]", a, b, a+1, b)
}

// Copy returns an independent copy.
func (d *Dots) Copy() Game {
	c := *d
	return &c
}
