package pentagotwist

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/engine"
)

// TestUnparseableDetails pins the reason for each kind of unparseable
// reply: the piece counted from one, an empty first line, a leading
// space's empty piece, and pieces quoted in full up to 32 bytes.
func TestUnparseableDetails(t *testing.T) {
	x32 := strings.Repeat("x", 32)
	for _, c := range []struct{ text, detail string }{
		{"", "expected 5 space-separated integers `x y a b p`, got 0"},
		{"\n0 0 0 0 0", "expected 5 space-separated integers `x y a b p`, got 0"},
		{"\r0 0 0 0 0", "expected 5 space-separated integers `x y a b p`, got 0"},
		{"0 0 0", "expected 5 space-separated integers `x y a b p`, got 3"},
		{" 0 0 0 0 0", `piece 1 "" is not a 32-bit decimal integer`},
		{"0 0 a 0 0", `piece 3 "a" is not a 32-bit decimal integer`},
		{"0 0 0 0 " + x32, `piece 5 "` + x32 + `" is not a 32-bit decimal integer`},
		{"0 0 0 0 " + x32 + "y", `piece 5 "` + x32 + `..." is not a 32-bit decimal integer`},
	} {
		_, err := NewState().ParseMove(c.text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Kind != engine.Unparseable {
			t.Errorf("%q: %v, want unparseable", c.text, err)
			continue
		}
		if me.Detail != c.detail {
			t.Errorf("%q: detail %q, want %q", c.text, me.Detail, c.detail)
		}
	}
}

// TestEveryASCIIDigitParses: each of 0..9 is read by value; out-of-range
// values are illegal, not unparseable.
func TestEveryASCIIDigitParses(t *testing.T) {
	for d := 0; d <= 9; d++ {
		text := string(rune('0'+d)) + " 0 0 0 0"
		_, err := NewState().ParseMove(text)
		var me *engine.MoveError
		switch {
		case d < size && err != nil:
			t.Errorf("%q: %v", text, err)
		case d >= size && (!errors.As(err, &me) || me.Kind != engine.Illegal || !strings.Contains(me.Detail, "row x="+string(rune('0'+d)))):
			t.Errorf("%q: %v, want illegal row x=%d", text, err, d)
		}
	}
}

// refEvaluate is Evaluate from the rules of its comment, by coordinates:
// every five-cell segment holding k ≥ 1 stones of one colour and none of
// the other is worth 8^(k-1) to that colour; a stone on a quadrant's
// centre adds 2.
func refEvaluate(s *State, seat int) float64 {
	own := func(x, y int) int {
		switch s.Cell(x, y) {
		case engine.NoSeat:
			return 0
		case seat:
			return 1
		}
		return -1
	}
	var v float64
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		for x := 0; x < size; x++ {
			for y := 0; y < size; y++ {
				if ex, ey := x+4*d[0], y+4*d[1]; ex >= size || ey < 0 || ey >= size {
					continue
				}
				mine, theirs := 0, 0
				for k := 0; k < 5; k++ {
					switch own(x+k*d[0], y+k*d[1]) {
					case 1:
						mine++
					case -1:
						theirs++
					}
				}
				switch {
				case mine > 0 && theirs == 0:
					v += float64(int(1) << (3 * (mine - 1)))
				case theirs > 0 && mine == 0:
					v -= float64(int(1) << (3 * (theirs - 1)))
				}
			}
		}
	}
	for _, c := range [][2]int{{1, 1}, {1, 4}, {4, 1}, {4, 4}} {
		v += 2 * float64(own(c[0], c[1]))
	}
	return v
}

// TestEvaluateValue compares Evaluate with refEvaluate along random games.
func TestEvaluateValue(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var buf []engine.Move
	for g := 0; g < 20; g++ {
		s := NewState()
		for !s.Terminal() {
			for seat := range 2 {
				if got, want := s.Evaluate(seat), refEvaluate(s, seat); got != want {
					t.Fatalf("%s seat %d: Evaluate %v, want %v", s.Text(), seat, got, want)
				}
			}
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
	}
	// Four stones at the left of the top row, counted by hand: the
	// row's two segments hold four and three (512 + 64), four columns'
	// top segments one each (4), two diagonals' one each (2).
	s := fromText(t, "wwww.."+strings.Repeat(".", 30))
	if got := s.Evaluate(White); got != 512+64+4+2 {
		t.Errorf("four in the top row: %v, want %v", got, 512+64+4+2)
	}
}

// TestStartupTimeout: the course gave a client 30 s to start.
func TestStartupTimeout(t *testing.T) {
	p, err := Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.StartupTimeout != 30*time.Second {
		t.Errorf("start-up timeout %v, want 30s", p.StartupTimeout)
	}
}

// TestFiveOnTheFifthStone: the ninth ply is the first at which a side can
// hold five, and it is judged there.
func TestFiveOnTheFifthStone(t *testing.T) {
	s := NewState()
	for _, text := range []string{
		"0 0 2 0 0", "3 3 2 0 1", "0 1 2 0 0", "3 4 2 0 1", "0 2 2 0 0",
		"4 3 2 0 1", "0 3 2 0 0", "4 4 2 0 1", "0 4 2 0 0",
	} {
		s.Apply(mustParse(t, s, text))
	}
	if !s.Terminal() || s.Result().Winner != White || s.Ply() != 9 {
		t.Errorf("White's five on ply 9: over %v, result %+v, ply %d", s.Terminal(), s.Result(), s.Ply())
	}
}
