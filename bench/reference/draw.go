package reference

import "math/rand/v2"

// RandomMove draws a pit or SKIP uniformly.
func (b *Bohnenspiel) RandomMove(r *rand.Rand) int {
	var moves [7]int
	return pick(r, b.Legal(moves[:0]))
}

func pick(r *rand.Rand, moves []int) int { return moves[r.IntN(len(moves))] }

// RandomMove draws an empty cell and one of its eight twists uniformly.
func (p *Pentago) RandomMove(r *rand.Rand) int {
	empty := 0
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			if p.board[x][y] == 0 {
				empty++
			}
		}
	}
	k := r.IntN(8 * empty)
	cell, twist := k/8, k%8
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			if p.board[x][y] != 0 {
				continue
			}
			if cell == 0 {
				return pentagoMove(x, y, twist/2, twist%2)
			}
			cell--
		}
	}
	panic("reference: pentago empty-cell count changed")
}

// RandomMove draws an undrawn line uniformly.
func (d *Dots) RandomMove(r *rand.Rand) int {
	k := r.IntN(d.left)
	for a := 0; a < d.rows; a++ {
		for b := 0; b < d.cols; b++ {
			if b+1 < d.cols && d.right[a][b] < 0 {
				if k == 0 {
					return (a*d.cols + b) * 2
				}
				k--
			}
			if a+1 < d.rows && d.down[a][b] < 0 {
				if k == 0 {
					return (a*d.cols+b)*2 + 1
				}
				k--
			}
		}
	}
	panic("reference: dots undrawn-line count changed")
}

// RandomMove draws an empty cell (not the banned centre) or STEAL
// uniformly.
func (c *Cachex) RandomMove(r *rand.Rand) int {
	banned := -1
	if c.t == 0 && c.n%2 == 1 {
		banned = c.n/2*c.n + c.n/2
	}
	n := 0
	for i := 0; i < c.n*c.n; i++ {
		if c.board[i/c.n][i%c.n] == 0 && i != banned {
			n++
		}
	}
	if c.t == 1 {
		n++
	}
	k := r.IntN(n)
	for i := 0; i < c.n*c.n; i++ {
		if c.board[i/c.n][i%c.n] == 0 && i != banned {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return cachexSteal
}
