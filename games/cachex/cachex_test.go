package cachex

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/vector"
)

func newState(t *testing.T, n int) *State {
	t.Helper()
	st, err := Game{}.NewState(engine.Params{"n": strconv.Itoa(n)})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// play applies moves given as text, failing on any rejection.
func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("ply %d: %s: %v", s.Ply(), mv, err)
		}
		s.Apply(m)
	}
}

func captured(s *State) [][2]int {
	f := map[string]any{}
	s.PlyFields(f)
	return f["captured"].([][2]int)
}

func TestParams(t *testing.T) {
	g := Game{}
	for _, p := range []engine.Params{{"n": "2"}, {"n": "16"}, {"n": "-3"}, {"n": "nine"}, {"size": "9"}} {
		if _, err := g.NewState(p); err == nil {
			t.Errorf("NewState(%v): want an error", p)
		} else if !strings.Contains(err.Error(), "n") && !strings.Contains(err.Error(), "size") {
			t.Errorf("NewState(%v): error %q does not name the parameter", p, err)
		}
		if _, err := g.Profile(p); err == nil {
			t.Errorf("Profile(%v): want an error", p)
		}
	}
	st, err := g.NewState(engine.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.(*State).N(); got != 9 {
		t.Errorf("default n = %d, want 9", got)
	}
	for n := 3; n <= 15; n++ {
		s := newState(t, n)
		want := n * n
		if n%2 == 1 {
			want--
		}
		if s.LegalCount() != want || len(s.LegalMoves(nil)) != want {
			t.Errorf("n=%d: legal count %d/%d, want %d", n, s.LegalCount(), len(s.LegalMoves(nil)), want)
		}
		if s.Text() != strings.TrimSuffix(strings.Repeat(strings.Repeat(".", n)+"/", n), "/") {
			t.Errorf("n=%d: start text %q", n, s.Text())
		}
	}
}

func TestProfile(t *testing.T) {
	p, err := Game{}.Profile(engine.Params{"n": "8"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Time != engine.CPUBudget || p.Budget.Seconds() != 64 || p.BudgetGrace.Seconds() != 5 || p.MemoryMB != 100 {
		t.Errorf("profile numbers: %+v", p)
	}
	for _, f := range engine.Failures() {
		if p.PenaltyFor(f) != engine.Loss {
			t.Errorf("%s: penalty %s, want loss", f, p.PenaltyFor(f))
		}
	}
	want := map[engine.Failure]string{
		engine.FailTimeout: "player 2 exceeded available time",
		engine.FailMemory:  "player 2 exceeded space limit",
		engine.FailError:   "player 2 raised an error",
		engine.FailDead:    "player 2 process died",
	}
	for f, w := range want {
		if got := p.ReasonFor(f, 1); got != w {
			t.Errorf("%s reason %q, want %q", f, got, w)
		}
	}
}

// TestCaptureExample is the §5.1 example: Blue at (1,1) completes pattern 10.
func TestCaptureExample(t *testing.T) {
	s := newState(t, 3)
	play(t, s, "PLACE 2 1", "PLACE 1 2", "PLACE 0 0", "PLACE 1 0", "PLACE 2 2", "PLACE 2 0", "PLACE 0 2")
	if s.Text() != "r.r/b.b/brr" || s.ToMove() != 1 {
		t.Fatalf("setup: %s, to move %d", s.Text(), s.ToMove())
	}
	play(t, s, "PLACE 1 1")
	if s.Text() != "r../bbb/b.r" {
		t.Errorf("board %s, want r../bbb/b.r", s.Text())
	}
	if got := captured(s); len(got) != 2 || got[0] != [2]int{0, 2} || got[1] != [2]int{2, 1} {
		t.Errorf("captured %v, want [[0 2] [2 1]]", got)
	}
	r := s.Result()
	if !s.Terminal() || r.Winner != 1 || r.Draw || r.Reason != "winner: blue" {
		t.Errorf("result %+v", r)
	}
}

// TestCaptureUnion checks that several diamonds captured by one placement
// are removed together, each pattern judged on the board before removal.
func TestCaptureUnion(t *testing.T) {
	s := newState(t, 9)
	// Blue stones at (4,3), (3,5), (5,5) and red at (3,4), (4,5), (5,4):
	// a red-free ring around (4,4) with alternating colours.
	play(t, s, "PLACE 3 4", "PLACE 4 3", "PLACE 4 5", "PLACE 3 5", "PLACE 5 4", "PLACE 5 5", "PLACE 0 0")
	// Blue to move: (4,4) completes three diamonds, capturing all three red stones.
	play(t, s, "PLACE 4 4")
	got := captured(s)
	want := [][2]int{{3, 4}, {4, 5}, {5, 4}}
	if len(got) != len(want) {
		t.Fatalf("captured %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("captured %v, want %v", got, want)
		}
	}
	for _, c := range want {
		if s.At(c[0], c[1]) != empty {
			t.Errorf("(%d,%d) not removed", c[0], c[1])
		}
	}
	if s.LegalCount() != 81-5 {
		t.Errorf("legal count %d", s.LegalCount())
	}
}

func TestSteal(t *testing.T) {
	s := newState(t, 3)
	play(t, s, "PLACE 0 1")
	if s.LegalCount() != 9 || s.LegalMoves(nil)[8] != moveSteal {
		t.Errorf("t=1: legal count %d, moves %v", s.LegalCount(), s.LegalMoves(nil))
	}
	play(t, s, "STEAL")
	if s.Text() != ".../b../..." {
		t.Errorf("after STEAL: %s, want .../b../...", s.Text())
	}
	if s.ToMove() != 0 || s.Ply() != 2 || len(captured(s)) != 0 {
		t.Errorf("after STEAL: to move %d, ply %d", s.ToMove(), s.Ply())
	}
	// Red may play on the cell its stolen stone occupied.
	play(t, s, "PLACE 0 1")

	// Diagonal stone: the cell stays occupied, colour swapped ([RULES] Fig. 2 style).
	s = newState(t, 4)
	play(t, s, "PLACE 1 3", "STEAL")
	if s.At(3, 1) != blue || s.At(1, 3) != empty {
		t.Errorf("(1,3) -> (3,1): %s", s.Text())
	}
	s = newState(t, 4)
	play(t, s, "PLACE 2 2", "STEAL")
	if s.At(2, 2) != blue {
		t.Errorf("diagonal steal: %s", s.Text())
	}
}

func wantError(t *testing.T, s *State, text string, kind engine.MoveErrorKind, detail string) {
	t.Helper()
	_, err := s.ParseMove(text)
	var me *engine.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("%q: error %v, want *engine.MoveError", text, err)
	}
	if me.Kind != kind || me.Reason != "error: invalid action!" || me.Detail != detail || me.Text != text {
		t.Errorf("%q: got %+v\nwant kind %v detail %q", text, *me, kind, detail)
	}
}

func TestInvalidActions(t *testing.T) {
	const see = " See the specification/game rules for details."
	malformed := "Action does not exist or is not well formed." + see
	s := newState(t, 5)
	for _, txt := range []string{
		"", "PLACE", "PLACE ", "PLACE 1", "PLACE 1 ", "PLACE 1  2", " PLACE 1 2", "PLACE 1 2 ",
		"PLACE 1 2 3", "place 1 2", "Place 1 2", "PLACE +1 2", "PLACE 1.0 2", "PLACE - 2", "PLACE --1 2",
		"PLACE 1 0x2", "PLACE 9223372036854775808 0", "PLACE 0 -9223372036854775809", "STEAL ", "steal",
		"(\"PLACE\", 1, 2)", "PLACE\t1 2", "PLACE 1 2\n", "STEAL\n", "PLACE 1_0 2",
	} {
		wantError(t, s, txt, engine.Unparseable, malformed)
	}
	steal := "The STEAL action is not currently permitted. This action may only be played by the blue player on their *first* move of the game." + see
	wantError(t, s, "STEAL", engine.Illegal, steal)
	wantError(t, s, "PLACE 5 0", engine.Illegal, "The PLACE action coordinate (5, 0) is outside the bounds of the board (n = 5)."+see)
	wantError(t, s, "PLACE -1 0", engine.Illegal, "The PLACE action coordinate (-1, 0) is outside the bounds of the board (n = 5)."+see)
	wantError(t, s, "PLACE 0 -0012", engine.Illegal, "The PLACE action coordinate (0, -12) is outside the bounds of the board (n = 5)."+see)
	wantError(t, s, "PLACE -9223372036854775808 9223372036854775807", engine.Illegal,
		"The PLACE action coordinate (-9223372036854775808, 9223372036854775807) is outside the bounds of the board (n = 5)."+see)
	centre := "The PLACE action is not permitted in the center cell of the board on the first move of the game." + see
	wantError(t, s, "PLACE 2 2", engine.Illegal, centre)
	wantError(t, s, "PLACE 02 -0002", engine.Illegal, "The PLACE action coordinate (2, -2) is outside the bounds of the board (n = 5)."+see)
	// Leading zeros and "-0" are plain integers.
	if m, err := s.ParseMove("PLACE 001 -0"); err != nil || s.FormatMove(m) != "PLACE 1 0" {
		t.Errorf("PLACE 001 -0: %v %v", s.FormatMove(m), err)
	}
	play(t, s, "PLACE 1 3")
	wantError(t, s, "PLACE 1 3", engine.Illegal, "The PLACE action coordinate (1, 3) is already occupied."+see)
	// The centre is allowed after the first move; STEAL only now.
	if _, err := s.ParseMove("PLACE 2 2"); err != nil {
		t.Errorf("centre at t=1: %v", err)
	}
	play(t, s, "STEAL")
	wantError(t, s, "STEAL", engine.Illegal, steal)
	wantError(t, s, "PLACE 3 1", engine.Illegal, "The PLACE action coordinate (3, 1) is already occupied."+see)

	// Even n has no centre restriction.
	e := newState(t, 4)
	for _, txt := range []string{"PLACE 1 1", "PLACE 2 2", "PLACE 1 2", "PLACE 2 1"} {
		if _, err := e.ParseMove(txt); err != nil {
			t.Errorf("n=4 %s at t=0: %v", txt, err)
		}
	}
}

func TestRepetitionString(t *testing.T) {
	want := "draw: same game state occurred" + strings.Repeat(" ", 17) + "7 times"
	if ReasonRepetition != want {
		t.Fatalf("repetition reason %q", ReasonRepetition)
	}
	if strings.Count(ReasonRepetition, " ") != 4+17+1 {
		t.Fatalf("spaces: %d", strings.Count(ReasonRepetition, " "))
	}
}

// TestRepetitionCycle plays the 6-ply cycle of §6 in the middle of a 9×9
// board until its starting board occurs for the 7th time.
func TestRepetitionCycle(t *testing.T) {
	s := newState(t, 9)
	// Patch (0,0) is board (3,3): red (0,1), (1,2), (2,1); blue (0,0), (0,2), (1,0).
	play(t, s, "PLACE 3 4", "PLACE 3 3", "PLACE 4 5", "PLACE 3 5", "PLACE 5 4", "PLACE 4 3")
	start := s.Text()
	if s.Repeat() != 1 || s.ToMove() != 0 {
		t.Fatalf("setup: repeat %d to move %d", s.Repeat(), s.ToMove())
	}
	cycle := []string{"PLACE 5 3", "PLACE 4 4", "PLACE 3 4", "PLACE 5 5", "PLACE 4 5", "PLACE 3 5"}
	wantCaptured := [][][2]int{nil, {{3, 4}, {4, 5}, {5, 3}}, nil, nil, {{3, 5}, {4, 4}, {5, 5}}, nil}
	for k := 1; k <= 6; k++ {
		for i, mv := range cycle {
			if s.Terminal() {
				t.Fatalf("cycle %d move %d: game over early: %+v", k, i, s.Result())
			}
			play(t, s, mv)
			got := captured(s)
			if len(got) != len(wantCaptured[i]) {
				t.Fatalf("cycle %d %s: captured %v, want %v", k, mv, got, wantCaptured[i])
			}
			for j := range got {
				if got[j] != wantCaptured[i][j] {
					t.Fatalf("cycle %d %s: captured %v, want %v", k, mv, got, wantCaptured[i])
				}
			}
			if i < 5 && s.Repeat() != k {
				t.Fatalf("cycle %d %s: repeat %d, want %d", k, mv, s.Repeat(), k)
			}
		}
		if s.Text() != start {
			t.Fatalf("cycle %d: board %s, want %s", k, s.Text(), start)
		}
		if s.Repeat() != k+1 {
			t.Fatalf("cycle %d: repeat %d, want %d", k, s.Repeat(), k+1)
		}
		if s.Terminal() != (k == 6) {
			t.Fatalf("cycle %d: terminal %v", k, s.Terminal())
		}
	}
	r := s.Result()
	if !r.Draw || r.Winner != engine.NoSeat || r.Reason != ReasonRepetition || s.ToMove() != engine.NoSeat {
		t.Errorf("result %+v", r)
	}
	if s.LegalCount() != 0 || len(s.LegalMoves(nil)) != 0 {
		t.Errorf("moves after the end")
	}
	if _, err := s.ParseMove("PLACE 0 0"); err == nil {
		t.Errorf("move accepted after the end")
	}
}

// TestTurnLimit replays the recorded games that reach the turn limit and
// checks the draw fires at exactly 343 actions.
func TestTurnLimit(t *testing.T) {
	recs, err := vector.ReadFile("testdata/cachex.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, rec := range recs {
		if rec.Tag != "draw-turns" {
			continue
		}
		seen++
		p, _ := rec.EngineParams()
		st, err := Game{}.NewState(p)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for i, mv := range rec.Moves {
			if s.Terminal() {
				t.Fatalf("%s: over at ply %d", rec.Label(), i)
			}
			play(t, s, mv)
		}
		r := s.Result()
		if s.Ply() != 343 || !r.Draw || r.Winner != engine.NoSeat || r.Reason != ReasonTurnLimit {
			t.Errorf("%s: ply %d result %+v", rec.Label(), s.Ply(), r)
		}
	}
	if seen == 0 {
		t.Fatal("no draw-turns vectors")
	}
}

// TestCloneIndependence replays random games with clones taken along the
// way and checks every branch against a fresh replay of its move list.
func TestCloneIndependence(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for game := 0; game < 300; game++ {
		n := 3 + r.IntN(5)
		type branch struct {
			s     *State
			moves []engine.Move
		}
		bs := []branch{{s: New(n)}}
		var buf []engine.Move
		for step := 0; step < 400; step++ {
			k := r.IntN(len(bs))
			b := &bs[k]
			if b.s.Terminal() {
				continue
			}
			if r.IntN(8) == 0 && len(bs) < 8 {
				bs = append(bs, branch{s: b.s.Clone().(*State), moves: append([]engine.Move(nil), b.moves...)})
				b = &bs[k]
			}
			var m engine.Move
			m, buf, _ = engine.RandomLegal(b.s, r, buf)
			b.s.Apply(m)
			b.moves = append(b.moves, m)
		}
		for _, b := range bs {
			ref := New(n)
			for _, m := range b.moves {
				ref.Apply(m)
			}
			if ref.Text() != b.s.Text() || ref.Repeat() != b.s.Repeat() || ref.Hash() != b.s.Hash() ||
				ref.Terminal() != b.s.Terminal() || ref.Result() != b.s.Result() {
				t.Fatalf("game %d: branch diverged from replay: %s/%d vs %s/%d", game, b.s.Text(), b.s.Repeat(), ref.Text(), ref.Repeat())
			}
		}
	}
}

func TestHash(t *testing.T) {
	a, b := New(5), New(5)
	play(t, a, "PLACE 0 0", "PLACE 1 1", "PLACE 0 1", "PLACE 1 2")
	play(t, b, "PLACE 0 1", "PLACE 1 2", "PLACE 0 0", "PLACE 1 1")
	if a.Hash() != b.Hash() {
		t.Error("transposed positions hash differently")
	}
	c := a.Clone().(*State)
	play(t, c, "PLACE 4 4")
	if c.Hash() == a.Hash() {
		t.Error("different positions hash equal")
	}
}

func TestEvaluate(t *testing.T) {
	s := New(9)
	if v := s.Evaluate(0); v != 0 {
		t.Errorf("empty board: %v", v)
	}
	play(t, s, "PLACE 3 3")
	if s.Evaluate(0) != 1 || s.Evaluate(1) != -1 {
		t.Errorf("after red stone: %v %v", s.Evaluate(0), s.Evaluate(1))
	}
	if d := s.distance(red); d != 8 {
		t.Errorf("red distance %d", d)
	}
	// A full blue row cuts red off.
	s = New(3)
	s.cells[3], s.cells[4], s.cells[5] = blue, blue, blue
	if d := s.distance(red); d != unreachable {
		t.Errorf("blocked red distance %d", d)
	}
	if d := s.distance(blue); d != 0 {
		t.Errorf("connected blue distance %d", d)
	}
	if testing.AllocsPerRun(100, func() { s.Evaluate(0) }) != 0 {
		t.Error("Evaluate allocates")
	}
}

func TestApplyNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := New(9)
	var buf []engine.Move
	var moves []engine.Move
	for !s.Terminal() {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
		moves = append(moves, m)
	}
	w := New(9)
	allocs := testing.AllocsPerRun(20, func() {
		reset(w, 9)
		for _, m := range moves {
			w.Apply(m)
		}
	})
	if allocs != 0 {
		t.Errorf("a whole game of Apply allocates %v times", allocs)
	}
}

// reset returns s to the start position, keeping its history buffer.
func reset(s *State, n int) {
	h := s.hist[:1]
	g := s.g
	*s = State{g: g, empty: n * n, winner: engine.NoSeat, repeat: 1, hist: h}
	s.hist[0] = 0
}

// TestCloneConcurrent plays on clones in other goroutines while the
// original goes on: the shared history must not race (run with -race).
func TestCloneConcurrent(t *testing.T) {
	s := New(9)
	play(t, s, "PLACE 3 4", "PLACE 3 3", "PLACE 4 5", "PLACE 3 5", "PLACE 5 4", "PLACE 4 3", "PLACE 5 3", "PLACE 4 4")
	clones := make([]*State, 4)
	for i := range clones {
		clones[i] = s.Clone().(*State)
	}
	done := make(chan string, len(clones))
	for i, c := range clones {
		go func() {
			r := rand.New(rand.NewPCG(uint64(i), 1))
			var buf []engine.Move
			for !c.Terminal() {
				var m engine.Move
				m, buf, _ = engine.RandomLegal(c, r, buf)
				c.Apply(m)
			}
			done <- c.Result().Reason
		}()
	}
	r := rand.New(rand.NewPCG(99, 1))
	var buf []engine.Move
	for !s.Terminal() {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
	}
	for range clones {
		if reason := <-done; reason == "" {
			t.Error("clone game without a result")
		}
	}
}
