package cachex

import (
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"arena/engine"
	"arena/games/internal/bitsel"
)

// Cell contents. A seat's stones are seat+1, so red (seat 0) is 1.
const (
	empty uint8 = 0
	red   uint8 = 1
	blue  uint8 = 2
)

// moveSteal encodes STEAL; PLACE moves are the cell index r*n+q.
const moveSteal engine.Move = 1 << 16

// hexSteps are the neighbour directions (dr, dq) in the referee's clockwise
// order.
var hexSteps = [6][2]int{{1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}}

// capturePatterns are the referee's 12 diamond patterns, offsets from the
// placed cell: the mover's opposite corner O, then the two opponent cells
// M1, M2 that are captured.
var capturePatterns = [12][3][2]int{
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

// zobrist holds one key per (colour, cell); row 0 stays zero so an empty
// cell contributes nothing. It is filled once and never changed.
var zobrist = func() (z [3][maxCells]uint64) {
	x := uint64(0x9e3779b97f4a7c15)
	for c := 1; c <= 2; c++ {
		for i := range z[c] {
			z[c][i] = splitmix(&x)
		}
	}
	return z
}()

// Extra hash keys so that Hash separates positions the board alone does
// not: the side to move and the two opening turns with special rules.
var (
	keyBlueToMove = splitmix64(1)
	keyFirstTurn  = splitmix64(2)
	keyStealTurn  = splitmix64(3)
)

func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	return splitmix64(*x)
}

func splitmix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// geom holds the tables of one board size. It is built by New and shared,
// read-only, by every clone.
type geom struct {
	n      int
	cells  int
	centre int // the banned first-move cell, -1 for even n
	row    [maxCells]uint8
	col    [maxCells]uint8
	nb     [maxCells][6]int16 // on-board neighbours in hexSteps order: the first nnb of each
	nnb    [maxCells]uint8
	caps   [maxCells][12][3]int16 // on-board capture patterns: O, M1, M2
	ncaps  [maxCells]uint8
	valid  [occWords]uint64 // the board's cells, bit i = cell i
	// edgeBits[c][i] is 1 when cell i is on the first edge colour c+1
	// joins (row 0 for red, column 0 for blue), 2 when on the second (row
	// or column n-1), else 0.
	edgeBits [2][maxCells]uint8
}

func newGeom(n int) *geom {
	g := &geom{n: n, cells: n * n, centre: -1}
	if n%2 == 1 {
		g.centre = (n/2)*n + n/2
	}
	for i := 0; i < g.cells; i++ {
		bit := uint64(1) << (i & 63)
		g.valid[i>>6] |= bit
		r, q := i/n, i%n
		if r == 0 {
			g.edgeBits[0][i] |= 1
		}
		if r == n-1 {
			g.edgeBits[0][i] |= 2
		}
		if q == 0 {
			g.edgeBits[1][i] |= 1
		}
		if q == n-1 {
			g.edgeBits[1][i] |= 2
		}
	}
	in := func(r, q int) bool { return r >= 0 && r < n && q >= 0 && q < n }
	for r := 0; r < n; r++ {
		for q := 0; q < n; q++ {
			i := r*n + q
			g.row[i], g.col[i] = uint8(r), uint8(q)
			for _, s := range hexSteps {
				if in(r+s[0], q+s[1]) {
					g.nb[i][g.nnb[i]] = int16((r+s[0])*n + q + s[1])
					g.nnb[i]++
				}
			}
			for _, p := range capturePatterns {
				ok := true
				var c [3]int16
				for k, o := range p {
					if !in(r+o[0], q+o[1]) {
						ok = false
						break
					}
					c[k] = int16((r+o[0])*n + q + o[1])
				}
				if ok {
					g.caps[i][g.ncaps[i]] = c
					g.ncaps[i]++
				}
			}
		}
	}
	return g
}

// State is a Cachex position. The zero value is not usable; use New or
// Game.NewState.
type State struct {
	g     *geom
	t     int // actions applied so far
	cells [maxCells]uint8
	occ   [occWords]uint64 // occupied cells, bit i = cell i: the complement of the legal PLACE set

	// Each colour's groups as a disjoint-set forest over its stones: the
	// parent of a stone's cell, and at a root the edges (edgeBits) the
	// group touches. A placement only merges groups; a capture can split
	// the captured colour's groups, and regroup redoes just those. STEAL
	// marks both forests stale (groupsOK false, as in a zero State, so
	// states built field by field also rebuild before first use) and a
	// colour's next placement rebuilds its forest.
	parent   [maxCells]uint8
	reach    [maxCells]uint8
	groupsOK [2]bool
	empty    int
	board    uint64 // Zobrist key of the board contents (the repetition key)

	// hist holds the board key after every action, plus the start board.
	// Every state owns its buffer, with room for a whole game, so Apply
	// never allocates (see Clone and CopyFrom).
	hist       []uint64
	anyCapture bool // before the first capture no board can recur
	repeat     int  // occurrences of the current board, including now

	captured  [6]int16 // cells removed by the last action, ascending
	ncaptured uint8

	over   bool
	winner int
	reason string
}

var (
	_ engine.State        = (*State)(nil)
	_ engine.PlyFielder   = (*State)(nil)
	_ engine.Evaluator    = (*State)(nil)
	_ engine.Copier       = (*State)(nil)
	_ engine.PlayoutMover = (*State)(nil)
)

// occWords is the number of words in the occupied-cell set.
const occWords = (maxCells + 63) / 64

// New returns the start position on an n×n board. It panics if n is
// outside 3..15; Game.NewState validates instead.
func New(n int) *State {
	if n < minN || n > maxN {
		panic("cachex: board size " + strconv.Itoa(n) + " outside 3..15")
	}
	s := newBuffered()
	h := s.hist
	*s = State{g: newGeom(n), empty: n * n, winner: engine.NoSeat, repeat: 1}
	s.hist = append(h, s.board)
	return s
}

// N is the board size.
func (s *State) N() int { return s.g.n }

// ToMove is 0 (red) at even t, 1 (blue) at odd t, NoSeat once over.
func (s *State) ToMove() int {
	if s.over {
		return engine.NoSeat
	}
	return s.t & 1
}

// Terminal reports whether the game is over.
func (s *State) Terminal() bool { return s.over }

// Result is the outcome, with the referee's result string as Reason.
func (s *State) Result() engine.Result {
	return engine.Result{Winner: s.winner, Draw: s.over && s.winner == engine.NoSeat, Reason: s.reason}
}

// Scores are always zero: Cachex has no score.
func (s *State) Scores() [2]int { return [2]int{} }

// Ply is the number of actions applied (the referee's t).
func (s *State) Ply() int { return s.t }

// Repeat is how many times the current board has occurred, including now.
func (s *State) Repeat() int { return s.repeat }

// At returns the stone at (r, q): 0 empty, 1 red, 2 blue.
func (s *State) At(r, q int) uint8 { return s.cells[r*s.g.n+q] }

// LegalMoves appends PLACE moves in ascending (r, q) order, then STEAL
// when it is legal (t == 1).
func (s *State) LegalMoves(dst []engine.Move) []engine.Move {
	if s.over {
		return dst
	}
	banned := -1
	if s.t == 0 {
		banned = s.g.centre
	}
	last := (s.g.cells - 1) >> 6
	for w := 0; w <= last; w++ {
		free := ^s.occ[w] & s.g.valid[w]
		for free != 0 {
			i := w<<6 | bits.TrailingZeros64(free)
			free &= free - 1
			if i != banned {
				dst = append(dst, engine.Move(i))
			}
		}
	}
	if s.t == 1 {
		dst = append(dst, moveSteal)
	}
	return dst
}

// LegalCount is empty cells, minus the centre on the first move of odd n,
// plus STEAL on the second action.
func (s *State) LegalCount() int {
	if s.over {
		return 0
	}
	c := s.empty
	if s.t == 0 && s.g.centre >= 0 {
		c--
	}
	if s.t == 1 {
		c++
	}
	return c
}

// Apply plays a legal move and resolves captures and the end of the game.
func (s *State) Apply(m engine.Move) {
	s.ncaptured = 0
	placed := -1
	if m == moveSteal {
		s.steal()
	} else {
		placed = int(m)
		s.place(placed)
	}
	s.t++

	// Record the board and count its occurrences. The buffer holds a whole
	// game; only a state built outside New, Clone and CopyFrom can lack
	// room, and growing it then is the one allocation Apply may make.
	if len(s.hist) == cap(s.hist) {
		h := make([]uint64, len(s.hist), maxActions+1)
		copy(h, s.hist)
		s.hist = h
	}
	s.hist = append(s.hist, s.board)
	s.repeat = 1
	if s.anyCapture {
		// Without captures the stone count only grows, so boards are new;
		// afterwards any earlier board may come back.
		last := len(s.hist) - 1
		for _, h := range s.hist[:last] {
			if h == s.board {
				s.repeat++
			}
		}
	}

	switch {
	case placed >= 0 && s.t >= 2*s.g.n-1 && s.connected(placed):
		s.over = true
		s.winner = int(s.cells[placed]) - 1
		if s.winner == 0 {
			s.reason = ReasonRedWins
		} else {
			s.reason = ReasonBlueWins
		}
	case s.repeat >= repeatLimit:
		s.over, s.reason = true, ReasonRepetition
	case s.t >= maxActions:
		s.over, s.reason = true, ReasonTurnLimit
	}
}

func (s *State) place(p int) {
	me := uint8(s.t&1) + 1
	opp := 3 - me
	s.cells[p] = me
	s.occ[p>>6] |= 1 << (p & 63)
	s.board ^= zobrist[me][p]
	s.empty--
	// Test every pattern before removing anything: the captured set is the
	// union of all matching pairs.
	caps := &s.g.caps[p]
	for k := 0; k < int(s.g.ncaps[p]); k++ {
		c := &caps[k]
		if s.cells[c[0]] == me && s.cells[c[1]] == opp && s.cells[c[2]] == opp {
			s.addCaptured(c[1])
			s.addCaptured(c[2])
		}
	}
	if s.groupsOK[me-1] {
		s.join(p, me)
	} else {
		s.rebuildGroups(me)
	}
	if s.ncaptured == 0 {
		return
	}
	s.anyCapture = true
	for _, c := range s.captured[:s.ncaptured] {
		s.cells[c] = empty
		s.occ[c>>6] &^= 1 << (c & 63)
		s.board ^= zobrist[opp][c]
	}
	s.empty += int(s.ncaptured)
	if s.groupsOK[opp-1] {
		s.regroup(opp)
	}
	// Insertion sort: at most six cells.
	cs := s.captured[:s.ncaptured]
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j] < cs[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

func (s *State) addCaptured(c int16) {
	for _, x := range s.captured[:s.ncaptured] {
		if x == c {
			return
		}
	}
	s.captured[s.ncaptured] = c
	s.ncaptured++
}

// steal reflects the board across the main diagonal and swaps colours.
func (s *State) steal() {
	n := s.g.n
	var nc [maxCells]uint8
	s.board = 0
	for r := 0; r < n; r++ {
		for q := 0; q < n; q++ {
			v := s.cells[r*n+q]
			if v != empty {
				v = 3 - v
				nc[q*n+r] = v
				s.board ^= zobrist[v][q*n+r]
			}
		}
	}
	s.cells = nc
	// Rebuild the occupied set from the reflected board, and let each
	// colour's next placement rebuild its groups (STEAL happens once a
	// game).
	s.occ = [occWords]uint64{}
	s.groupsOK = [2]bool{}
	for i := 0; i < s.g.cells; i++ {
		if nc[i] != empty {
			s.occ[i>>6] |= 1 << (i & 63)
		}
	}
}

// connected reports whether the stones joined to p touch both of their
// owner's edges: rows 0 and n-1 for red, columns 0 and n-1 for blue. The
// placement that put p there has brought its colour's groups up to date.
func (s *State) connected(p int) bool {
	return s.reach[s.find(p)] == 3
}

// find returns the root of cell i's group, halving the path on the way.
func (s *State) find(i int) int {
	for int(s.parent[i]) != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = int(s.parent[i])
	}
	return i
}

// join makes the new stone at p (colour c) a group and merges it with its
// neighbours of the same colour.
func (s *State) join(p int, c uint8) {
	g := s.g
	s.parent[p] = uint8(p)
	s.reach[p] = g.edgeBits[c-1][p]
	for k := 0; k < int(g.nnb[p]); k++ {
		d := int(g.nb[p][k])
		if s.cells[d] != c {
			continue
		}
		a, b := s.find(p), s.find(d)
		if a != b {
			s.parent[b] = uint8(a)
			s.reach[a] |= s.reach[b]
		}
	}
}

// regroup redoes colour c's groups that lost the stones just captured.
// Every remaining piece of such a group touches a captured cell, so a
// flood fill from the captured cells' neighbours of colour c reaches all
// of them; each piece becomes a group rooted at its first cell found.
func (s *State) regroup(c uint8) {
	g := s.g
	var seen [occWords]uint64
	var stack [maxCells]uint8
	for _, x := range s.captured[:s.ncaptured] {
		for k := 0; k < int(g.nnb[x]); k++ {
			root := int(g.nb[x][k])
			if s.cells[root] != c || seen[root>>6]>>(root&63)&1 != 0 {
				continue
			}
			seen[root>>6] |= 1 << (root & 63)
			var reach uint8
			sp := 0
			stack[sp] = uint8(root)
			sp++
			for sp > 0 {
				sp--
				v := int(stack[sp])
				s.parent[v] = uint8(root)
				reach |= g.edgeBits[c-1][v]
				for j := 0; j < int(g.nnb[v]); j++ {
					d := int(g.nb[v][j])
					if s.cells[d] == c && seen[d>>6]>>(d&63)&1 == 0 {
						seen[d>>6] |= 1 << (d & 63)
						stack[sp] = uint8(d)
						sp++
					}
				}
			}
			s.reach[root] = reach
		}
	}
}

// rebuildGroups recomputes colour c's forest from the board in one pass:
// each stone joins its neighbours of the same colour with a smaller
// index, which the pass has already set up.
func (s *State) rebuildGroups(c uint8) {
	g := s.g
	for i := 0; i < g.cells; i++ {
		if s.cells[i] != c {
			continue
		}
		s.parent[i] = uint8(i)
		s.reach[i] = g.edgeBits[c-1][i]
		for k := 0; k < int(g.nnb[i]); k++ {
			d := int(g.nb[i][k])
			if d > i || s.cells[d] != c {
				continue
			}
			a, b := s.find(i), s.find(d)
			if a != b {
				s.parent[b] = uint8(a)
				s.reach[a] |= s.reach[b]
			}
		}
	}
	s.groupsOK[c-1] = true
}

// FormatMove writes "PLACE r q" or "STEAL".
func (s *State) FormatMove(m engine.Move) string {
	if m == moveSteal {
		return "STEAL"
	}
	i := int(m)
	return "PLACE " + strconv.Itoa(i/s.g.n) + " " + strconv.Itoa(i%s.g.n)
}

// Text is the canonical board: rows r = 0..n-1 joined by '/', each row
// q = 0..n-1 as 'r', 'b' or '.'.
func (s *State) Text() string {
	n := s.g.n
	var b strings.Builder
	b.Grow(n*n + n)
	for r := 0; r < n; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		for q := 0; q < n; q++ {
			b.WriteByte(".rb"[s.cells[r*n+q]])
		}
	}
	return b.String()
}

// Hash is the board key combined with the side to move and the two
// opening turns whose rules differ (centre ban, STEAL).
func (s *State) Hash() uint64 {
	h := s.board
	if s.t&1 == 1 {
		h ^= keyBlueToMove
	}
	switch s.t {
	case 0:
		h ^= keyFirstTurn
	case 1:
		h ^= keyStealTurn
	}
	return h
}

// withHist is a State and its history buffer in one allocation.
type withHist struct {
	s State
	h [maxActions + 1]uint64
}

// newBuffered returns a zero State that owns a whole-game history buffer.
func newBuffered() *State {
	b := new(withHist)
	b.s.hist = b.h[:0]
	return &b.s
}

// Clone copies the position, its board history included, in one
// allocation; the copy owns its buffer, so neither side's Apply allocates
// or touches the other.
func (s *State) Clone() engine.State {
	c := newBuffered()
	c.CopyFrom(s)
	return c
}

// CopyFrom overwrites s with src, which must be a *State of the same
// game. It copies only the history in use and allocates nothing when s
// came from New, Clone or an earlier CopyFrom.
func (s *State) CopyFrom(src engine.State) {
	o := src.(*State)
	if o == s {
		return
	}
	h := s.hist
	*s = *o
	if cap(h) < maxActions+1 {
		h = make([]uint64, 0, maxActions+1)
	}
	s.hist = h[:len(o.hist)]
	copy(s.hist, o.hist)
}

// RandomPlayoutMove draws uniformly over LegalMoves without listing them:
// a uniform empty cell (the centre excluded on the first action), or STEAL
// on the second action with its share of the draws.
func (s *State) RandomPlayoutMove(r *rand.Rand) (engine.Move, bool) {
	if s.over {
		return 0, false
	}
	n := s.LegalCount()
	k := r.IntN(n)
	if s.t == 1 && k == n-1 {
		return moveSteal, true
	}
	if s.t == 0 && s.g.centre >= 0 {
		// Count the centre as taken: it is the one empty cell excluded.
		if k >= s.emptyBefore(s.g.centre) {
			k++
		}
	}
	for w := 0; w < occWords; w++ {
		free := ^s.occ[w] & s.g.valid[w]
		c := bits.OnesCount64(free)
		if k < c {
			return engine.Move(w<<6 | bitsel.Select(free, k)), true
		}
		k -= c
	}
	panic("cachex: empty-cell count out of step with the occupied set")
}

// emptyBefore counts the empty cells with an index below i.
func (s *State) emptyBefore(i int) int {
	c := 0
	for w := 0; w < i>>6; w++ {
		c += bits.OnesCount64(^s.occ[w] & s.g.valid[w])
	}
	return c + bits.OnesCount64(^s.occ[i>>6]&s.g.valid[i>>6]&(1<<(i&63)-1))
}

// PlyFields adds the vector extras "captured" (the cells removed by the
// last action as [r, q] pairs, ascending) and "repeat".
func (s *State) PlyFields(dst map[string]any) {
	// Ascending cell index is ascending (r, q).
	capd := make([][2]int, 0, s.ncaptured)
	for _, c := range s.captured[:s.ncaptured] {
		capd = append(capd, [2]int{int(c) / s.g.n, int(c) % s.g.n})
	}
	dst["captured"] = capd
	dst["repeat"] = s.repeat
}
