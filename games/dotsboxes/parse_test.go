package dotsboxes

import (
	"strconv"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

// TestParseMoveReasons pins the reasons of rejected moves where a
// message could go wrong without the verdict changing: text that ends
// where more was expected ("at the end") against a wrong character
// ("at offset N", counted in bytes from 0), the clipping of quoted text
// at 40 bytes and of coordinates at 20, and each coordinate of each dot
// off the board by one on either side.
func TestParseMoveReasons(t *testing.T) {
	s := newState(t, 4, 6)
	notJSON := "not a JSON pair of two-integer dots: "
	at40 := "[[1,2],[1,3]]" + strings.Repeat(" ", 26) + "x" // 40 bytes, x at offset 39
	at41 := "[[1,2],[1,3]]" + strings.Repeat(" ", 27) + "x" // 41 bytes
	enginetest.ExpectRejected(t, s, engine.Unparseable, map[string]string{
		"[[":               `INVALID MOVE: "[[": ` + notJSON + "expected an integer at the end",
		"[[1,2],[1,":       `INVALID MOVE: "[[1,2],[1,": ` + notJSON + "expected an integer at the end",
		"[[1,2],[1,3":      `INVALID MOVE: "[[1,2],[1,3": ` + notJSON + "expected ']' closing a dot with two coordinates at the end",
		"[[1,2],[1,3]":     `INVALID MOVE: "[[1,2],[1,3]": ` + notJSON + "expected ']' after two dots at the end",
		"[[1,2],[1,3]x":    `INVALID MOVE: "[[1,2],[1,3]x": ` + notJSON + "expected ']' after two dots at offset 12",
		"[[1,2]x[1,3]]":    `INVALID MOVE: "[[1,2]x[1,3]]": ` + notJSON + "expected ',' at offset 6",
		"[[01,2],[1,3]]":   `INVALID MOVE: "[[01,2],[1,3]]": ` + notJSON + "leading zero at offset 2",
		"[[ 1.5,2],[1,3]]": `INVALID MOVE: "[[ 1.5,2],[1,3]]": ` + notJSON + "coordinate at offset 3 is not an integer",
		"[[1,2],[1,-3e0]]": `INVALID MOVE: "[[1,2],[1,-3e0]]": ` + notJSON + "coordinate at offset 10 is not an integer",
		at40:               "INVALID MOVE: " + strconv.Quote(at40) + ": unexpected text after the line at offset 39",
		at41:               "INVALID MOVE: " + strconv.Quote(at41[:40]+"...") + ": unexpected text after the line at offset 40",
	})
	twenty := "12345678901234567890"
	enginetest.ExpectRejected(t, s, engine.Illegal, map[string]string{
		"[[4,0],[3,0]]":                   "INVALID MOVE: [[4,0],[3,0]]: dot [4,0] is off the 4x6 board",
		"[[0,6],[0,5]]":                   "INVALID MOVE: [[0,6],[0,5]]: dot [0,6] is off the 4x6 board",
		"[[0,-1],[0,0]]":                  "INVALID MOVE: [[0,-1],[0,0]]: dot [0,-1] is off the 4x6 board",
		"[[0,0],[-1,0]]":                  "INVALID MOVE: [[0,0],[-1,0]]: dot [-1,0] is off the 4x6 board",
		"[[0,0],[0,-1]]":                  "INVALID MOVE: [[0,0],[0,-1]]: dot [0,-1] is off the 4x6 board",
		"[[" + twenty + ",0],[0,0]]":      "INVALID MOVE: [[" + twenty + ",0],[0,0]]: dot [" + twenty + ",0] is off the 4x6 board",
		"[[0,-" + twenty[1:] + "],[0,0]]": "INVALID MOVE: [[0,-" + twenty[1:] + "],[0,0]]: dot [0,-" + twenty[1:] + "] is off the 4x6 board",
		"[[0,0],[0," + twenty + "1]]":     "INVALID MOVE: [[0,0],[0," + twenty + "...]]: dot [0," + twenty + "...] is off the 4x6 board",
	})
}

// TestParseLargeCoordinates: coordinates far past any board, of any
// length, are off the board (not wrapped round into it), and the largest
// board's two-digit coordinates parse to their lines.
func TestParseLargeCoordinates(t *testing.T) {
	s := newState(t, MaxDots, MaxDots)
	for _, text := range []string{
		"[[1099511627776,0],[0,0]]", "[[1099511627777,0],[0,0]]", "[[" + strings.Repeat("9", 400) + ",0],[0,0]]",
		"[[0,0],[0,-1099511627776]]", "[[18446744073709551616,0],[0,0]]", "[[12,11],[11,11]]",
	} {
		_, err := s.ParseMove(text)
		me, ok := err.(*engine.MoveError)
		if !ok || me.Kind != engine.Illegal || !strings.HasSuffix(me.Detail, "is off the 12x12 board") {
			t.Errorf("ParseMove(%q) = %v, want a dot off the board", text, err)
		}
	}
	m, err := s.ParseMove("[[11,10],[10,10]]")
	if err != nil || s.FormatMove(m) != "[[10,10],[11,10]]" {
		t.Errorf("ParseMove of a two-digit line: %v %v", s.FormatMove(m), err)
	}
}
