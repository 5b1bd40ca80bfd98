package bohnenspiel

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"

	"arena/engine"
)

const (
	pitsPerSide  = 6
	ringSize     = 2 * pitsPerSide
	startSeeds   = 6
	totalSeeds   = ringSize * startSeeds
	startCredits = 2
	// maxTurn is the framework's MAX_TURN: the game ends once the round
	// counter exceeds it.
	maxTurn = 200
)

// ending records how a finished game ended.
type ending uint8

const (
	notOver      ending = iota
	noValidMoves        // the player to move had no legal move; seeds swept
	maxTurnLimit        // the round counter passed maxTurn; seeds stay
)

// Labels used by the vectors' result.reason.
const (
	LabelNoValidMoves = "no_valid_moves"
	LabelMaxTurn      = "max_turn"
)

// State is one Bohnenspiel position. It is a small value with no pointers, so
// Clone and plain assignment copy it completely.
type State struct {
	pits   [ringSize]uint8 // ring order: board[0][0..5], then board[1][0..5]
	score  [2]uint8        // at most 72 each
	credit [2]uint8        // skip credits left
	barred [2]bool         // may not skip this turn (the framework's turnsToSkip)
	toMove uint8           // seat to move; the last mover's opponent once over
	end    ending
	turn   uint16 // completed rounds (moves by player 1), the framework's turn_number
	ply    uint16
}

var (
	_ engine.State         = (*State)(nil)
	_ engine.PlyFielder    = (*State)(nil)
	_ engine.EndingLabeler = (*State)(nil)
	_ engine.Evaluator     = (*State)(nil)
	_ engine.Copier        = (*State)(nil)
	_ engine.PlayoutMover  = (*State)(nil)
)

// New returns the start position.
func New() *State {
	s := &State{credit: [2]uint8{startCredits, startCredits}}
	for i := range s.pits {
		s.pits[i] = startSeeds
	}
	return s
}

// ToMove is the seat to move, or engine.NoSeat once the game is over.
func (s *State) ToMove() int {
	if s.end != notOver {
		return engine.NoSeat
	}
	return int(s.toMove)
}

// Terminal reports whether the game is over.
func (s *State) Terminal() bool { return s.end != notOver }

// Result is the outcome by score; the reason is empty because the course
// wrote none for a normal end (EndingLabel gives the kind of ending).
func (s *State) Result() engine.Result {
	r := engine.Result{Winner: engine.NoSeat, Scores: s.Scores()}
	if s.end == notOver {
		return r
	}
	switch {
	case s.score[0] > s.score[1]:
		r.Winner = 0
	case s.score[1] > s.score[0]:
		r.Winner = 1
	default:
		r.Draw = true
	}
	return r
}

// EndingLabel is the vectors' label for how the game ended, "" while it goes on.
func (s *State) EndingLabel() string {
	switch s.end {
	case noValidMoves:
		return LabelNoValidMoves
	case maxTurnLimit:
		return LabelMaxTurn
	}
	return ""
}

// Scores are the seeds each player has captured (plus the final sweep).
func (s *State) Scores() [2]int { return [2]int{int(s.score[0]), int(s.score[1])} }

// Pit returns the seeds in pit i (0..5) of player p.
func (s *State) Pit(p, i int) int { return int(s.pits[pitsPerSide*p+i]) }

// SkipCredits returns the skip credits player p has left.
func (s *State) SkipCredits(p int) int { return int(s.credit[p]) }

// Barred reports whether player p may not skip on its turn.
func (s *State) Barred(p int) bool { return s.barred[p] }

// TurnNumber is the framework's turn_number: completed rounds.
func (s *State) TurnNumber() int { return int(s.turn) }

// Ply counts the moves applied so far.
func (s *State) Ply() int { return int(s.ply) }

// canSkip reports whether p may spend a skip credit now.
func (s *State) canSkip(p uint8) bool { return s.credit[p] > 0 && !s.barred[p] }

// words loads the ring as two words, pits 0..7 in lo and pits 8..11 in
// the low four bytes of hi: the widths Apply stores, so a load right after
// an Apply is forwarded from its stores (a word straddling both stores,
// such as pits 4..11, waits until they reach the cache).
func (s *State) words() (lo, hi uint64) {
	return binary.LittleEndian.Uint64(s.pits[0:8]), uint64(binary.LittleEndian.Uint32(s.pits[8:12]))
}

// sideOf returns player p's six pits from the ring's words as the low six
// bytes of a word, pit i in byte i. The branch follows the alternating
// turns, which predict well; a shift by 48p would lengthen the chain of
// dependent operations every ply waits for.
func sideOf(lo, hi uint64, p uint8) uint64 {
	if p == 0 {
		return lo & sideMask
	}
	return lo>>48 | hi<<16
}

// side returns player p's six pits as the low six bytes of a word, pit i
// in byte i.
func (s *State) side(p uint8) uint64 {
	lo, hi := s.words()
	return sideOf(lo, hi, p)
}

const (
	sideMask = 1<<48 - 1
	lowBits  = 0x7f7f7f7f7f7f7f7f
	highBits = 0x8080808080808080
)

// nonEmpty maps each non-zero byte of x to 0x80 and each zero byte to 0.
func nonEmpty(x uint64) uint64 {
	return ((x & lowBits) + lowBits | x) & highBits
}

// sideBits maps nonEmpty(side) (bits 7, 15, ..., 47) to a 6-bit mask, pit
// i in bit i: after the shift pit i is bit 8i, and the multiply sends it
// to bit 56+i. The other products land at 56-7i+8j for j < i, all below
// bit 56 and all distinct (8(j-j') = 7(i-i') has no other solution for
// pits 0..5), so nothing carries into the top byte.
func sideBits(nz uint64) uint {
	const gather = 1<<56 | 1<<49 | 1<<42 | 1<<35 | 1<<28 | 1<<21
	return uint((nz>>7)*gather>>56) & 63
}

// moveLists[p<<7|skip<<6|pits] is the framework's list for player p whose
// non-empty pits are the 6-bit mask pits, SKIP last when skip is 1, with
// moveCounts its length. LegalMoves copies one of them as a block. Filled
// once, never changed.
var moveLists, moveCounts = func() (t [256][8]engine.Move, n [256]uint8) {
	for idx := range t {
		p, skip, pits := uint8(idx>>7), idx>>6&1, idx&63
		for i := uint8(0); i < pitsPerSide; i++ {
			if pits>>i&1 != 0 {
				t[idx][n[idx]] = pitMove(p, i)
				n[idx]++
			}
		}
		if skip != 0 {
			t[idx][n[idx]] = skipMove(p)
			n[idx]++
		}
	}
	return t, n
}()

// listIndex is the moveLists index of the side to move's list.
func (s *State) listIndex() uint {
	p := s.toMove & 1
	idx := uint(p)<<7 | sideBits(nonEmpty(s.side(p)))
	if s.canSkip(p) {
		idx |= 1 << 6
	}
	return idx
}

// LegalMoves appends the framework's list: non-empty pits ascending, then
// SKIP when allowed.
func (s *State) LegalMoves(dst []engine.Move) []engine.Move {
	if s.end != notOver {
		return dst
	}
	idx := s.listIndex() & 255
	n := len(dst)
	if cap(dst)-n < 8 {
		dst = growMoves(dst)
	}
	*(*[8]engine.Move)(dst[n : n+8]) = moveLists[idx]
	return dst[:n+int(moveCounts[idx])]
}

// growMoves makes room for a whole moveLists entry, out of line: a
// searcher's buffer has the room already.
//
//go:noinline
func growMoves(dst []engine.Move) []engine.Move { return slices.Grow(dst, 8) }

// LegalCount is the length of the framework's list, SKIP included.
func (s *State) LegalCount() int {
	if s.end != notOver {
		return 0
	}
	p := s.toMove
	n := bits.OnesCount64(nonEmpty(s.side(p)))
	if s.canSkip(p) {
		n++
	}
	return n
}

// Apply plays a legal move of the side to move. The ring stays in two
// registers from load to store: one table entry sows the move, and the
// captures and the test for the next player's empty row read the
// registers, not bytes just stored.
func (s *State) Apply(m engine.Move) {
	mover := s.toMove & 1
	opp := mover ^ 1
	lo, hi := s.words()
	if code := uint(moveCode(m)); code == codeSkip {
		s.credit[mover]--
		s.barred[opp] = true
	} else {
		// A bounds check, not a remainder, keeps r0 in the ring: it
		// costs no latency, a remainder's multiply does.
		r0 := pitsPerSide*uint(mover) + code
		var last uint
		lo, hi, last = sow(lo, hi, s.pits[r0], r0)
		if capturable(pitIn(lo, hi, last)) {
			var took uint8
			lo, hi, took = capture(lo, hi, last)
			s.score[mover] += took
		}
		binary.LittleEndian.PutUint64(s.pits[0:8], lo)
		binary.LittleEndian.PutUint32(s.pits[8:12], uint32(hi))
		s.barred[mover] = false
	}
	if mover == 1 {
		s.turn++
	}
	s.ply++
	s.toMove = opp
	// The framework's updateWinner with variant B's hasValidMoves: a
	// player to move without a legal move ends the game. The empty row
	// first: it is rare, so the test predicts well.
	if sideOf(lo, hi, opp) == 0 && !s.canSkip(opp) {
		s.sweep(mover)
		return
	}
	if s.turn > maxTurn {
		s.end = maxTurnLimit
	}
}

// sweep ends the game for want of a legal move: the mover takes every
// seed left.
func (s *State) sweep(mover uint8) {
	var sum uint8
	for i := range s.pits {
		sum += s.pits[i]
		s.pits[i] = 0
	}
	s.score[mover] += sum
	s.end = noValidMoves
}

// sowing is what emptying a pit does to the ring's words: add lo and hi
// (wrapping) to the words, and the last seed lands in ring pit last.
type sowing struct {
	lo   uint64
	hi   uint32
	last uint32
}

// sowings[n][r0] is the sowing of the n seeds of ring pit r0: one seed in
// each of the n pits after it, whole laps adding one to every pit (the
// origin included), less the n seeds taken from the origin. The origin
// holds exactly n, so subtracting them borrows nothing from the next
// lane, and every pit holds at most 72 seeds, so no lane carries: one
// addition per word sows the whole move. Filled once, never changed.
var sowings = func() (t [totalSeeds + 1][ringSize]sowing) {
	for n := range t {
		for r0 := range t[n] {
			var lanes [ringSize]uint8
			for j := 1; j <= n; j++ {
				lanes[(r0+j)%ringSize]++
			}
			sw := sowing{
				lo:   binary.LittleEndian.Uint64(lanes[0:8]),
				hi:   binary.LittleEndian.Uint32(lanes[8:12]),
				last: uint32((r0 + n) % ringSize),
			}
			// Taking the seeds is a subtraction of whole words, wrapping
			// here and exact once added to a ring whose origin holds n.
			if r0 < 8 {
				sw.lo -= uint64(n) << (8 * r0)
			} else {
				sw.hi -= uint32(n) << (8 * (r0 - 8))
			}
			t[n][r0] = sw
		}
	}
	return t
}()

// pitIn reads ring pit r from the ring's words (a shift past 63 gives 0,
// so the word that does not hold r adds nothing).
func pitIn(lo, hi uint64, r uint) uint8 { return uint8(lo>>(8*r) | hi>>(8*r-64)) }

// sow empties ring pit r0 of the ring words lo, hi, which holds n seeds,
// into the following pits; it returns the new words and the pit the last
// seed fell in.
func sow(lo, hi uint64, n uint8, r0 uint) (uint64, uint64, uint) {
	sw := &sowings[n][r0]
	return lo + sw.lo, uint64(uint32(hi) + sw.hi), uint(sw.last)
}

// capturable reports whether a pit holding c seeds is captured.
func capturable(c uint8) bool { return c == 2 || c == 4 || c == 6 }

// capture empties the pits from last backwards while they hold 2, 4 or
// 6 seeds; it returns the new words and the seeds captured. It follows
// about one move in four, out of line.
func capture(lo, hi uint64, last uint) (uint64, uint64, uint8) {
	var took uint8
	for c := pitIn(lo, hi, last); capturable(c); c = pitIn(lo, hi, last) {
		took += c
		lo &^= 0xff << (8 * last)
		hi &^= 0xff << (8*last - 64) // a shift past 63 gives 0
		last = (last + ringSize - 1) % ringSize
	}
	return lo, hi, took
}

// Text is the canonical board text of §7.
func (s *State) Text() string {
	var buf [80]byte
	b := buf[:0]
	for i, c := range s.pits {
		switch i {
		case 0:
		case pitsPerSide:
			b = append(b, '|')
		default:
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(c), 10)
	}
	b = append(b, "|skip="...)
	b = strconv.AppendUint(b, uint64(s.credit[0]), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(s.credit[1]), 10)
	b = append(b, "|blocked="...)
	b = append(b, '0'+b2u(s.barred[0]), ',', '0'+b2u(s.barred[1]))
	b = append(b, "|turn="...)
	b = strconv.AppendUint(b, uint64(s.turn), 10)
	return string(b)
}

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// String is the canonical board text.
func (s *State) String() string { return s.Text() }

// Hash mixes every field that affects play: pits, scores, credits, bars,
// side to move (2 once over) and the round counter. The ply is implied by
// the round counter and the side to move.
func (s *State) Hash() uint64 {
	w0 := binary.LittleEndian.Uint64(s.pits[0:8])
	w1 := uint64(binary.LittleEndian.Uint32(s.pits[8:12])) |
		uint64(s.score[0])<<32 | uint64(s.score[1])<<40 |
		uint64(s.credit[0])<<48 | uint64(s.credit[1])<<52 |
		uint64(b2u(s.barred[0]))<<56 | uint64(b2u(s.barred[1]))<<57
	toMove := uint64(s.toMove)
	if s.end != notOver {
		toMove = 2
	}
	w2 := uint64(s.turn) | toMove<<16
	return mix(w0 ^ mix(w1^mix(w2+0x9e3779b97f4a7c15)))
}

// mix is the splitmix64 finaliser: cheap, and every input bit affects every
// output bit.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Clone returns an independent copy.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// CopyFrom overwrites s with src, which must be a *State: a plain value
// copy, no allocation.
func (s *State) CopyFrom(src engine.State) { *s = *src.(*State) }

// RandomPlayoutMove draws uniformly over LegalMoves without listing them.
func (s *State) RandomPlayoutMove(r *rand.Rand) (engine.Move, bool) {
	if s.end != notOver {
		return 0, false
	}
	idx := s.listIndex() & 255
	n := int(moveCounts[idx])
	if n == 0 {
		return 0, false // unreachable: Apply ends such a game
	}
	// A 32-bit multiply-shift of one random word: n ≤ 7, so its bias is
	// below 2e-9, far under what a playout can notice.
	k := (r.Uint64() & 0xffffffff) * uint64(n) >> 32
	return moveLists[idx][k&7], true
}

// PlyFields adds the vectors' "legal" list (move texts in framework order).
func (s *State) PlyFields(dst map[string]any) {
	var buf [pitsPerSide + 1]engine.Move
	moves := s.LegalMoves(buf[:0])
	legal := make([]string, len(moves))
	for i, m := range moves {
		legal[i] = s.FormatMove(m)
	}
	dst["legal"] = legal
}

// Evaluate is the score difference from seat's view plus a small bonus for
// seeds on seat's own row, which it alone can sow from.
func (s *State) Evaluate(seat int) float64 {
	opp := 1 - seat
	var own, theirs int
	for i := 0; i < pitsPerSide; i++ {
		own += int(s.pits[pitsPerSide*seat+i])
		theirs += int(s.pits[pitsPerSide*opp+i])
	}
	return float64(int(s.score[seat])-int(s.score[opp])) + 0.1*float64(own-theirs)
}
