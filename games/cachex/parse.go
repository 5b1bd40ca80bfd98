package cachex

import (
	"strconv"
	"strings"

	"arena/engine"
)

// seeRules ends every course message about an invalid action.
const seeRules = " See the specification/game rules for details."

// Course reason texts for invalid actions (§8.2 of the rules).
const (
	msgMalformed = "Action does not exist or is not well formed."
	msgSteal     = "The STEAL action is not currently permitted. This action may only be played by the blue player on their *first* move of the game."
	msgCentre    = "The PLACE action is not permitted in the center cell of the board on the first move of the game."
)

// ParseMove accepts exactly "STEAL" or "PLACE <int> <int>" (single spaces,
// integers as an optional '-' and decimal digits within int64) and checks
// the action in the referee's order. Every failure carries Reason
// "error: invalid action!" and the course's message as Detail.
func (s *State) ParseMove(text string) (engine.Move, error) {
	if text == "STEAL" {
		if s.over {
			return 0, gameOver(text)
		}
		if s.t != 1 {
			return 0, invalid(engine.Illegal, text, msgSteal)
		}
		return moveSteal, nil
	}
	rest, ok := strings.CutPrefix(text, "PLACE ")
	if !ok {
		return 0, invalid(engine.Unparseable, text, msgMalformed)
	}
	rs, qs, ok := strings.Cut(rest, " ")
	if !ok {
		return 0, invalid(engine.Unparseable, text, msgMalformed)
	}
	r, ok1 := parseInt(rs)
	q, ok2 := parseInt(qs)
	if !ok1 || !ok2 {
		return 0, invalid(engine.Unparseable, text, msgMalformed)
	}
	if s.over {
		return 0, gameOver(text)
	}
	n := int64(s.g.n)
	coord := "(" + strconv.FormatInt(r, 10) + ", " + strconv.FormatInt(q, 10) + ")"
	if r < 0 || r >= n || q < 0 || q >= n {
		return 0, invalid(engine.Illegal, text,
			"The PLACE action coordinate "+coord+" is outside the bounds of the board (n = "+strconv.FormatInt(n, 10)+").")
	}
	i := int(r*n + q)
	if s.t == 0 && i == s.g.centre {
		return 0, invalid(engine.Illegal, text, msgCentre)
	}
	if s.cells[i] != empty {
		return 0, invalid(engine.Illegal, text, "The PLACE action coordinate "+coord+" is already occupied.")
	}
	return engine.Move(i), nil
}

// parseInt reads an optional '-' followed by at least one decimal digit;
// anything else, including '+', spaces and values outside int64, fails.
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
	v, err := strconv.ParseInt(t, 10, 64)
	return v, err == nil
}

func invalid(kind engine.MoveErrorKind, text, msg string) *engine.MoveError {
	return &engine.MoveError{Kind: kind, Text: text, Reason: ReasonInvalid, Detail: msg + seeRules}
}

// gameOver rejects any action after the end; the referee never asked for
// one, so the message is the arena's own.
func gameOver(text string) *engine.MoveError {
	return &engine.MoveError{Kind: engine.Illegal, Text: text, Reason: ReasonInvalid,
		Detail: "The game is already over; no action is permitted."}
}
