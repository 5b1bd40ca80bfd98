package hexcrossout

import (
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"arena/engine"
	"arena/games/internal/bitsel"
)

// A move is its canonical tuple: start cell index | l<<8 | dir<<10.
func encode(cell, l, dir int) engine.Move {
	return engine.Move(cell | l<<8 | dir<<10)
}

func decode(m engine.Move) (cell, l, dir int) {
	return int(m & 0xff), int(m>>8) & 3, int(m>>10) & 7
}

// line is one multi-cell move from a cell: its canonical move and cells.
type line struct {
	move  engine.Move
	cells mask
}

// lines[i] are the canonical moves of length 2 and 3 that start at cell i,
// in (l, dir) order: those whose far end has a larger index (a cell set
// is written from its smaller end). Filled once, never changed.
var lines, nlines = func() (t [numCells][12]line, n [numCells]uint8) {
	for i := 0; i < numCells; i++ {
		for l := 2; l <= 3; l++ {
			for d := 1; d <= 6; d++ {
				var m mask
				m.set(i)
				c := i
				for k := 1; k < l && c >= 0; k++ {
					c = int(step[c][d-1])
					if c >= 0 {
						m.set(c)
					}
				}
				if c > i {
					t[i][n[i]] = line{move: encode(i, l, d), cells: m}
					n[i]++
				}
			}
		}
	}
	return t, n
}()

// walk returns the cell l-1 steps from c in direction dir, or -1 when a
// step leaves the board.
func walk(c, l, dir int) int {
	for k := 1; k < l && c >= 0; k++ {
		c = int(step[c][dir-1])
	}
	return c
}

// canonical maps any in-range tuple to the canonical move of its cell
// set; the far end e must be on the board.
func canonical(c, l, dir int) engine.Move {
	if l == 1 {
		return encode(c, 1, 1)
	}
	if e := walk(c, l, dir); e < c {
		return encode(e, l, 7-dir) // opposite directions sum to 7
	}
	return encode(c, l, dir)
}

// zobrist keys for a cell crossed out by seat 0 or 1, and the side to
// move. Filled once, never changed.
var zobrist = func() (z [2][numCells]uint64) {
	x := uint64(0x243f6a8885a308d3)
	for s := range z {
		for i := range z[s] {
			x += 0x9e3779b97f4a7c15
			z[s][i] = mix(x)
		}
	}
	return z
}()

var keySecondToMove = mix(0x13198a2e03707344)

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// State is a hex cross-out position.
type State struct {
	g      *geom             // the start board's line numbering, shared
	live   [lineWords]uint64 // playable lines of 2 and 3, as line ids (see geom)
	free   mask
	owner  [numCells]uint8 // 1 or 2 for a cell crossed out by seat 0 or 1
	nfree  int
	toMove int
	ply    int
	scores [2]int
	hash   uint64
	over   bool
	winner int
}

var (
	_ engine.State        = (*State)(nil)
	_ engine.Passer       = (*State)(nil)
	_ engine.RandomMover  = (*State)(nil)
	_ engine.PlyFielder   = (*State)(nil)
	_ engine.Evaluator    = (*State)(nil)
	_ engine.Copier       = (*State)(nil)
	_ engine.PlayoutMover = (*State)(nil)
)

func newState(free mask) *State {
	g := newGeom(&free)
	return &State{g: g, live: g.all, free: free, nfree: free.count(), winner: engine.NoSeat}
}

// ToMove is the seat to move, NoSeat once the board is empty.
func (s *State) ToMove() int {
	if s.over {
		return engine.NoSeat
	}
	return s.toMove
}

// Terminal reports whether every free cell has been crossed out.
func (s *State) Terminal() bool { return s.over }

// Result: the player who did not cross out the last cell wins.
func (s *State) Result() engine.Result {
	return engine.Result{Winner: s.winner, Scores: s.scores}
}

// Scores are the cells crossed out by each seat (informative only).
func (s *State) Scores() [2]int { return s.scores }

// Ply counts moves applied; passes do not count.
func (s *State) Ply() int { return s.ply }

// FreeCells is the number of cells still free.
func (s *State) FreeCells() int { return s.nfree }

// LegalMoves appends one move per distinct legal cell set, in ascending
// order of the canonical tuple (x, y, l, dir).
func (s *State) LegalMoves(dst []engine.Move) []engine.Move {
	if s.over {
		return dst
	}
	g := s.g
	for w := 0; w < 3; w++ {
		for b := s.free[w]; b != 0; b &= b - 1 {
			c := w*64 + bits.TrailingZeros64(b)
			dst = append(dst, encode(c, 1, 1))
			for id := int(g.first[c]); id < int(g.first[c+1]); id++ {
				if s.live[id>>6]>>(id&63)&1 != 0 {
					dst = append(dst, g.move[id])
				}
			}
		}
	}
	return dst
}

// sets counts the distinct legal cell sets: free cells and lines of 2 and 3.
func (s *State) sets() (singles, multi int) {
	for _, w := range s.live[:s.g.words] {
		multi += bits.OnesCount64(w)
	}
	return s.nfree, multi
}

// LegalCount is the number of distinct legal cell sets.
func (s *State) LegalCount() int {
	if s.over {
		return 0
	}
	a, b := s.sets()
	return a + b
}

// legalTuples counts the in-range tuples the referee's check accepts:
// six directions for each single cell, two orientations for each line.
func (s *State) legalTuples() int {
	a, b := s.sets()
	return 6*a + 2*b
}

// Apply crosses out the move's cells for the side to move; the game ends
// when no free cell is left, lost by the player who took the last one.
func (s *State) Apply(m engine.Move) {
	c, l, dir := decode(m)
	me := s.toMove
	for k := 0; k < l; k++ {
		through := &s.g.through[c]
		for w := 0; w < s.g.words; w++ {
			s.live[w] &^= through[w]
		}
		s.free.clear(c)
		s.owner[c] = uint8(me + 1)
		s.hash ^= zobrist[me][c]
		if k+1 < l {
			c = int(step[c][dir-1])
		}
	}
	s.nfree -= l
	s.scores[me] += l
	s.ply++
	s.toMove ^= 1
	s.hash ^= keySecondToMove
	if s.nfree == 0 {
		s.over = true
		s.winner = 1 - me
	}
}

// Pass gives the turn to the opponent without a move, as the referee did
// for a player whose connection was lost.
func (s *State) Pass() {
	if s.over {
		return
	}
	s.toMove ^= 1
	s.hash ^= keySecondToMove
}

// RandomMove draws the referee's substitute move: a uniform free cell, a
// uniform direction 1..6, then a length uniform over 1 and whichever of 2
// and 3 fit on free cells in that direction.
func (s *State) RandomMove(r *rand.Rand) engine.Move {
	if s.over {
		return 0
	}
	k := r.IntN(s.nfree)
	c := -1
	for w := 0; w < 3 && c < 0; w++ {
		n := bits.OnesCount64(s.free[w])
		if k >= n {
			k -= n
			continue
		}
		b := s.free[w]
		for ; k > 0; k-- {
			b &= b - 1
		}
		c = w*64 + bits.TrailingZeros64(b)
	}
	dir := 1 + r.IntN(6)
	max := 1
	if c2 := int(step[c][dir-1]); c2 >= 0 && s.free.has(c2) {
		max = 2
		if c3 := int(step[c2][dir-1]); c3 >= 0 && s.free.has(c3) {
			max = 3
		}
	}
	return canonical(c, 1+r.IntN(max), dir)
}

// CopyFrom overwrites s with src, which must be a *State: a plain value
// copy, no allocation.
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// RandomPlayoutMove draws uniformly over LegalMoves, unlike RandomMove
// (the referee's substitute move, which favours cells with few lines):
// the legal moves are the free cells and the live lines, two bit sets, so
// a uniform index into their union is the draw.
func (s *State) RandomPlayoutMove(r *rand.Rand) (engine.Move, bool) {
	if s.over {
		return 0, false
	}
	singles, multi := s.sets()
	k := r.IntN(singles + multi)
	if k < singles {
		return encode(s.freeCell(k), 1, 1), true
	}
	k -= singles
	for w, b := range s.live[:s.g.words] {
		n := bits.OnesCount64(b)
		if k < n {
			return s.g.move[w<<6|bitsel.Select(b, k)], true
		}
		k -= n
	}
	panic("hexcrossout: live-line count out of step with the line set")
}

// freeCell is the k-th free cell in index order.
func (s *State) freeCell(k int) int {
	for w := 0; w < 2; w++ {
		n := bits.OnesCount64(s.free[w])
		if k < n {
			return w<<6 | bitsel.Select(s.free[w], k)
		}
		k -= n
	}
	return 128 | bitsel.Select(s.free[2], k)
}

// FormatMove writes the canonical "x,y,l,dir".
func (s *State) FormatMove(m engine.Move) string {
	c, l, dir := decode(m)
	return strconv.Itoa(c/side) + "," + strconv.Itoa(c%side) + "," + strconv.Itoa(l) + "," + strconv.Itoa(dir)
}

// Text is the canonical board: rows y = 0..11 joined by '/', each row
// x = 0..11 as '#' obstacle, '.' free, '1' or '2' crossed out by seat 0 or 1.
func (s *State) Text() string {
	var b strings.Builder
	b.Grow(numCells + side)
	for y := 0; y < side; y++ {
		if y > 0 {
			b.WriteByte('/')
		}
		for x := 0; x < side; x++ {
			i := x*side + y
			switch {
			case s.owner[i] != 0:
				b.WriteByte('0' + s.owner[i])
			case s.free.has(i):
				b.WriteByte('.')
			default:
				b.WriteByte('#')
			}
		}
	}
	return b.String()
}

// Hash combines the crossed-out cells, by owner, and the side to move; the
// obstacles are fixed for a game.
func (s *State) Hash() uint64 { return s.hash }

// Clone copies the position (a plain value copy).
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// PlyFields adds the vector extra "legal_tuples".
func (s *State) PlyFields(dst map[string]any) {
	dst["legal_tuples"] = s.legalTuples()
}
