package pentagotwist

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"arena/engine"
	"arena/games/internal/bitsel"
)

// Seats and colours: White is seat 0 and moves first, Black is seat 1.
const (
	White = 0
	Black = 1
)

const (
	size     = 6
	cells    = size * size
	fullMask = uint64(1)<<cells - 1
	// maxPly is Black's 18th move (MAX_TURNS = 18): the board is full.
	maxPly = cells
)

// Game is Pentago-Twist as refereed by McGill COMP 424 (Winter 2021).
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game; it takes no parameters.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:      "pentago-twist",
		Title:     "Pentago-Twist",
		Course:    "McGill University COMP 424 Artificial Intelligence, Winter 2021",
		Profile:   "comp424-2021",
		HasScores: false,
	}
}

// NewState returns the empty board, White to move.
func (g Game) NewState(p engine.Params) (engine.State, error) {
	if err := p.Check("pentago-twist"); err != nil {
		return nil, err
	}
	return NewState(), nil
}

// Profile returns the comp424-2021 defaults (§9 of the rules).
func (g Game) Profile(p engine.Params) (engine.Profile, error) {
	if err := p.Check("pentago-twist"); err != nil {
		return engine.Profile{}, err
	}
	return engine.Profile{
		Name:           "comp424-2021",
		Game:           "pentago-twist",
		Course:         "McGill University COMP 424 Artificial Intelligence, Winter 2021",
		Time:           engine.PerMove,
		MoveLimit:      2 * time.Second,
		FirstMoveLimit: 30 * time.Second,
		Cushion:        time.Second,
		MemoryMB:       520,
		// Autoplay started each client JVM with -Xms520m -Xmx520m and the
		// server limited nothing: the JVM's OutOfMemoryError was the
		// only memory failure (rules §8.6).
		JVMHeapMB:      520,
		JVMHeadroomMB:  1024,
		StartupTimeout: 30 * time.Second,
		// The course started every student agent afresh for each game.
		Processes: engine.ProcessesBuiltin,
		Penalties: map[engine.Failure]engine.Penalty{
			engine.FailTimeout:     engine.Loss,
			engine.FailLate:        engine.RandomMove,
			engine.FailUnparseable: engine.AsTimeout,
			engine.FailIllegal:     engine.Loss,
			engine.FailError:       engine.RandomMove,
			engine.FailDead:        engine.RandomMove,
			engine.FailMemory:      engine.AsDead,
		},
		Reasons: map[engine.Failure]string{
			engine.FailTimeout: "TIMEOUT",
		},
	}, nil
}

// State is one Pentago-Twist position: two 36-bit bitboards, bit 6*x+y
// for row x (from the top) and column y (from the left).
type State struct {
	stones [2]uint64 // [White, Black]
	ply    int
	over   bool
	winner int // seat, or engine.NoSeat for a draw
}

var (
	_ engine.State        = (*State)(nil)
	_ engine.PlyFielder   = (*State)(nil)
	_ engine.Evaluator    = (*State)(nil)
	_ engine.Copier       = (*State)(nil)
	_ engine.PlayoutMover = (*State)(nil)
)

// NewState returns the start position.
func NewState() *State { return &State{winner: engine.NoSeat} }

// Move layout: bit 0 = b (0 rotate, 1 mirror), bits 1-2 = a (quadrant),
// bits 3-8 = cell 6*x+y, bit 9 = the player id written in the move. A
// player's legal moves are therefore ascending in the course order
// (x, y, a, b), and FormatMove needs no position.
func encode(cell, a, b, p int) engine.Move {
	return engine.Move(p<<9 | cell<<3 | a<<1 | b)
}

func decode(m engine.Move) (cell, a, b, p int) {
	return int(m>>3) & 63, int(m>>1) & 3, int(m) & 1, int(m>>9) & 1
}

// ToMove is White on even plies, Black on odd ones, NoSeat once over.
func (s *State) ToMove() int {
	if s.over {
		return engine.NoSeat
	}
	return s.ply & 1
}

// Terminal reports whether §6 ended the game.
func (s *State) Terminal() bool { return s.over }

// Result is the §6 outcome; normal endings carry no reason.
func (s *State) Result() engine.Result {
	return engine.Result{Winner: s.winner, Draw: s.over && s.winner == engine.NoSeat}
}

// Scores are always zero: the game has none.
func (s *State) Scores() [2]int { return [2]int{} }

// Ply counts the moves played.
func (s *State) Ply() int { return s.ply }

// TurnNumber is the framework's turn_number: completed Black moves.
func (s *State) TurnNumber() int { return s.ply / 2 }

// Cell returns the seat whose stone is on (x, y), or NoSeat.
func (s *State) Cell(x, y int) int {
	bit := uint64(1) << (size*x + y)
	switch {
	case s.stones[White]&bit != 0:
		return White
	case s.stones[Black]&bit != 0:
		return Black
	}
	return engine.NoSeat
}

// LegalMoves appends the 8 tuples of every empty cell in the framework's
// order (x, then y, then a, then b). The slice grows once for all of them
// and each cell's eight moves are one 32-byte copy from cellMoves.
func (s *State) LegalMoves(dst []engine.Move) []engine.Move {
	if s.over {
		return dst
	}
	empty := ^(s.stones[0] | s.stones[1]) & fullMask
	n := len(dst)
	dst = slices.Grow(dst, 8*bits.OnesCount64(empty))
	dst = dst[:n+8*bits.OnesCount64(empty)]
	tab := &cellMoves[s.ply&1]
	for ; empty != 0; empty &= empty - 1 {
		*(*[8]engine.Move)(dst[n:]) = tab[bits.TrailingZeros64(empty)&63]
		n += 8
	}
	return dst
}

// cellMoves[p][cell] are the eight moves of player p on cell, in the
// framework's order. Filled once, never changed.
var cellMoves = func() (t [2][64][8]engine.Move) {
	for p := range t {
		for cell := 0; cell < cells; cell++ {
			for k := range t[p][cell] {
				t[p][cell][k] = encode(cell, k>>1, k&1, p)
			}
		}
	}
	return t
}()

// LegalCount is 8 per empty cell, as the framework counted.
func (s *State) LegalCount() int {
	if s.over {
		return 0
	}
	return 8 * (cells - bits.OnesCount64(s.stones[0]|s.stones[1]))
}

// Apply places the mover's stone, twists the quadrant and judges the
// post-twist board (§5, §6).
func (s *State) Apply(m engine.Move) {
	cell, a, b, _ := decode(m)
	me := s.ply & 1
	s.stones[me] |= uint64(1) << cell
	s.stones[0] = twist(s.stones[0], a, b)
	s.stones[1] = twist(s.stones[1], a, b)
	s.ply++
	if s.ply < 9 {
		// Before the mover's fifth stone neither side can hold five in
		// a row, and a twist only moves stones.
		return
	}
	mine, theirs := hasFive(s.stones[me]), hasFive(s.stones[me^1])
	switch {
	case mine && theirs:
		s.over, s.winner = true, engine.NoSeat
	case mine:
		s.over, s.winner = true, me
	case theirs:
		s.over, s.winner = true, me^1
	case s.ply >= maxPly:
		s.over, s.winner = true, engine.NoSeat
	}
}

// quadMask is a quadrant's nine cells seen from its top-left cell: three
// rows of three bits, six bits apart.
const quadMask = 0b111_000111_000111

// quadBase[q] is the bit of quadrant q's top-left cell.
var quadBase = [4]uint{0, 3, 18, 21}

// twisted[b][e] is the quadrant whose nine cells, packed as bit 3r+c in
// e, underwent operation b (0 clockwise rotation, 1 left-right mirror),
// spread back to the board's row stride (bit 6r+c). Filled once, never
// changed.
var twisted = func() (t [2][512]uint16) {
	for e := 0; e < 512; e++ {
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				if e>>(3*r+c)&1 == 0 {
					continue
				}
				// Rotation: new[c][2-r] = old[r][c]; mirror: new[r][2-c] = old[r][c].
				t[0][e] |= 1 << (6*c + 2 - r)
				t[1][e] |= 1 << (6*r + 2 - c)
			}
		}
	}
	return t
}()

// twist applies operation b (0 clockwise rotation, 1 left-right mirror) to
// quadrant q of one colour's bitboard: gather the nine cells, look the
// result up, put it back.
func twist(bb uint64, q, b int) uint64 {
	base := quadBase[q&3]
	x := bb >> base
	e := x&7 | x>>3&0o70 | x>>6&0o700
	return bb&^(quadMask<<base) | uint64(twisted[b&1][e&511])<<base
}

// Start cells of the 32 five-cell segments, per direction. A set bit i in
// the AND of five shifted copies means cells i, i+d, ..., i+4d are all set;
// the masks keep only starts whose segment stays on the board.
const (
	startsRow  = 0b000011_000011_000011_000011_000011_000011 // columns 0-1 of every row
	startsCol  = 0b111111_111111                             // rows 0-1
	startsDiag = 0b000011_000011                             // rows 0-1, columns 0-1
	startsAnti = 0b110000_110000                             // rows 0-1, columns 4-5
)

// hasFive reports a run of five (or six) in any direction. Runs of two
// are combined into runs of four and then five: three shifts per
// direction instead of four.
func hasFive(b uint64) bool {
	return run5(b, 1)&startsRow|run5(b, 6)&startsCol|run5(b, 7)&startsDiag|run5(b, 5)&startsAnti != 0
}

// run5 has bit i set when cells i, i+d, ..., i+4d are all set in b.
func run5(b uint64, d uint) uint64 {
	two := b & (b >> d)
	return two & (two >> (2 * d)) & (b >> (4 * d))
}

// Text is the §7 board: 36 characters, row-major, w/b/.
func (s *State) Text() string {
	var buf [cells]byte
	for i := range buf {
		bit := uint64(1) << i
		switch {
		case s.stones[White]&bit != 0:
			buf[i] = 'w'
		case s.stones[Black]&bit != 0:
			buf[i] = 'b'
		default:
			buf[i] = '.'
		}
	}
	return string(buf[:])
}

// Hash mixes both bitboards; the side to move and the ply follow from the
// stone count, so equal boards are equal positions.
func (s *State) Hash() uint64 {
	return mix64(s.stones[White]^0x9e3779b97f4a7c15) ^ mix64(s.stones[Black]+0x632be59bd9b4e019)*3
}

// mix64 is the splitmix64 finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Clone copies the position (no pointers inside).
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// CopyFrom overwrites s with src, which must be a *State: a plain value
// copy, no allocation.
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// RandomPlayoutMove draws uniformly over LegalMoves without listing the 8
// tuples of every empty cell: a uniform empty cell, then a uniform (a, b).
func (s *State) RandomPlayoutMove(r *rand.Rand) (engine.Move, bool) {
	if s.over {
		return 0, false
	}
	empty := ^(s.stones[0] | s.stones[1]) & fullMask
	v := r.Uint64()
	// The low 32 bits pick the cell (n ≤ 36, so the bias of a 32-bit
	// multiply-shift is below 1e-8), the top 3 bits the twist.
	n := uint64(bits.OnesCount64(empty))
	k := int((v & 0xffffffff) * n >> 32)
	cell := bitsel.Select(empty, k)
	return encode(cell, 0, 0, s.ply&1) | engine.Move(v>>61), true
}

// PlyFields adds the vectors' turn_number.
func (s *State) PlyFields(dst map[string]any) {
	dst["turn_number"] = s.TurnNumber()
}

// FormatMove writes `x y a b p` with single spaces.
func (s *State) FormatMove(m engine.Move) string {
	cell, a, b, p := decode(m)
	buf := make([]byte, 0, 9)
	buf = strconv.AppendInt(buf, int64(cell/size), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(cell%size), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(a), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(b), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(p), 10)
	return string(buf)
}

// ParseMove judges a reply as the course server did: the PentagoMove
// parser (split at single spaces, Integer.parseInt on the first five
// pieces) decides parseable or not, then isLegal decides legal or not.
func (s *State) ParseMove(text string) (engine.Move, error) {
	v, why := parseFive(text)
	if why != "" {
		return 0, &engine.MoveError{Kind: engine.Unparseable, Text: text, Detail: why}
	}
	x, y, a, b, p := v[0], v[1], v[2], v[3], v[4]
	why = ""
	switch {
	case x < 0 || x >= size:
		why = "row x=" + strconv.Itoa(x) + " is outside 0..5"
	case y < 0 || y >= size:
		why = "column y=" + strconv.Itoa(y) + " is outside 0..5"
	case a < 0 || a > 3:
		why = "quadrant a=" + strconv.Itoa(a) + " is outside 0..3"
	case b < 0 || b > 1:
		why = "operation b=" + strconv.Itoa(b) + " is outside 0..1"
	case s.over:
		why = "the game is over"
	case p != s.ply&1:
		why = "player id " + strconv.Itoa(p) + " is not the player to move (" + strconv.Itoa(s.ply&1) + ")"
	case (s.stones[0]|s.stones[1])&(uint64(1)<<(size*x+y)) != 0:
		why = "cell (" + strconv.Itoa(x) + ", " + strconv.Itoa(y) + ") is occupied"
	}
	if why != "" {
		return 0, &engine.MoveError{Kind: engine.Illegal, Text: text, Reason: IllegalReason(x, y, a, b, p), Detail: why}
	}
	return encode(size*x+y, a, b, p), nil
}

// IllegalReason is the server's result text for an illegal move: "ILLEGAL
// MOVE: " and the move's toPrettyString, with the values as written.
func IllegalReason(x, y, a, b, p int) string {
	return "ILLEGAL MOVE: Player " + strconv.Itoa(p) + ", Move: (" + strconv.Itoa(x) + ", " + strconv.Itoa(y) +
		"), R/F: (" + strconv.Itoa(a) + ", " + strconv.Itoa(b) + ")"
}

// parseFive reproduces `text.split(" ")` followed by Integer.parseInt on
// pieces 0..4. The text is one reply line: as Java's readLine, anything
// from the first CR or LF on is not part of it. It returns the five values
// or why the text is unparseable.
func parseFive(text string) (v [5]int, why string) {
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	// Java's split drops trailing empty pieces, so trailing spaces never
	// count as pieces; interior and leading empty pieces do.
	text = strings.TrimRight(text, " ")
	for i := 0; i < 5; i++ {
		if text == "" {
			return v, "expected 5 space-separated integers `x y a b p`, got " + strconv.Itoa(i)
		}
		piece := text
		if j := strings.IndexByte(text, ' '); j >= 0 {
			piece, text = text[:j], text[j+1:]
		} else {
			text = ""
		}
		n, ok := javaParseInt(piece)
		if !ok {
			return v, "piece " + strconv.Itoa(i+1) + " " + strconv.Quote(clip(piece)) + " is not a 32-bit decimal integer"
		}
		v[i] = n
	}
	return v, ""
}

// javaParseInt is Integer.parseInt(s, 10): an optional ASCII sign, then one
// or more decimal digits (any BMP Unicode decimal digit, as
// Character.digit), within the int32 range.
func javaParseInt(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
		if s == "" {
			return 0, false
		}
	}
	var n int64
	for _, r := range s {
		d, ok := javaDigit(r)
		if !ok {
			return 0, false
		}
		n = n*10 + int64(d)
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > 1<<31-1 || n < -(1<<31) {
		return 0, false
	}
	return int(n), true
}

// javaDigit is Character.digit(ch, 10) for one UTF-16 unit: Unicode
// decimal digits (category Nd) of the Basic Multilingual Plane; characters
// beyond it are surrogate pairs in Java and never digits.
func javaDigit(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if r < 0x80 || r > 0xFFFF || !isNd(r) {
		return 0, false
	}
	// Nd digits come in contiguous runs starting at zero.
	z := r
	for z > 0 && isNd(z-1) {
		z--
	}
	return int(r-z) % 10, true
}

func isNd(r rune) bool { return unicode.Is(unicode.Nd, r) }

// clip bounds the text quoted in a Detail.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}
