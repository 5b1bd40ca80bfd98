package dotsboxes

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"arena/engine"
	"arena/games/internal/bitsel"
)

const (
	// MinDots and MaxDots bound the dot counts per axis. The upper bound
	// keeps every line in a fixed 320-bit set, so states need no slices.
	MinDots  = 2
	MaxDots  = 12
	maxLines = 2 * MaxDots * (MaxDots - 1)
	maxBoxes = (MaxDots - 1) * (MaxDots - 1)
	words    = (maxLines + 63) / 64
	boxWords = (maxBoxes + 63) / 64

	defaultDots = 5
	gameName    = "dots-and-boxes"
	profileName = "aigaming-cs4386-2020"
	courseName  = "City University of Hong Kong CS4386, Semester B 2019-20 (AI Gaming platform)"
)

// Reason texts of the profile; the platform's own are unknown.
const (
	ReasonTimeout = "TIMEOUT: player {player} missed the deadline"
	ReasonError   = "AGENT ERROR: player {player}"
	ReasonDead    = "AGENT DIED: player {player}"
	ReasonMemory  = "MEMORY: player {player} exceeded the memory limit"
)

// Game is Dots-and-Boxes as played in CS4386 on the AI Gaming platform.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game and its two size parameters.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:      gameName,
		Title:     "Dots and Boxes",
		Course:    courseName,
		Profile:   profileName,
		HasScores: true,
		Params: []engine.ParamInfo{
			{Name: "rows", Default: strconv.Itoa(defaultDots), Doc: fmt.Sprintf("dots along the first coordinate (%d..%d)", MinDots, MaxDots)},
			{Name: "cols", Default: strconv.Itoa(defaultDots), Doc: fmt.Sprintf("dots along the second coordinate (%d..%d)", MinDots, MaxDots)},
		},
	}
}

// dims reads and checks rows and cols.
func dims(p engine.Params) (rows, cols int, err error) {
	if err := p.Check(gameName, "rows", "cols"); err != nil {
		return 0, 0, err
	}
	if rows, err = p.Int("rows", defaultDots); err != nil {
		return 0, 0, err
	}
	if cols, err = p.Int("cols", defaultDots); err != nil {
		return 0, 0, err
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"rows", rows}, {"cols", cols}} {
		if c.v < MinDots || c.v > MaxDots {
			return 0, 0, fmt.Errorf("parameter %s=%d: want %d..%d dots", c.name, c.v, MinDots, MaxDots)
		}
	}
	return rows, cols, nil
}

// NewState returns the empty board of rows × cols dots, player 0 to move.
func (Game) NewState(p engine.Params) (engine.State, error) {
	rows, cols, err := dims(p)
	if err != nil {
		return nil, err
	}
	return NewState(rows, cols), nil
}

// Profile returns the aigaming-cs4386-2020 defaults (§9 of the rules);
// the numbers do not depend on the board size.
func (Game) Profile(p engine.Params) (engine.Profile, error) {
	if _, _, err := dims(p); err != nil {
		return engine.Profile{}, err
	}
	return engine.Profile{
		Name:           profileName,
		Game:           gameName,
		Course:         courseName,
		Time:           engine.PerMove,
		MoveLimit:      5 * time.Second,
		FirstMoveLimit: 5 * time.Second,
		Cushion:        0,
		MemoryMB:       0,
		StartupTimeout: 30 * time.Second,
		// Whether the platform kept a bot's module (and its globals) from
		// one game to the next is not documented: student agents get a
		// fresh process for each game.
		Processes: engine.ProcessesBuiltin,
		Penalties: map[engine.Failure]engine.Penalty{
			engine.FailTimeout:     engine.Loss,
			engine.FailLate:        engine.Loss,
			engine.FailUnparseable: engine.Loss,
			engine.FailIllegal:     engine.Loss,
			engine.FailError:       engine.Loss,
			engine.FailDead:        engine.Loss,
			engine.FailMemory:      engine.Loss,
		},
		Reasons: map[engine.Failure]string{
			engine.FailTimeout: ReasonTimeout,
			engine.FailLate:    ReasonTimeout,
			engine.FailError:   ReasonError,
			engine.FailDead:    ReasonDead,
			engine.FailMemory:  ReasonMemory,
		},
	}, nil
}

// geometry is the board layout for one size: line endpoints in Grid order
// and line/box incidence. It is built once per game and shared read-only
// by every clone.
type geometry struct {
	rows, cols     int
	nLines, nBoxes int
	nWords         int                     // words of valid holding any line: loops stop there
	oneWord        bool                    // every line in word 0 (5×5 among others): the one-word paths
	wordLines      [64]wordLine            // the boxes beside each line, when oneWord
	sideMasks                              // where the boxes' sides are, when oneWord
	valid          [words]uint64           // bits of the lines that exist
	ends           [maxLines][4]int8       // a, b, c, d with [a,b] < [c,d]
	lineBoxes      [maxLines]lineBox       // boxes beside a line
	boxSides       [maxBoxes][4]int16      // sides of box k in §2 order
	right, down    [MaxDots][MaxDots]int16 // line from [a,b] to [a,b+1] / [a+1,b], -1 for none
}

func newGeometry(rows, cols int) *geometry {
	g := &geometry{rows: rows, cols: cols, nBoxes: (rows - 1) * (cols - 1)}
	for a := range g.right {
		for b := range g.right[a] {
			g.right[a][b], g.down[a][b] = -1, -1
		}
	}
	// Grid order, ascending (a, b, c, d): from each dot in row-major order,
	// the line to [a,b+1] sorts before the line to [a+1,b].
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols {
				g.right[a][b] = int16(g.nLines)
				g.ends[g.nLines] = [4]int8{int8(a), int8(b), int8(a), int8(b + 1)}
				g.nLines++
			}
			if a+1 < rows {
				g.down[a][b] = int16(g.nLines)
				g.ends[g.nLines] = [4]int8{int8(a), int8(b), int8(a + 1), int8(b)}
				g.nLines++
			}
		}
	}
	g.nWords = (g.nLines + 63) / 64
	for i := 0; i < g.nLines; i++ {
		g.valid[i>>6] |= 1 << (i & 63)
		g.lineBoxes[i] = lineBox{box: [2]uint8{noBox, noBox}}
	}
	for x := 0; x < rows-1; x++ {
		for y := 0; y < cols-1; y++ {
			k := (cols-1)*x + y
			// §2 order: ([x,y],[x+1,y]), ([x,y],[x,y+1]), ([x+1,y],[x+1,y+1]), ([x,y+1],[x+1,y+1]).
			g.boxSides[k] = [4]int16{g.down[x][y], g.right[x][y], g.right[x+1][y], g.down[x][y+1]}
			for _, l := range g.boxSides[k] {
				lb := &g.lineBoxes[l]
				j := 0
				if lb.inc[0] != 0 {
					j = 1
				}
				lb.box[j], lb.inc[j] = uint8(k), 1
			}
		}
	}
	// 62 leaves the top two bits of the word for wordLine's missing box;
	// the largest one-word board, 6×6, has 60 lines.
	g.oneWord = g.nLines <= 62
	if g.oneWord {
		g.fillWordLines()
		g.fillSideMasks()
	}
	return g
}

// wordLine is, on a one-word board, what drawing a line changes: the
// side masks of the boxes beside it and their bits (where there is no
// box, its sides are noSides and its bit 0).
type wordLine struct {
	sides, box [2]uint64
}

// noSides is the side mask of a missing box: two bits no line uses, so
// two sides always seem missing and the box never has three or four.
const noSides = 3 << 62

// fillWordLines builds wordLines from lineBoxes and boxSides.
func (g *geometry) fillWordLines() {
	for i := range g.nLines {
		lb := g.lineBoxes[i]
		for j := range lb.box {
			if lb.inc[j] == 0 {
				g.wordLines[i].sides[j] = noSides
				continue
			}
			k := int(lb.box[j])
			for _, l := range g.boxSides[k] {
				g.wordLines[i].sides[j] |= 1 << l
			}
			g.wordLines[i].box[j] = 1 << k
		}
	}
}

// byteMoves[q][v] lists the set bits of byte value v at byte q of a word
// as moves, ascending, padded to eight: a one-word board's LegalMoves
// copies one entry per byte, 32 bytes, and advances by v's bit count.
// 64 KiB, of which a board touches the bytes its lines use (40 KiB for
// 5×5). A table per nibble (4 KiB, twice the copies) measured slower.
var byteMoves = func() (t [8][256][8]engine.Move) {
	for q := range t {
		for v := range t[q] {
			j := 0
			for b := range 8 {
				if v>>b&1 != 0 {
					t[q][v][j] = engine.Move(8*q + b)
					j++
				}
			}
		}
	}
	return t
}()

// noBox is the spare side counter a border line's missing box points at;
// its increment is 0, so it stays 0 and never completes.
const noBox = maxBoxes

// lineBox is what drawing one line adds to the side counters: the two
// boxes beside it and 1 for each (noBox and 0 where there is none), so
// Apply adds both without testing.
type lineBox struct {
	box, inc [2]uint8
}

// line returns the index of the line joining two dots, or -1 when they
// are off the board or not adjacent. The dots may come in either order.
func (g *geometry) line(a, b, c, d int) int {
	if a > c || (a == c && b > d) {
		a, b, c, d = c, d, a, b
	}
	if a < 0 || b < 0 || c >= g.rows || d >= g.cols {
		return -1
	}
	switch {
	case a == c && d == b+1:
		return int(g.right[a][b])
	case b == d && c == a+1:
		return int(g.down[a][b])
	}
	return -1
}

// State is one position. Moves are line indices in Grid order.
type State struct {
	g      *geometry
	word   bool             // g.oneWord, kept here to save a load on every call
	drawn  [words]uint64    // drawn lines
	by1    [words]uint64    // drawn lines drawn by seat 1
	boxes  [boxWords]uint64 // completed boxes
	boxes1 [boxWords]uint64 // boxes completed by seat 1
	scores [2]int
	toMove int
	left   int // undrawn lines
	// threes counts the boxes with exactly three sides drawn and sides
	// the drawn sides per box (the last is noBox's), both on boards of
	// more than one word only: a one-word board tests its side masks
	// and Evaluate counts its three-sided boxes when asked.
	threes int
	sides  [maxBoxes + 1]uint8
}

var (
	_ engine.State        = (*State)(nil)
	_ engine.Evaluator    = (*State)(nil)
	_ engine.AgentViewer  = (*State)(nil)
	_ engine.Copier       = (*State)(nil)
	_ engine.PlayoutMover = (*State)(nil)
)

// NewState returns the start position; rows and cols must be within
// MinDots..MaxDots (Game.NewState checks them).
func NewState(rows, cols int) *State {
	g := newGeometry(rows, cols)
	return &State{g: g, word: g.oneWord, left: g.nLines}
}

// Rows is the number of dots along the first coordinate.
func (s *State) Rows() int { return s.g.rows }

// Cols is the number of dots along the second coordinate.
func (s *State) Cols() int { return s.g.cols }

// ToMove is the seat to move, NoSeat once every line is drawn.
func (s *State) ToMove() int {
	if s.left == 0 {
		return engine.NoSeat
	}
	return s.toMove
}

// Terminal reports whether every line is drawn.
func (s *State) Terminal() bool { return s.left == 0 }

// Result: more boxes wins, equal is a draw; no reason on a normal end.
func (s *State) Result() engine.Result {
	r := engine.Result{Winner: engine.NoSeat, Scores: s.scores}
	switch {
	case s.scores[0] > s.scores[1]:
		r.Winner = 0
	case s.scores[1] > s.scores[0]:
		r.Winner = 1
	default:
		r.Draw = true
	}
	return r
}

// Scores are the boxes completed by seats 0 and 1.
func (s *State) Scores() [2]int { return s.scores }

// Ply counts the lines drawn.
func (s *State) Ply() int { return s.g.nLines - s.left }

// LegalMoves appends the undrawn lines in Grid order. There are s.left of
// them: the slice grows once and they are written without appends.
func (s *State) LegalMoves(dst []engine.Move) []engine.Move {
	n := len(dst)
	// The table copies need room for a whole word's lines and eight past
	// them; everything else goes out of line, keeping this path short.
	if !s.word || cap(dst)-n < wordRoom {
		return s.listSlow(dst)
	}
	listBytes((*[wordRoom]engine.Move)(dst[n:n+wordRoom]), s.g.valid[0]&^s.drawn[0])
	return dst[:n+s.left]
}

// listSlow is LegalMoves without the table copies' room: a one-word
// board's slice that must grow anyway grows by that room and takes the
// copies, any other takes the walk.
//
//go:noinline
func (s *State) listSlow(dst []engine.Move) []engine.Move {
	if n := len(dst); s.word && cap(dst)-n < s.left {
		dst = slices.Grow(dst, wordRoom)
		listBytes((*[wordRoom]engine.Move)(dst[n:n+wordRoom]), s.g.valid[0]&^s.drawn[0])
		return dst[:n+s.left]
	}
	return s.listWalk(dst)
}

// wordRoom is the room a one-word board's LegalMoves writes in: up to 64
// moves and the last table copy's eight past them.
const wordRoom = 64 + 8

// listWalk is LegalMoves by a trailing-zero walk over the words.
func (s *State) listWalk(dst []engine.Move) []engine.Move {
	g := s.g
	n := len(dst)
	dst = slices.Grow(dst, s.left)[:n+s.left]
	out := dst[n:]
	j := 0
	for w := 0; w < g.nWords; w++ {
		for free := g.valid[w] &^ s.drawn[w]; free != 0 && j < len(out); free &= free - 1 {
			out[j] = engine.Move(w<<6 | bits.TrailingZeros64(free))
			j++
		}
	}
	return dst
}

// listBytes writes the set bits of free to out: one 32-byte table copy
// per byte, a fixed number of steps whatever the position, instead of a
// step per line and a mispredicted exit. The steps are unrolled, each
// byte's table at a constant offset: five always (the course's 5×5 has
// 40 lines; a smaller board's higher bytes are empty and copy nothing
// that counts), three more while lines past the 40th are undrawn, a
// branch a 5×5 board never takes and a larger one takes until its last
// moves.
func listBytes(out *[wordRoom]engine.Move, free uint64) {
	j := putByte(out, 0, &byteMoves[0], uint8(free))
	j = putByte(out, j, &byteMoves[1], uint8(free>>8))
	j = putByte(out, j, &byteMoves[2], uint8(free>>16))
	j = putByte(out, j, &byteMoves[3], uint8(free>>24))
	j = putByte(out, j, &byteMoves[4], uint8(free>>32))
	if free>>40 != 0 {
		j = putByte(out, j, &byteMoves[5], uint8(free>>40))
		j = putByte(out, j, &byteMoves[6], uint8(free>>48))
		putByte(out, j, &byteMoves[7], uint8(free>>56))
	}
}

// putByte copies byte value v's moves from its byte's table to out[j:]
// and returns the position after them.
func putByte(out *[wordRoom]engine.Move, j int, t *[256][8]engine.Move, v uint8) int {
	// j counts set bits of a word below the byte, so j&63 is j.
	*(*[8]engine.Move)(out[j&63 : j&63+8]) = t[v]
	return j + bits.OnesCount8(v)
}

// LegalCount is the number of undrawn lines.
func (s *State) LegalCount() int { return s.left }

// Apply draws a line, credits completed boxes, and passes the turn only
// when no box was completed. On a one-word board a box beside the line is
// complete when its mask has no undrawn side left and has three sides
// when one is left, and nothing branches but the board's size.
func (s *State) Apply(m engine.Move) {
	if !s.word {
		s.applyWide(int(m))
		return
	}
	i := uint(m) & 63
	wl := &s.g.wordLines[i]
	bit := uint64(1) << i
	d := s.drawn[0] | bit
	s.drawn[0] = d
	mover := s.toMove & 1
	s.by1[0] |= bit & -uint64(mover)
	s.left--
	fa, fb := b2i(wl.sides[0]&^d == 0), b2i(wl.sides[1]&^d == 0)
	won := wl.box[0]&-uint64(fa) | wl.box[1]&-uint64(fb)
	s.boxes[0] |= won
	s.boxes1[0] |= won & -uint64(mover)
	s.scores[mover] += fa + fb
	s.toMove ^= 1 &^ (fa | fb)
}

// applyWide is Apply on a board of more than one word: side counters per
// box, and a branch on the completion itself.
func (s *State) applyWide(i int) {
	w, bit := (i>>6)%words, uint64(1)<<(i&63)
	s.drawn[w] |= bit
	s.by1[w] |= bit & -uint64(s.toMove&1)
	s.left--
	lb := &s.g.lineBoxes[i]
	completed := s.addSide(lb.box[0], lb.inc[0]) | s.addSide(lb.box[1], lb.inc[1])
	s.toMove ^= 1 &^ completed
}

// addSide adds inc (1, or 0 for noBox) to box k's drawn sides, keeps the
// count of three-sided boxes, and gives the box to the mover when its
// fourth side is drawn. It returns 1 for a completed box, else 0.
func (s *State) addSide(k, inc uint8) int {
	c := s.sides[k] + inc
	s.sides[k] = c
	four := b2i(c == 4)
	s.threes += b2i(c == 3) - four
	if four != 0 {
		s.boxes[k>>6] |= 1 << (k & 63)
		s.boxes1[k>>6] |= uint64(s.toMove&1) << (k & 63)
		s.scores[s.toMove&1]++
	}
	return four
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// owner returns the seat that completed box k, or -1.
func (s *State) owner(k int) int { return seatIn(s.boxes[:], s.boxes1[:], k) }

// drawer returns the seat that drew line i, or -1.
func (s *State) drawer(i int) int { return seatIn(s.drawn[:], s.by1[:], i) }

// seatIn is -1 when bit i of all is clear, else 1 when it is set in one
// (seat 1's), else 0.
func seatIn(all, one []uint64, i int) int {
	bit := uint64(1) << (i & 63)
	switch {
	case all[i>>6]&bit == 0:
		return -1
	case one[i>>6]&bit != 0:
		return 1
	}
	return 0
}

// Text is the arena's board text (the vectors have none): one character
// per line in Grid order ('.' undrawn, else the seat that drew it), '/',
// then one per box row-major ('.' open, else the seat that completed it).
// It is built on the stack, so the string is its only allocation.
func (s *State) Text() string {
	var text [maxLines + 1 + maxBoxes]byte
	buf := text[:0]
	for i := range s.g.nLines {
		buf = append(buf, seatChar(s.drawer(i)))
	}
	buf = append(buf, '/')
	for k := range s.g.nBoxes {
		buf = append(buf, seatChar(s.owner(k)))
	}
	return string(buf)
}

func seatChar(seat int) byte {
	if seat < 0 {
		return '.'
	}
	return byte('0' + seat)
}

// Hash covers what decides the rest of the game: the drawn lines, the
// board size, the seat to move and the scores (which boxes each side owns
// does not). It is computed when asked, so Apply keeps no key: each word
// of lines and the word of the rest go through the splitmix64 finaliser
// with a seed of their own and the results are XORed. The finaliser is a
// bijection, so two positions that differ in one of these words only
// never collide; the words are mixed independently, so a one-word board's
// hash is two finalisers side by side, not one after the other.
func (s *State) Hash() uint64 {
	rest := uint64(s.g.rows)<<8 | uint64(s.g.cols) | uint64(s.toMove)<<16 |
		uint64(s.scores[0])<<24 | uint64(s.scores[1])<<40
	h := mix64(rest ^ restSeed)
	for w, d := range s.drawn[:s.g.nWords] {
		h ^= mix64(d ^ wordSeeds[w])
	}
	return h
}

// restSeed and wordSeeds keep the words Hash mixes apart, so equal words
// in different places do not cancel.
const restSeed = 0x6a09e667f3bcc909

var wordSeeds = [words]uint64{
	0x9e3779b97f4a7c15, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
	0xa54ff53a5f1d36f1, 0x510e527fade682d1,
}

// mix64 is the splitmix64 finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Clone copies the position; the geometry is shared, never written.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// CopyFrom overwrites s with src, which must be a *State of the same game:
// a plain value copy (the geometry is shared), no allocation.
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// RandomPlayoutMove draws an undrawn line uniformly without listing them.
func (s *State) RandomPlayoutMove(r *rand.Rand) (engine.Move, bool) {
	if s.left == 0 {
		return 0, false
	}
	k := r.IntN(s.left)
	g := s.g
	if s.word {
		return engine.Move(bitsel.Select(g.valid[0]&^s.drawn[0], k)), true
	}
	for w := 0; w < g.nWords; w++ {
		free := g.valid[w] &^ s.drawn[w]
		n := bits.OnesCount64(free)
		if k < n {
			return engine.Move(w<<6 | bitsel.Select(free, k)), true
		}
		k -= n
	}
	panic("dotsboxes: undrawn-line count out of step with the drawn set")
}

// FormatMove writes the canonical `[[a,b],[c,d]]`, smaller dot first.
func (s *State) FormatMove(m engine.Move) string {
	e := s.g.ends[int(m)]
	return dotsText(int(e[0]), int(e[1]), int(e[2]), int(e[3]))
}

func dotsText(a, b, c, d int) string {
	buf := make([]byte, 0, 16)
	buf = append(buf, "[["...)
	buf = strconv.AppendInt(buf, int64(a), 10)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(b), 10)
	buf = append(buf, "],["...)
	buf = strconv.AppendInt(buf, int64(c), 10)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(d), 10)
	buf = append(buf, "]]"...)
	return string(buf)
}

// Evaluate is the score difference from seat's view, plus the boxes with
// three sides drawn when seat is to move (it can take them) or minus them
// when the opponent is.
func (s *State) Evaluate(seat int) float64 {
	seat &= 1
	v := float64(s.scores[seat] - s.scores[seat^1])
	// A one-word board counts its three-sided boxes here, all at once.
	t := s.threes
	if s.word {
		t = s.g.sideMasks.three(s.drawn[0])
	}
	if s.toMove == seat {
		return v + float64(t)
	}
	return v - float64(t)
}
