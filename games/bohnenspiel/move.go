package bohnenspiel

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"arena/engine"
)

// A Move packs the player in bit 3 and a code in bits 0-2: the pit 0..5, or
// codeSkip. Keeping the player in the move lets FormatMove work without the
// position (e.g. for logging after Apply).
const (
	codeSkip   = 6
	codeMask   = 7
	playerBit  = 3
	illegalPre = "ILLEGAL MOVE: "
)

func pitMove(p, i uint8) engine.Move { return engine.Move(uint32(p)<<playerBit | uint32(i)) }
func skipMove(p uint8) engine.Move   { return engine.Move(uint32(p)<<playerBit | codeSkip) }
func moveCode(m engine.Move) uint32  { return uint32(m) & codeMask }
func movePlayer(m engine.Move) int   { return int(uint32(m)>>playerBit) & 1 }

// PitMove encodes "PIT p i" (p 0 or 1, i 0..5).
func PitMove(p, i int) engine.Move { return pitMove(uint8(p&1), uint8(i)) }

// SkipMove encodes "SKIP p" (p 0 or 1).
func SkipMove(p int) engine.Move { return skipMove(uint8(p & 1)) }

// FormatMove writes the framework's move text, "PIT p i" or "SKIP p".
func (s *State) FormatMove(m engine.Move) string { return formatMove(m) }

func formatMove(m engine.Move) string {
	p := strconv.Itoa(movePlayer(m))
	switch c := moveCode(m); {
	case c < pitsPerSide:
		return "PIT " + p + " " + strconv.Itoa(int(c))
	case c == codeSkip:
		return "SKIP " + p
	}
	return "INVALID " + strconv.FormatUint(uint64(m), 10)
}

// moveType is the framework's MoveType.
type moveType uint8

const (
	typePit moveType = iota
	typeSkip
	typeNothing
)

// written is a move as the framework's parser read it: any int32 player and
// pit, so an illegal move can be shown exactly as sent.
type written struct {
	typ    moveType
	player int32
	pit    int32
}

// firstLine cuts text at its first line break, as Java's readLine.
func firstLine(text string) string {
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		return text[:i]
	}
	return text
}

// display is the framework's toPrettyString.
func (w written) display() string {
	p := strconv.Itoa(int(w.player))
	switch w.typ {
	case typeNothing:
		return "Player " + p + " ends turn."
	case typeSkip:
		return "Player " + p + " skips turn."
	}
	return "Player " + p + " plays pit " + strconv.Itoa(int(w.pit))
}

// ParseMove judges a reply of the side to move. Text the framework's parser
// rejected is engine.Unparseable with no reason (the referee treats it as no
// reply); a parsed move the rules forbid, a pit outside 0..5 included, is
// engine.Illegal with the reason "ILLEGAL MOVE: <display text>". The
// reply is one line, as the course server's readLine read it: a line
// break ("\n", "\r\n" or "\r") and anything after it are not part of it.
func (s *State) ParseMove(text string) (engine.Move, error) {
	w, detail := parseWritten(firstLine(text))
	if detail != "" {
		return 0, &engine.MoveError{Kind: engine.Unparseable, Text: text, Detail: detail}
	}
	m, detail := s.judge(w)
	if detail != "" {
		return 0, &engine.MoveError{Kind: engine.Illegal, Text: text, Reason: illegalPre + w.display(), Detail: detail}
	}
	return m, nil
}

// judge returns the encoded move, or why it is illegal now.
func (s *State) judge(w written) (engine.Move, string) {
	if s.end != notOver {
		return 0, "the game is over"
	}
	if w.typ == typeNothing {
		return 0, "NOTHING is never a legal move"
	}
	p := s.toMove
	if w.player != int32(p) {
		return 0, fmt.Sprintf("it is player %d's turn, not player %d's", p, w.player)
	}
	if w.typ == typeSkip {
		switch {
		case s.credit[p] == 0:
			return 0, fmt.Sprintf("player %d has no skip credits left", p)
		case s.barred[p]:
			return 0, fmt.Sprintf("player %d may not skip right after the opponent's skip", p)
		}
		return skipMove(p), ""
	}
	if w.pit < 0 || w.pit >= pitsPerSide {
		return 0, fmt.Sprintf("pit %d is outside 0..5", w.pit)
	}
	if s.pits[pitsPerSide*int(p)+int(w.pit)] == 0 {
		return 0, fmt.Sprintf("pit %d is empty", w.pit)
	}
	return pitMove(p, uint8(w.pit)), ""
}

// parseWritten follows the framework's BohnenspielMove(String): split on
// single spaces, read the player id, then match the type exactly, then read
// the pit for PIT; later tokens are ignored. It returns why the text is
// unparseable, or "".
func parseWritten(text string) (written, string) {
	tok := javaSplit(text)
	if len(tok) == 0 {
		return written{}, "no move type: the text is only spaces"
	}
	if len(tok) < 2 {
		if text == "" {
			return written{}, "empty move text"
		}
		return written{}, "missing player id after " + short(tok[0])
	}
	var w written
	var ok bool
	if w.player, ok = javaInt(tok[1]); !ok {
		return written{}, "player id " + short(tok[1]) + " is not a 32-bit integer"
	}
	switch tok[0] {
	case "NOTHING":
		w.typ = typeNothing
	case "SKIP":
		w.typ = typeSkip
	case "PIT":
		w.typ = typePit
		if len(tok) < 3 {
			return written{}, "missing pit number after the player id"
		}
		if w.pit, ok = javaInt(tok[2]); !ok {
			return written{}, "pit " + short(tok[2]) + " is not a 32-bit integer"
		}
	default:
		return written{}, "unknown move type " + short(tok[0]) + " (want PIT, SKIP or NOTHING, exact case)"
	}
	return w, ""
}

// javaSplit is Java's String.split(" "): split on every single space and,
// when the text contained a space, drop trailing empty tokens.
func javaSplit(text string) []string {
	tok := strings.Split(text, " ")
	if len(tok) == 1 {
		return tok
	}
	for len(tok) > 0 && tok[len(tok)-1] == "" {
		tok = tok[:len(tok)-1]
	}
	return tok
}

// javaInt is Integer.valueOf(String): an optional '+' or '-', then one or
// more decimal digits, within int32. Like Java's Character.digit, any
// Unicode decimal digit (category Nd) in the Basic Multilingual Plane
// counts, since Java examined UTF-16 code units one at a time.
func javaInt(t string) (int32, bool) {
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, false
	}
	var v int64
	for _, r := range t {
		d := digitValue(r)
		if d < 0 {
			return 0, false
		}
		v = v*10 + int64(d)
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}

// digitValue is the decimal value of a BMP Unicode digit, or -1. Unicode
// encodes each script's digits 0-9 as consecutive code points and Go's
// unicode.Nd table keeps them in ranges of stride 1 starting at a zero, so
// the value is the offset within the range modulo 10.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || r > 0xFFFF {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if uint16(r) < rg.Lo {
			return -1
		}
		if uint16(r) <= rg.Hi {
			if rg.Stride != 1 {
				return -1
			}
			return int(uint16(r)-rg.Lo) % 10
		}
	}
	return -1
}

// short quotes a token for a message, cut to keep messages bounded.
func short(t string) string {
	const limit = 24
	if len(t) > limit {
		cut := limit
		for cut > 0 && !utf8Start(t[cut]) {
			cut--
		}
		return strconv.Quote(t[:cut]) + "..."
	}
	return strconv.Quote(t)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
