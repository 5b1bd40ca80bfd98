package hexcrossout

import (
	"fmt"
	"strconv"
	"strings"

	"arena/engine"
)

// ParseMove reads "x,y,l,dir" (four decimal integers, an optional '-'
// each, separated by single commas, nothing else) and checks it: x and y
// in 0..11, l in 1..3, dir in 1..6 when l ≥ 2 (ignored when l = 1), then
// the referee's checks: the start cell free, each further step on the
// board and free. Any tuple of the same cell set gives the same canonical
// move. Every rejection, unreadable text included, is engine.Illegal: the
// profile treats text that is not four integers as an illegal move.
func (s *State) ParseMove(text string) (engine.Move, error) {
	var v [4]int64
	parts := strings.Split(text, ",")
	if len(parts) != 4 {
		return 0, s.illegal(text, "not four comma-separated integers x,y,l,dir")
	}
	for k, p := range parts {
		n, ok := parseInt(p)
		if !ok {
			return 0, s.illegal(text, fmt.Sprintf("not four comma-separated integers x,y,l,dir (%q is not a decimal integer)", p))
		}
		v[k] = n
	}
	if s.over {
		return 0, s.illegal(text, "the game is over")
	}
	x, y, l, dir := v[0], v[1], v[2], v[3]
	if x < 0 || x >= side || y < 0 || y >= side {
		return 0, s.illegal(text, fmt.Sprintf("start cell (%s, %s) is outside the 12×12 board", parts[0], parts[1]))
	}
	if l < 1 || l > 3 {
		return 0, s.illegal(text, fmt.Sprintf("length %s is outside 1..3", parts[2]))
	}
	if l >= 2 && (dir < 1 || dir > 6) {
		return 0, s.illegal(text, fmt.Sprintf("direction %s is outside 1..6", parts[3]))
	}
	c := int(x)*side + int(y)
	if !s.free.has(c) {
		return 0, s.illegal(text, fmt.Sprintf("start cell (%d, %d) is %s", x, y, s.what(c)))
	}
	cur := c
	for k := 1; k < int(l); k++ {
		next := int(step[cur][dir-1])
		if next < 0 {
			return 0, s.illegal(text, fmt.Sprintf("cell %d of the line leaves the board", k+1))
		}
		if !s.free.has(next) {
			return 0, s.illegal(text, fmt.Sprintf("cell %d of the line, (%d, %d), is %s", k+1, next/side, next%side, s.what(next)))
		}
		cur = next
	}
	return canonical(c, int(l), int(dir)), nil
}

// what describes a cell that is not free.
func (s *State) what(c int) string {
	switch s.owner[c] {
	case 1:
		return "already crossed out by player 1"
	case 2:
		return "already crossed out by player 2"
	}
	return "an obstacle"
}

// parseInt reads an optional '-' and at least one decimal digit. Values
// beyond int64 become -1 or 12: they are integers, just out of every range
// (messages quote the text, not the value).
func parseInt(t string) (int64, bool) {
	d := strings.TrimPrefix(t, "-")
	if d == "" {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil { // only range errors remain
		if t[0] == '-' {
			return -1, true
		}
		return side, true
	}
	return n, true
}

// illegal builds the verdict; Reason names the course's player number.
func (s *State) illegal(text, why string) *engine.MoveError {
	p := s.toMove + 1
	return &engine.MoveError{
		Kind:   engine.Illegal,
		Text:   text,
		Reason: fmt.Sprintf("ILLEGAL MOVE: player %d played %q", p, text),
		Detail: why,
	}
}
