package pentagotwist

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
	"arena/engine/vector"
)

const vectorFile = "testdata/pentago-twist.jsonl"

// TestVectors replays every recorded game and reports each mismatch with
// its seed, tag, ply and field; output is bounded.
func TestVectors(t *testing.T) {
	enginetest.ReplayVectors(t, Game{}, vectorFile)
}

// fromText builds a position from the §7 board text; the ply is the stone
// count (strict alternation from White).
func fromText(t *testing.T, text string) *State {
	t.Helper()
	if len(text) != cells {
		t.Fatalf("board text %q: want %d characters", text, cells)
	}
	s := NewState()
	for i, c := range text {
		switch c {
		case 'w':
			s.stones[White] |= 1 << i
		case 'b':
			s.stones[Black] |= 1 << i
		case '.':
		default:
			t.Fatalf("board text %q: bad character %q", text, c)
		}
	}
	s.ply = strings.Count(text, "w") + strings.Count(text, "b")
	if got := s.Text(); got != text {
		t.Fatalf("round trip: %q -> %q", text, got)
	}
	return s
}

func mustParse(t *testing.T, s *State, text string) engine.Move {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", text, err)
	}
	return m
}

func TestWorkedExampleBothFiveDraw(t *testing.T) {
	// Seed 1000061, last move: Black's rotation gives Black row 2 and White
	// column 5 at once.
	s := fromText(t, ".b.bww"+"w..wbb"+"bbbww."+"wbb.bw"+"b....w"+"bwww.w")
	if s.ToMove() != Black {
		t.Fatalf("to move %d, want Black", s.ToMove())
	}
	s.Apply(mustParse(t, s, "2 5 1 0 1"))
	if got, want := s.Text()[:18], ".b.wwb"+"w..wbw"+"bbbbbw"; got != want {
		t.Errorf("rows 0-2 = %q, want %q", got, want)
	}
	if !hasFive(s.stones[Black]) || !hasFive(s.stones[White]) {
		t.Errorf("want fives for both colours")
	}
	r := s.Result()
	if !s.Terminal() || !r.Draw || r.Winner != engine.NoSeat {
		t.Errorf("terminal=%v result=%+v, want draw", s.Terminal(), r)
	}
	if s.ToMove() != engine.NoSeat || s.LegalCount() != 0 || len(s.LegalMoves(nil)) != 0 {
		t.Errorf("finished game still offers moves")
	}
}

func TestWorkedExampleOpponentFive(t *testing.T) {
	// Seed 1000005, last move: White's rotation of quadrant 3 completes
	// Black's row 4.
	s := fromText(t, "bwb...bwwbwbwwwb.wwwwbbbwbbbbwbwwwbb")
	if s.ToMove() != White {
		t.Fatalf("to move %d, want White", s.ToMove())
	}
	s.Apply(mustParse(t, s, "2 4 3 0 0"))
	if got := s.Text()[24:30]; got != "wbbbbb" {
		t.Errorf("row 4 = %q, want wbbbbb", got)
	}
	r := s.Result()
	if !s.Terminal() || r.Draw || r.Winner != Black {
		t.Errorf("result %+v, want Black wins", r)
	}
}

func TestFullBoardDraw(t *testing.T) {
	// Find a vector game that ends on ply 36 without a five and check the
	// engine agrees it is a draw only because the board is full.
	recs, err := vector.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.Tag != "full_board_draw" {
			continue
		}
		st, _ := Game{}.NewState(nil)
		s := st.(*State)
		for i, mt := range rec.Moves {
			s.Apply(mustParse(t, s, mt))
			if i < len(rec.Moves)-1 && s.Terminal() {
				t.Fatalf("%s: over at ply %d", rec.Label(), i+1)
			}
		}
		if s.Ply() != 36 || !s.Terminal() || !s.Result().Draw || hasFive(s.stones[0]) || hasFive(s.stones[1]) {
			t.Errorf("%s: ply %d result %+v", rec.Label(), s.Ply(), s.Result())
		}
		return
	}
	t.Skip("no full_board_draw game in the vectors")
}

func TestTwistExamples(t *testing.T) {
	cases := []struct {
		from, to [2]int
		move     string
	}{
		{[2]int{0, 0}, [2]int{0, 2}, "5 5 0 0 1"}, // rotation of quadrant 0
		{[2]int{0, 0}, [2]int{0, 2}, "5 5 0 1 1"}, // mirror of quadrant 0
		{[2]int{0, 1}, [2]int{1, 2}, "5 5 0 0 1"},
		{[2]int{1, 0}, [2]int{1, 2}, "5 5 0 1 1"},
		{[2]int{0, 3}, [2]int{0, 5}, "0 0 1 0 1"}, // quadrant 1 rotation
		{[2]int{3, 0}, [2]int{3, 2}, "0 0 2 0 1"}, // quadrant 2 rotation
		{[2]int{5, 5}, [2]int{5, 3}, "0 0 3 1 1"}, // quadrant 3 mirror
		{[2]int{5, 3}, [2]int{3, 3}, "0 5 3 0 1"}, // quadrant 3 rotation: local (2,0) -> (0,0)
	}
	for _, c := range cases {
		// A lone White stone, Black to move: Black's twist moves it.
		s := NewState()
		s.stones[White] = 1 << (size*c.from[0] + c.from[1])
		s.ply = 1
		s.Apply(mustParse(t, s, c.move))
		if got := s.Cell(c.to[0], c.to[1]); got != White {
			t.Errorf("stone at %v after %q: not at %v; board %s", c.from, c.move, c.to, s.Text())
		}
	}
	// The course example: White's first move "0 0 0 0 0" and "0 0 0 1 0"
	// both leave the stone at (0,2).
	for _, mt := range []string{"0 0 0 0 0", "0 0 0 1 0"} {
		s := NewState()
		s.Apply(mustParse(t, s, mt))
		if s.Cell(0, 2) != White || s.Text() != "..w"+strings.Repeat(".", 33) {
			t.Errorf("%q: board %s", mt, s.Text())
		}
	}
}

// TestTwistMatchesFormula compares the bit tricks with the framework's
// array formulas on random boards, for every quadrant and operation.
func TestTwistMatchesFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for iter := 0; iter < 2000; iter++ {
		bb := r.Uint64() & fullMask
		for q := 0; q < 4; q++ {
			for b := 0; b < 2; b++ {
				var want uint64
				r0, c0 := 3*(q/2), 3*(q%2)
				for x := 0; x < size; x++ {
					for y := 0; y < size; y++ {
						if bb&(1<<(size*x+y)) == 0 {
							continue
						}
						nx, ny := x, y
						if x >= r0 && x < r0+3 && y >= c0 && y < c0+3 {
							lr, lc := x-r0, y-c0
							if b == 0 {
								nx, ny = r0+lc, c0+2-lr
							} else {
								nx, ny = r0+lr, c0+2-lc
							}
						}
						want |= 1 << (size*nx + ny)
					}
				}
				if got := twist(bb, q, b); got != want {
					t.Fatalf("twist(%036b, %d, %d) = %036b, want %036b", bb, q, b, got, want)
				}
			}
		}
	}
}

// TestHasFiveMatchesLines checks the shift test against the 32 segments.
func TestHasFiveMatchesLines(t *testing.T) {
	if fiveLines[31] == 0 {
		t.Fatal("fewer than 32 segments")
	}
	for _, l := range fiveLines {
		if !hasFive(l) {
			t.Errorf("segment %036b not detected", l)
		}
	}
	r := rand.New(rand.NewPCG(3, 5))
	for iter := 0; iter < 20000; iter++ {
		bb := r.Uint64() & r.Uint64() & fullMask
		want := false
		for _, l := range fiveLines {
			if bb&l == l {
				want = true
			}
		}
		if got := hasFive(bb); got != want {
			t.Fatalf("hasFive(%036b) = %v, want %v", bb, got, want)
		}
	}
}

func TestLegalMovesOrder(t *testing.T) {
	s := NewState()
	ms := s.LegalMoves(nil)
	if len(ms) != 288 || s.LegalCount() != 288 {
		t.Fatalf("%d moves, count %d; want 288", len(ms), s.LegalCount())
	}
	want := []string{"0 0 0 0 0", "0 0 0 1 0", "0 0 1 0 0", "0 0 1 1 0", "0 0 2 0 0", "0 0 2 1 0", "0 0 3 0 0", "0 0 3 1 0", "0 1 0 0 0"}
	for i, w := range want {
		if got := s.FormatMove(ms[i]); got != w {
			t.Errorf("move %d = %q, want %q", i, got, w)
		}
	}
	if got := s.FormatMove(ms[287]); got != "5 5 3 1 0" {
		t.Errorf("last move %q", got)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i] <= ms[i-1] {
			t.Fatalf("moves not ascending at %d", i)
		}
	}
	s.Apply(ms[0])
	ms = s.LegalMoves(ms[:0])
	if len(ms) != 280 || s.FormatMove(ms[0]) != "0 0 0 0 1" {
		t.Errorf("after one move: %d moves, first %q", len(ms), s.FormatMove(ms[0]))
	}
}

func TestParseMove(t *testing.T) {
	s := NewState()
	s.Apply(mustParse(t, s, "0 0 3 0 0")) // White at (0,0), Black to move
	ok := map[string]string{
		"1 0 2 0 1":         "1 0 2 0 1",
		"1 0 2 0 1 ":        "1 0 2 0 1", // trailing space
		"1 0 2 0 1   ":      "1 0 2 0 1",
		"1 0 2 0 1 extra":   "1 0 2 0 1", // pieces after the fifth are ignored
		"1 0 2 0 1  x\ty":   "1 0 2 0 1",
		"+1 0 2 0 +1":       "1 0 2 0 1", // explicit sign
		"-0 +1 2 0 1":       "0 1 2 0 1",
		"01 00 002 0 1":     "1 0 2 0 1",
		"1 0 2 0 1\n":       "1 0 2 0 1", // line terminator ends the line
		"1 0 2 0 1\r\n":     "1 0 2 0 1",
		"1 0 2 0 1\nfoo":    "1 0 2 0 1",
		"１ ０ ２ ０ １":         "1 0 2 0 1", // fullwidth digits: Character.digit accepts them
		"\u0661 0 2 0 1":    "1 0 2 0 1", // Arabic-Indic one
		"5 5 3 1 1 0 0 0 0": "5 5 3 1 1",
	}
	for text, want := range ok {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", text, err)
			continue
		}
		if got := s.FormatMove(m); got != want {
			t.Errorf("ParseMove(%q) = %q, want %q", text, got, want)
		}
	}
	unparseable := []string{
		"", " ", "     ", "\n",
		" 1 0 2 0 1",  // leading space
		"1  0 2 0 1",  // double space within the first five
		"1 0 2 0  1",  // double space before the fifth
		"1\t0 2 0 1",  // tab
		"1 0 2 0\t1",  // tab
		"1 0 2 0 1\t", // tab glued to the fifth piece
		"a 0 2 0 1",   // letter
		"1 0 2 0 1x",  // letter glued to the fifth piece
		"1 0 2 0",     // four pieces
		"1 0 2 0 ",    // four pieces and a trailing space
		"1 0 2",       // three pieces
		"2147483648 0 0 0 1",
		"1 0 2 0 -2147483649",
		"99999999999999999999 0 0 0 1",
		"+ 0 2 0 1", "- 0 2 0 1", "+-1 0 2 0 1", "1.0 0 2 0 1", "0x1 0 2 0 1",
		"1,0,2,0,1",
		"\n1 0 2 0 1",        // first line empty
		"1 0 2 0 \U0001D7CF", // mathematical digit one: a surrogate pair in Java
	}
	for _, text := range unparseable {
		_, err := s.ParseMove(text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Kind != engine.Unparseable {
			t.Errorf("ParseMove(%q) = %v, want unparseable", text, err)
			continue
		}
		if me.Reason != "" || me.Detail == "" || me.Text != text {
			t.Errorf("ParseMove(%q): reason %q detail %q text %q", text, me.Reason, me.Detail, me.Text)
		}
	}
	illegal := map[string]string{
		"0 0 0 0 1":           "ILLEGAL MOVE: Player 1, Move: (0, 0), R/F: (0, 0)", // occupied
		"1 0 0 0 0":           "ILLEGAL MOVE: Player 0, Move: (1, 0), R/F: (0, 0)", // wrong player
		"1 0 0 0 2":           "ILLEGAL MOVE: Player 2, Move: (1, 0), R/F: (0, 0)",
		"6 0 0 0 1":           "ILLEGAL MOVE: Player 1, Move: (6, 0), R/F: (0, 0)",
		"-1 0 0 0 1":          "ILLEGAL MOVE: Player 1, Move: (-1, 0), R/F: (0, 0)",
		"1 6 0 0 1":           "ILLEGAL MOVE: Player 1, Move: (1, 6), R/F: (0, 0)",
		"1 1 4 0 1":           "ILLEGAL MOVE: Player 1, Move: (1, 1), R/F: (4, 0)",
		"1 1 -1 0 1":          "ILLEGAL MOVE: Player 1, Move: (1, 1), R/F: (-1, 0)",
		"1 1 0 2 1":           "ILLEGAL MOVE: Player 1, Move: (1, 1), R/F: (0, 2)",
		"+01 1 0 2 +1":        "ILLEGAL MOVE: Player 1, Move: (1, 1), R/F: (0, 2)", // values as parsed
		"2147483647 0 0 0 1":  "ILLEGAL MOVE: Player 1, Move: (2147483647, 0), R/F: (0, 0)",
		"-2147483648 0 0 0 1": "ILLEGAL MOVE: Player 1, Move: (-2147483648, 0), R/F: (0, 0)",
	}
	enginetest.ExpectRejected(t, s, engine.Illegal, illegal)
}

// TestCourseIllegalExamples: §8.4's two examples, Black to move with
// (0,0) occupied.
func TestCourseIllegalExamples(t *testing.T) {
	s := fromText(t, "..w"+strings.Repeat(".", 33))
	s.stones[White] = 1 // a White stone on (0,0), Black to move
	for text, reason := range map[string]string{
		"0 0 0 0 1": "ILLEGAL MOVE: Player 1, Move: (0, 0), R/F: (0, 0)",
		"0 0 0 0 0": "ILLEGAL MOVE: Player 0, Move: (0, 0), R/F: (0, 0)",
	} {
		_, err := s.ParseMove(text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Reason != reason {
			t.Errorf("ParseMove(%q) = %v, want reason %q", text, err, reason)
		}
	}
}

func TestParseAfterEnd(t *testing.T) {
	s := fromText(t, "bwb...bwwbwbwwwb.wwwwbbbwbbbbwbwwwbb")
	s.Apply(mustParse(t, s, "2 4 3 0 0"))
	_, err := s.ParseMove("0 3 0 0 1")
	var me *engine.MoveError
	if !errors.As(err, &me) || me.Kind != engine.Illegal {
		t.Errorf("move after the end: %v", err)
	}
}

func TestCloneAndHash(t *testing.T) {
	a := NewState()
	for _, mt := range []string{"0 0 3 0 0", "5 5 1 0 1"} {
		a.Apply(mustParse(t, a, mt))
	}
	b := NewState()
	for _, mt := range []string{"0 0 1 1 0", "5 5 2 0 1"} { // other twists of empty quadrants
		b.Apply(mustParse(t, b, mt))
	}
	if a.Text() != b.Text() || a.Hash() != b.Hash() {
		t.Errorf("same board, different hash: %s %x / %s %x", a.Text(), a.Hash(), b.Text(), b.Hash())
	}
	c := a.Clone().(*State)
	c.Apply(mustParse(t, c, "2 2 0 1 0"))
	if a.Text() == c.Text() || a.Ply() != 2 || c.Ply() != 3 {
		t.Errorf("clone not independent: %s / %s", a.Text(), c.Text())
	}
	if a.Hash() == c.Hash() {
		t.Errorf("different boards, same hash")
	}
	if NewState().Hash() == a.Hash() {
		t.Errorf("start and later position share a hash")
	}
}

func TestTurnNumber(t *testing.T) {
	s := NewState()
	want := []int{0, 0, 1, 1, 2}
	r := rand.New(rand.NewPCG(1, 1))
	var buf []engine.Move
	for i, w := range want {
		f := map[string]any{}
		s.PlyFields(f)
		if f["turn_number"] != w {
			t.Errorf("ply %d: turn_number %v, want %d", i, f["turn_number"], w)
		}
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
	}
}

func TestInfoAndProfile(t *testing.T) {
	g := Game{}
	info := g.Info()
	if info.Name != "pentago-twist" || info.Profile != "comp424-2021" || info.HasScores || len(info.Params) != 0 {
		t.Errorf("info %+v", info)
	}
	p, err := g.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	if p.Name != info.Profile || p.FirstMoveLimit.Seconds() != 30 || p.MoveLimit.Seconds() != 2 || p.Cushion.Seconds() != 1 || p.MemoryMB != 520 {
		t.Errorf("profile %+v", p)
	}
	wantPen := map[engine.Failure]engine.Penalty{
		engine.FailTimeout: engine.Loss, engine.FailLate: engine.RandomMove, engine.FailUnparseable: engine.AsTimeout,
		engine.FailIllegal: engine.Loss, engine.FailError: engine.RandomMove, engine.FailDead: engine.RandomMove,
		engine.FailMemory: engine.AsDead,
	}
	for f, w := range wantPen {
		if got := p.PenaltyFor(f); got != w {
			t.Errorf("penalty for %s = %s, want %s", f, got, w)
		}
	}
	if got := p.ReasonFor(engine.FailTimeout, 1); got != "TIMEOUT" {
		t.Errorf("timeout reason %q", got)
	}
	if _, err := g.NewState(engine.Params{"n": "3"}); err == nil {
		t.Error("unknown parameter accepted")
	}
	if _, err := g.Profile(engine.Params{"n": "3"}); err == nil {
		t.Error("unknown parameter accepted by Profile")
	}
}

func TestNoAllocs(t *testing.T) {
	s := NewState()
	buf := make([]engine.Move, 0, 288)
	if n := testing.AllocsPerRun(100, func() {
		c := *s
		c.Apply(encode(14, 2, 1, 0))
		buf = c.LegalMoves(buf[:0])
		_ = c.Evaluate(0)
		_ = c.Hash()
	}); n != 0 {
		t.Errorf("%v allocations per Apply/LegalMoves/Evaluate/Hash", n)
	}
}

func TestEvaluateSign(t *testing.T) {
	s := fromText(t, "wwww.."+"bbb..."+strings.Repeat(".", 24))
	s.stones[Black] |= 1 << 35 // keep the stone counts alternating
	s.ply = 8
	if s.Evaluate(White) <= s.Evaluate(Black) {
		t.Errorf("four in a row not better for White: %v vs %v", s.Evaluate(White), s.Evaluate(Black))
	}
}

// TestRandomGames plays random games to the end, checking invariants.
func TestRandomGames(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 43))
	var buf []engine.Move
	for g := 0; g < 300; g++ {
		s := NewState()
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			if len(buf) != s.LegalCount() || len(buf) == 0 {
				t.Fatalf("ply %d: %d moves, count %d", s.Ply(), len(buf), s.LegalCount())
			}
			m := buf[r.IntN(len(buf))]
			back, err := s.ParseMove(s.FormatMove(m))
			if err != nil || back != m {
				t.Fatalf("round trip %q: %v %v", s.FormatMove(m), back, err)
			}
			s.Apply(m)
		}
		if s.Ply() > 36 {
			t.Fatalf("game longer than 36 plies")
		}
	}
}
