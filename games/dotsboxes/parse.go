package dotsboxes

import (
	"strconv"

	"arena/engine"
)

// ParseMove reads `[[a,b],[c,d]]` as JSON: whitespace is allowed wherever
// JSON allows it and the dots may come in either order. Anything that is not
// a JSON array of two arrays of two integers is unparseable; a line that is
// off the board, joins non-adjacent dots or is already drawn is illegal.
// Both carry the reason "INVALID MOVE: <text>: <why>".
func (s *State) ParseMove(text string) (engine.Move, error) {
	v, tok, why := scanLine(text)
	if why != "" {
		return 0, &engine.MoveError{
			Kind:   engine.Unparseable,
			Text:   text,
			Reason: "INVALID MOVE: " + strconv.Quote(clip(text, 40)) + ": " + why,
			Detail: why,
		}
	}
	g := s.g
	a, b, c, d := v[0], v[1], v[2], v[3]
	why = ""
	switch {
	case a < 0 || a >= int64(g.rows) || b < 0 || b >= int64(g.cols):
		why = "dot [" + tok[0] + "," + tok[1] + "] is off the " + strconv.Itoa(g.rows) + "x" + strconv.Itoa(g.cols) + " board"
	case c < 0 || c >= int64(g.rows) || d < 0 || d >= int64(g.cols):
		why = "dot [" + tok[2] + "," + tok[3] + "] is off the " + strconv.Itoa(g.rows) + "x" + strconv.Itoa(g.cols) + " board"
	}
	var line int
	if why == "" {
		line = g.line(int(a), int(b), int(c), int(d))
		switch {
		case line < 0:
			why = "the dots are not adjacent"
		case s.left == 0:
			why = "the game is over"
		case s.drawer(line) >= 0:
			why = "the line is already drawn"
		}
	}
	if why != "" {
		written := "[[" + tok[0] + "," + tok[1] + "],[" + tok[2] + "," + tok[3] + "]]"
		return 0, &engine.MoveError{
			Kind:   engine.Illegal,
			Text:   text,
			Reason: "INVALID MOVE: " + written + ": " + why,
			Detail: why,
		}
	}
	return engine.Move(line), nil
}

// scanLine parses the JSON text. It returns the four integers (saturated
// far off any board when huge), their tokens as written (clipped) for
// messages, or why the text is not a line.
func scanLine(text string) (v [4]int64, tok [4]string, why string) {
	p := scanner{s: text}
	if !p.expect('[') {
		return v, tok, p.fail("'['")
	}
	for k := 0; k < 2; k++ {
		if k == 1 && !p.expect(',') {
			return v, tok, p.fail("','")
		}
		if !p.expect('[') {
			return v, tok, p.fail("'[' opening a dot")
		}
		for j := 0; j < 2; j++ {
			if j == 1 && !p.expect(',') {
				return v, tok, p.fail("',' between coordinates")
			}
			n, t, w := p.integer()
			if w != "" {
				return v, tok, w
			}
			v[2*k+j], tok[2*k+j] = n, t
		}
		if !p.expect(']') {
			return v, tok, p.fail("']' closing a dot with two coordinates")
		}
	}
	if !p.expect(']') {
		return v, tok, p.fail("']' after two dots")
	}
	p.skipSpace()
	if p.i < len(p.s) {
		return v, tok, "unexpected text after the line at offset " + strconv.Itoa(p.i)
	}
	return v, tok, ""
}

// scanner walks JSON text.
type scanner struct {
	s string
	i int
}

// skipSpace skips JSON whitespace (space, tab, LF, CR).
func (p *scanner) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// expect consumes optional whitespace and then c.
func (p *scanner) expect(c byte) bool {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *scanner) fail(want string) string {
	if p.i >= len(p.s) {
		return "not a JSON pair of two-integer dots: expected " + want + " at the end"
	}
	return "not a JSON pair of two-integer dots: expected " + want + " at offset " + strconv.Itoa(p.i)
}

// integer reads a JSON number that is an integer: -?(0|[1-9][0-9]*) with no
// fraction or exponent.
func (p *scanner) integer() (int64, string, string) {
	p.skipSpace()
	start := p.i
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	nd := p.i - digits
	switch {
	case nd == 0:
		p.i = start
		return 0, "", p.fail("an integer")
	case nd > 1 && p.s[digits] == '0':
		return 0, "", "not a JSON pair of two-integer dots: leading zero at offset " + strconv.Itoa(digits)
	case p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == 'e' || p.s[p.i] == 'E'):
		return 0, "", "not a JSON pair of two-integer dots: coordinate at offset " + strconv.Itoa(start) + " is not an integer"
	}
	tok := p.s[start:p.i]
	var n int64
	for _, ch := range p.s[digits:p.i] {
		// Held at 2^40, far off any board: the exact value does not matter.
		n = min(n*10+int64(ch-'0'), 1<<40)
	}
	if p.s[start] == '-' {
		n = -n
	}
	return n, clip(tok, 20), ""
}

// clip bounds text quoted in messages.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
