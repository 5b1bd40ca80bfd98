package dotsboxes

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/engine/enginetest"
)

const vectorFile = "testdata/dots-and-boxes.jsonl"

// TestVectors replays every recorded game and reports each mismatch with
// its seed, tag, ply and field; output is bounded.
func TestVectors(t *testing.T) {
	enginetest.ReplayVectors(t, Game{}, vectorFile)
}

func newState(t *testing.T, rows, cols int) *State {
	t.Helper()
	st, err := Game{}.NewState(engine.Params{"rows": itoa(rows), "cols": itoa(cols)})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, mt := range moves {
		m, err := s.ParseMove(mt)
		if err != nil {
			t.Fatalf("ParseMove(%q): %v", mt, err)
		}
		s.Apply(m)
	}
}

func TestSizes(t *testing.T) {
	for _, c := range []struct{ rows, cols, lines, boxes int }{
		{5, 5, 40, 16}, {3, 3, 12, 4}, {4, 6, 38, 15}, {6, 4, 38, 15}, {2, 2, 4, 1}, {12, 12, 264, 121}, {2, 12, 34, 11},
	} {
		s := newState(t, c.rows, c.cols)
		ms := s.LegalMoves(nil)
		if len(ms) != c.lines || s.LegalCount() != c.lines || s.g.nBoxes != c.boxes {
			t.Errorf("%dx%d: %d moves, count %d, %d boxes; want %d lines, %d boxes",
				c.rows, c.cols, len(ms), s.LegalCount(), s.g.nBoxes, c.lines, c.boxes)
		}
		// Grid order: ascending (a, b, c, d).
		prev := [4]int8{-1}
		for _, m := range ms {
			e := s.g.ends[m]
			if !less(prev, e) {
				t.Errorf("%dx%d: %v does not sort after %v", c.rows, c.cols, e, prev)
			}
			prev = e
		}
		// Random playout to the end: every box scored, result consistent.
		r := rand.New(rand.NewPCG(uint64(c.rows), uint64(c.cols)))
		var buf []engine.Move
		for !s.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			back, err := s.ParseMove(s.FormatMove(m))
			if err != nil || back != m {
				t.Fatalf("round trip %q: %v %v", s.FormatMove(m), back, err)
			}
			s.Apply(m)
		}
		sc := s.Scores()
		res := s.Result()
		if sc[0]+sc[1] != c.boxes || s.Ply() != c.lines || res.Scores != sc || s.ToMove() != engine.NoSeat || len(s.LegalMoves(nil)) != 0 {
			t.Errorf("%dx%d end: scores %v ply %d result %+v", c.rows, c.cols, sc, s.Ply(), res)
		}
		if (sc[0] == sc[1]) != res.Draw || (!res.Draw && sc[res.Winner] <= sc[res.Winner^1]) {
			t.Errorf("%dx%d end: scores %v result %+v", c.rows, c.cols, sc, res)
		}
	}
	for _, p := range []engine.Params{{"rows": "1"}, {"cols": "13"}, {"rows": "x"}, {"size": "5"}} {
		if _, err := (Game{}).NewState(p); err == nil {
			t.Errorf("NewState(%v) accepted", p)
		}
		if _, err := (Game{}).Profile(p); err == nil {
			t.Errorf("Profile(%v) accepted", p)
		}
	}
}

func less(a, b [4]int8) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func TestFirstMovesAndGridOrder(t *testing.T) {
	s := newState(t, 3, 3)
	var got []string
	for _, m := range s.LegalMoves(nil) {
		got = append(got, s.FormatMove(m))
	}
	want := "[[0,0],[0,1]] [[0,0],[1,0]] [[0,1],[0,2]] [[0,1],[1,1]] [[0,2],[1,2]] [[1,0],[1,1]] [[1,0],[2,0]] [[1,1],[1,2]] [[1,1],[2,1]] [[1,2],[2,2]] [[2,0],[2,1]] [[2,1],[2,2]]"
	if strings.Join(got, " ") != want {
		t.Errorf("3x3 legal moves:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestParseMove(t *testing.T) {
	s := newState(t, 4, 6)
	play(t, s, "[[0,0],[0,1]]")
	ok := map[string]string{
		"[[1,2],[1,3]]":                 "[[1,2],[1,3]]",
		"[[1,3],[1,2]]":                 "[[1,2],[1,3]]", // reversed endpoints
		"[[3,5],[2,5]]":                 "[[2,5],[3,5]]",
		" [ [ 1 , 2 ] , [ 2 , 2 ] ] \n": "[[1,2],[2,2]]", // JSON whitespace
		"\t[[1,2],\r\n[2,2]]":           "[[1,2],[2,2]]",
		"[\n[1,1],\n[2,1]\n]":           "[[1,1],[2,1]]",
		"[[1,1],[2,1]]\r\n":             "[[1,1],[2,1]]",
		"[[-0,0],[1,0]]":                "[[0,0],[1,0]]", // -0 is a JSON integer
		"[[1, 1], [2, 1]]":              "[[1,1],[2,1]]",
		"[[0,5],[1,5]]":                 "[[0,5],[1,5]]", // last column
		"[[3,4],[3,5]]":                 "[[3,4],[3,5]]", // last line
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
		"", " ", "[]", "[[1,2]]", "[[1,2],[1,3],[1,4]]", "[[1,2],[1,3],-1]", "[[1,2,3],[1,3]]", "[[1],[1,3]]",
		"[[1,2],[1,3]", "[[1,2],[1,3]]]", "[[1,2],[1,3]] x", "[[1,2],[1,3]]\n[[0,2],[0,3]]",
		"[[1.0,2],[1,3]]", "[[1,2e0],[1,3]]", "[[1,2],[1,3E1]]", "[[01,2],[1,3]]", "[[+1,2],[1,3]]",
		"[['1',2],[1,3]]", `[["1",2],[1,3]]`, "[[a,2],[1,3]]", "[[1,2],[1,3],]", "[[1,2,],[1,3]]",
		"[[1 2],[1 3]]", "1 2 1 3", "((1,2),(1,3))", "[[-,2],[1,3]]", "[[1,2][1,3]]", "[[1,2],[1,\u00a03]]",
		"[[1,2],[1,\v3]]", "[[1,2],[1,\f3]]", "\ufeff[[1,2],[1,3]]", "null", "{\"a\":1}", "[[NaN,2],[1,3]]",
	}
	for _, text := range unparseable {
		_, err := s.ParseMove(text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Kind != engine.Unparseable {
			t.Errorf("ParseMove(%q) = %v, want unparseable", text, err)
			continue
		}
		if !strings.HasPrefix(me.Reason, "INVALID MOVE: ") || me.Detail == "" || me.Text != text {
			t.Errorf("ParseMove(%q): reason %q detail %q", text, me.Reason, me.Detail)
		}
	}
	illegal := map[string]string{
		"[[0,0],[0,1]]":                       "INVALID MOVE: [[0,0],[0,1]]: the line is already drawn",
		"[[0,1],[0,0]]":                       "INVALID MOVE: [[0,1],[0,0]]: the line is already drawn",
		"[[0,0],[1,1]]":                       "INVALID MOVE: [[0,0],[1,1]]: the dots are not adjacent",
		"[[1,1],[1,1]]":                       "INVALID MOVE: [[1,1],[1,1]]: the dots are not adjacent",
		"[[0,0],[0,2]]":                       "INVALID MOVE: [[0,0],[0,2]]: the dots are not adjacent",
		"[[3,5],[4,5]]":                       "INVALID MOVE: [[3,5],[4,5]]: dot [4,5] is off the 4x6 board",
		"[[3,5],[3,6]]":                       "INVALID MOVE: [[3,5],[3,6]]: dot [3,6] is off the 4x6 board",
		"[[-1,0],[0,0]]":                      "INVALID MOVE: [[-1,0],[0,0]]: dot [-1,0] is off the 4x6 board",
		"[[ -0 ,7],[0,6]]":                    "INVALID MOVE: [[-0,7],[0,6]]: dot [-0,7] is off the 4x6 board",
		"[[99999999999999999999999,0],[0,0]]": "INVALID MOVE: [[99999999999999999999...,0],[0,0]]: dot [99999999999999999999...,0] is off the 4x6 board",
	}
	enginetest.ExpectRejected(t, s, engine.Illegal, illegal)
}

// TestDoubleBox: the line shared by two three-sided boxes scores +2 and
// the mover moves again.
func TestDoubleBox(t *testing.T) {
	s := newState(t, 3, 3)
	// The six outer sides of boxes (0,0) and (0,1); none completes a box.
	play(t, s, "[[0,0],[1,0]]", "[[0,0],[0,1]]", "[[1,0],[1,1]]", "[[0,1],[0,2]]", "[[1,1],[1,2]]", "[[0,2],[1,2]]")
	if s.ToMove() != 0 || s.Scores() != [2]int{0, 0} || s.threeSided() != 2 {
		t.Fatalf("before: to move %d scores %v threes %d", s.ToMove(), s.Scores(), s.threeSided())
	}
	if s.Evaluate(0) <= s.Evaluate(1) {
		t.Errorf("two takeable boxes not good for the mover: %v vs %v", s.Evaluate(0), s.Evaluate(1))
	}
	play(t, s, "[[1,1],[0,1]]") // the shared side, reversed
	if s.ToMove() != 0 || s.Scores() != [2]int{2, 0} || s.LegalCount() != 5 {
		t.Fatalf("after: to move %d scores %v legal %d; want 0, [2 0], 5", s.ToMove(), s.Scores(), s.LegalCount())
	}
	if s.owner(0) != 0 || s.owner(1) != 0 || s.owner(2) != -1 {
		t.Errorf("owners %d %d %d", s.owner(0), s.owner(1), s.owner(2))
	}
	// A non-completing move passes the turn.
	play(t, s, "[[1,0],[2,0]]")
	if s.ToMove() != 1 {
		t.Errorf("turn not passed")
	}
}

// agentView decodes the view of seat.
type agentView struct {
	Dimensions       [2]int
	IsMover          bool
	ResponseDeadline string
	MyScore          int
	OppScore         int
	InvalidMove      bool
	OpponentId       string
	GameStatus       string
	Grid             [][3]json.RawMessage
	Squares          [][2]json.RawMessage
}

func view(t *testing.T, s *State, seat int, opp string) (agentView, map[string]any) {
	t.Helper()
	raw, err := s.AgentView(seat, opp, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var v agentView
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("view %s: %v", raw, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return v, m
}

func TestAgentView(t *testing.T) {
	s := newState(t, 3, 3)
	// Seat 0 draws three sides of box (0,0); seat 1 completes it and draws
	// one more line.
	play(t, s, "[[0,0],[0,1]]", "[[2,1],[2,2]]", "[[0,0],[1,0]]", "[[1,2],[2,2]]", "[[1,0],[1,1]]", "[[0,1],[1,1]]", "[[0,1],[0,2]]")
	if s.Scores() != [2]int{0, 1} || s.ToMove() != 0 {
		t.Fatalf("setup: scores %v to move %d", s.Scores(), s.ToMove())
	}
	drawnBy := map[string]int{ // absolute seats
		"[[0,0],[0,1]]": 0, "[[2,1],[2,2]]": 1, "[[0,0],[1,0]]": 0, "[[1,2],[2,2]]": 1,
		"[[1,0],[1,1]]": 0, "[[0,1],[1,1]]": 1, "[[0,1],[0,2]]": 1,
	}
	for seat := 0; seat < 2; seat++ {
		v, m := view(t, s, seat, `house"bot`)
		if len(m) != 10 {
			t.Errorf("seat %d: %d keys, want 10", seat, len(m))
		}
		if v.Dimensions != [2]int{3, 3} || !v.IsMover || v.ResponseDeadline != "" || v.InvalidMove ||
			v.OpponentId != `house"bot` || v.GameStatus != "RUNNING" {
			t.Errorf("seat %d: header %+v", seat, v)
		}
		if v.MyScore != s.Scores()[seat] || v.OppScore != s.Scores()[seat^1] {
			t.Errorf("seat %d: scores %d/%d", seat, v.MyScore, v.OppScore)
		}
		if len(v.Grid) != 12 || len(v.Squares) != 4 {
			t.Fatalf("seat %d: %d lines, %d squares", seat, len(v.Grid), len(v.Squares))
		}
		for i, e := range v.Grid {
			line := "[" + string(e[0]) + "," + string(e[1]) + "]"
			if want := s.FormatMove(engine.Move(i)); line != want {
				t.Errorf("seat %d: Grid[%d] = %s, want %s", seat, i, line, want)
			}
			want := -1
			if d, ok := drawnBy[line]; ok {
				want = 0
				if d != seat {
					want = 1
				}
			}
			if string(e[2]) != itoa(want) {
				t.Errorf("seat %d: Grid[%d] %s owner %s, want %d", seat, i, line, e[2], want)
			}
		}
		// Box (0,0) was completed by seat 1; the others are open.
		wantOwner := []int{1, -1, -1, -1}
		if seat == 1 {
			wantOwner[0] = 0
		}
		for k, sq := range v.Squares {
			if string(sq[1]) != itoa(wantOwner[k]) {
				t.Errorf("seat %d: Squares[%d] owner %s, want %d", seat, k, sq[1], wantOwner[k])
			}
			var sides [4][3]json.RawMessage
			if err := json.Unmarshal(sq[0], &sides); err != nil {
				t.Fatalf("Squares[%d] sides %s: %v", k, sq[0], err)
			}
			x, y := k/2, k%2
			wantSides := []string{
				dotsText(x, y, x+1, y), dotsText(x, y, x, y+1), dotsText(x+1, y, x+1, y+1), dotsText(x, y+1, x+1, y+1),
			}
			for j, side := range sides {
				line := "[" + string(side[0]) + "," + string(side[1]) + "]"
				if line != wantSides[j] {
					t.Errorf("Squares[%d] side %d = %s, want %s", k, j, line, wantSides[j])
				}
				_, drawn := drawnBy[line]
				if string(side[2]) != map[bool]string{true: "true", false: "false"}[drawn] {
					t.Errorf("Squares[%d] side %s drawn %s", k, line, side[2])
				}
			}
		}
	}
	// The exact text for a small board, seat 1 viewing.
	s2 := newState(t, 2, 2)
	play(t, s2, "[[0,0],[0,1]]")
	raw, _ := s2.AgentView(1, "me", time.Time{})
	want := `{"Dimensions":[2,2],"IsMover":true,"ResponseDeadline":"","MyScore":0,"OppScore":0,"InvalidMove":false,"OpponentId":"me","GameStatus":"RUNNING",` +
		`"Grid":[[[0,0],[0,1],1],[[0,0],[1,0],-1],[[0,1],[1,1],-1],[[1,0],[1,1],-1]],` +
		`"Squares":[[[[[0,0],[1,0],false],[[0,0],[0,1],true],[[1,0],[1,1],false],[[0,1],[1,1],false]],-1]]}`
	if string(raw) != want {
		t.Errorf("view:\n got %s\nwant %s", raw, want)
	}
	if _, err := s2.AgentView(2, "x", time.Time{}); err == nil {
		t.Error("seat 2 accepted")
	}
}

func TestCloneAndHash(t *testing.T) {
	a := newState(t, 5, 5)
	play(t, a, "[[0,0],[0,1]]", "[[3,3],[3,4]]")
	b := newState(t, 5, 5)
	play(t, b, "[[3,3],[3,4]]", "[[0,0],[0,1]]")
	if a.Hash() != b.Hash() {
		t.Errorf("transposed positions hash differently")
	}
	c := a.Clone().(*State)
	before := a.Text()
	play(t, c, "[[1,1],[1,2]]")
	if a.Text() != before || a.LegalCount() != 38 || c.LegalCount() != 37 || a.ToMove() == c.ToMove() {
		t.Errorf("clone not independent: %s / %s", a.Text(), c.Text())
	}
	if a.Hash() == c.Hash() {
		t.Errorf("different positions share a hash")
	}
	if newState(t, 5, 5).Hash() == newState(t, 4, 6).Hash() {
		t.Errorf("different boards share a hash")
	}
	if got := a.Text(); got != "0"+strings.Repeat(".", 32)+"1"+strings.Repeat(".", 6)+"/"+strings.Repeat(".", 16) {
		t.Errorf("text %s", got)
	}
}

func TestInfoAndProfile(t *testing.T) {
	g := Game{}
	info := g.Info()
	if info.Name != "dots-and-boxes" || info.Profile != "aigaming-cs4386-2020" || !info.HasScores || len(info.Params) != 2 {
		t.Errorf("info %+v", info)
	}
	p, err := g.Profile(engine.Params{"rows": "3", "cols": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	if p.Name != info.Profile || p.MoveLimit.Seconds() != 5 || p.FirstMoveLimit != p.MoveLimit || p.Cushion != 0 || p.MemoryMB != 0 ||
		p.StartupTimeout != 30*time.Second {
		t.Errorf("profile %+v", p)
	}
	for _, f := range engine.Failures() {
		if p.PenaltyFor(f) != engine.Loss {
			t.Errorf("penalty for %s = %s", f, p.PenaltyFor(f))
		}
	}
	for f, want := range map[engine.Failure]string{
		engine.FailTimeout: "TIMEOUT: player 2 missed the deadline",
		engine.FailError:   "AGENT ERROR: player 2",
		engine.FailDead:    "AGENT DIED: player 2",
		engine.FailMemory:  "MEMORY: player 2 exceeded the memory limit",
	} {
		if got := p.ReasonFor(f, 1); got != want {
			t.Errorf("reason for %s = %q, want %q", f, got, want)
		}
	}
	if p.ReasonFor(engine.FailIllegal, 0) != "" || p.ReasonFor(engine.FailUnparseable, 0) != "" {
		t.Error("illegal/unparseable reasons must come from the parser")
	}
}

func TestNoAllocs(t *testing.T) {
	s := newState(t, 5, 5)
	buf := make([]engine.Move, 0, 64)
	if n := testing.AllocsPerRun(100, func() {
		c := *s
		c.Apply(7)
		buf = c.LegalMoves(buf[:0])
		_ = c.Evaluate(0)
		_ = c.Hash()
	}); n != 0 {
		t.Errorf("%v allocations per Apply/LegalMoves/Evaluate/Hash", n)
	}
}

func TestDraw(t *testing.T) {
	st, err := Game{}.NewState(engine.Params{"rows": "3", "cols": "3"})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 draws three sides of box (0,0), seat 1 closes it.
	for _, mv := range []string{"[[0,0],[0,1]]", "[[0,0],[1,0]]", "[[0,1],[1,1]]", "[[1,0],[1,1]]"} {
		m, err := st.ParseMove(mv)
		if err != nil {
			t.Fatal(err)
		}
		st.Apply(m)
	}
	want := "+---+   +\n" +
		"| 1 |    \n" +
		"+---+   +\n" +
		"         \n" +
		"+   +   +"
	if got := st.(*State).Draw(); got != want {
		t.Fatalf("Draw:\n%s\nwant:\n%s", got, want)
	}
}

func TestAgentViewDeadline(t *testing.T) {
	s := NewState(3, 3)
	raw, err := s.AgentView(0, "op", time.Date(2026, 3, 1, 12, 0, 5, 250e6, time.FixedZone("x", 3600)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"ResponseDeadline":"2026-03-01T11:00:05.250Z"`) {
		t.Fatalf("deadline not in view: %s", raw)
	}
}
