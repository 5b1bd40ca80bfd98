package search_test

import (
	"fmt"
	"strconv"

	"arena/engine"
)

// ttt is tic-tac-toe as an engine.State: X (seat 0) moves first; the
// board is 9 cells, moves are cell indices.
type ttt struct {
	cell [9]int8 // -1 empty, else the seat
	ply  int
}

func newTTT(moves ...int) *ttt {
	s := &ttt{}
	for i := range s.cell {
		s.cell[i] = -1
	}
	for _, m := range moves {
		s.Apply(engine.Move(m))
	}
	return s
}

var tttLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func (s *ttt) winner() int {
	for _, l := range tttLines {
		if c := s.cell[l[0]]; c >= 0 && c == s.cell[l[1]] && c == s.cell[l[2]] {
			return int(c)
		}
	}
	return engine.NoSeat
}

func (s *ttt) Terminal() bool { return s.winner() != engine.NoSeat || s.ply == 9 }
func (s *ttt) ToMove() int {
	if s.Terminal() {
		return engine.NoSeat
	}
	return s.ply & 1
}
func (s *ttt) Result() engine.Result {
	w := s.winner()
	return engine.Result{Winner: w, Draw: w == engine.NoSeat}
}
func (s *ttt) Scores() [2]int { return [2]int{} }
func (s *ttt) LegalMoves(dst []engine.Move) []engine.Move {
	if s.Terminal() {
		return dst
	}
	for i, c := range s.cell {
		if c < 0 {
			dst = append(dst, engine.Move(i))
		}
	}
	return dst
}
func (s *ttt) LegalCount() int { return len(s.LegalMoves(nil)) }
func (s *ttt) Apply(m engine.Move) {
	s.cell[m] = int8(s.ply & 1)
	s.ply++
}
func (s *ttt) ParseMove(text string) (engine.Move, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 || n > 8 || s.cell[n] >= 0 {
		return 0, &engine.MoveError{Kind: engine.Illegal, Text: text}
	}
	return engine.Move(n), nil
}
func (s *ttt) FormatMove(m engine.Move) string { return strconv.Itoa(int(m)) }
func (s *ttt) Text() string {
	b := make([]byte, 9)
	for i, c := range s.cell {
		b[i] = ".XO"[c+1]
	}
	return string(b)
}
func (s *ttt) Hash() uint64 {
	h := uint64(1469598103934665603)
	for _, c := range s.cell {
		h = (h ^ uint64(c+2)) * 1099511628211
	}
	return h
}
func (s *ttt) Ply() int                  { return s.ply }
func (s *ttt) Clone() engine.State       { c := *s; return &c }
func (s *ttt) CopyFrom(src engine.State) { *s = *src.(*ttt) }

// bonusNim is a race game with extra turns: a pile of stones, a move takes
// 1, 2 or 3; taking exactly 2 gives the same player another move; whoever
// takes the last stone wins. It has no Copier, so searches Clone.
type bonusNim struct {
	pile   int
	toMove int
	last   int // who moved last
	ply    int
}

func (s *bonusNim) Terminal() bool { return s.pile == 0 }
func (s *bonusNim) ToMove() int {
	if s.Terminal() {
		return engine.NoSeat
	}
	return s.toMove
}
func (s *bonusNim) Result() engine.Result                 { return engine.Result{Winner: s.last} }
func (s *bonusNim) Scores() [2]int                        { return [2]int{} }
func (s *bonusNim) LegalCount() int                       { return len(s.LegalMoves(nil)) }
func (s *bonusNim) ParseMove(string) (engine.Move, error) { return 0, fmt.Errorf("not used") }
func (s *bonusNim) FormatMove(m engine.Move) string       { return strconv.Itoa(int(m)) }
func (s *bonusNim) Text() string                          { return fmt.Sprintf("%d/%d", s.pile, s.toMove) }
func (s *bonusNim) Hash() uint64                          { return uint64(s.pile)<<1 | uint64(s.toMove) }
func (s *bonusNim) Ply() int                              { return s.ply }
func (s *bonusNim) Clone() engine.State                   { c := *s; return &c }
func (s *bonusNim) LegalMoves(dst []engine.Move) []engine.Move {
	for k := 1; k <= 3 && k <= s.pile; k++ {
		dst = append(dst, engine.Move(k))
	}
	return dst
}
func (s *bonusNim) Apply(m engine.Move) {
	s.pile -= int(m)
	s.last = s.toMove
	s.ply++
	if m != 2 {
		s.toMove = 1 - s.toMove
	}
}

// minimax is the reference: plain minimax for seat me, no pruning, the
// same win values as the library (Win less the distance in plies).
func minimax(st engine.State, me, depth, ply int, eval func(engine.State, int) float64) float64 {
	if st.Terminal() {
		r := st.Result()
		switch {
		case r.Draw || r.Winner == engine.NoSeat:
			return 0
		case r.Winner == me:
			return 1e9 - float64(ply)
		}
		return -1e9 + float64(ply)
	}
	if depth == 0 {
		return eval(st, me)
	}
	maxing := st.ToMove() == me
	best := 0.0
	for i, m := range st.LegalMoves(nil) {
		c := st.Clone()
		c.Apply(m)
		v := minimax(c, me, depth-1, ply+1, eval)
		if i == 0 || (maxing && v > best) || (!maxing && v < best) {
			best = v
		}
	}
	return best
}
