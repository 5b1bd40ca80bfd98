package hexcrossout

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arena/engine"
)

// seed3 is the start board of the recorded game with seed 3.
const seed3 = "############/############/############/############/############/#####.######/####..######/####...#####/####...#####/###...######/####..######/############"

func mustBoard(t testing.TB, text string) *State {
	t.Helper()
	s, err := NewFromBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func play(t testing.TB, s *State, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		s.Apply(m)
	}
}

func crossed(s *State) []string {
	var out []string
	for i := 0; i < numCells; i++ {
		if s.owner[i] != 0 {
			out = append(out, fmt.Sprintf("(%d,%d)", i/side, i%side))
		}
	}
	return out
}

// TestExample is §3's example: 4,7,3,2 crosses (4,7), (5,6), (5,5).
func TestExample(t *testing.T) {
	s := mustBoard(t, seed3)
	if s.LegalCount() != 54 || s.legalTuples() != 164 {
		t.Errorf("start: legal %d tuples %d", s.LegalCount(), s.legalTuples())
	}
	play(t, s, "4,7,3,2")
	if got := strings.Join(crossed(s), " "); got != "(4,7) (5,5) (5,6)" {
		t.Errorf("crossed %s", got)
	}
	if s.Scores() != [2]int{3, 0} || s.ToMove() != 1 || s.Ply() != 1 {
		t.Errorf("scores %v to move %d", s.Scores(), s.ToMove())
	}
	// The same cells from the other end: 5,5,3,5 is down-left twice.
	s2 := mustBoard(t, seed3)
	m1, _ := s2.ParseMove("4,7,3,2")
	m2, err := s2.ParseMove("5,5,3,5")
	if err != nil || m1 != m2 || s2.FormatMove(m2) != "4,7,3,2" {
		t.Errorf("5,5,3,5: %v %v -> %s", m2, err, s2.FormatMove(m2))
	}
}

func TestCanonical(t *testing.T) {
	s := mustBoard(t, seed3)
	cases := map[string][]string{
		"4,7,1,1": {"4,7,1,1", "4,7,1,2", "4,7,1,6", "4,7,1,0", "4,7,1,-3", "4,7,1,99", "04,007,1,1", "4,7,1,99999999999999999999"},
		"4,7,2,4": {"4,7,2,4", "5,7,2,3"},
		"4,7,3,4": {"4,7,3,4", "6,7,3,3"},
		"4,7,2,5": {"4,8,2,2", "4,7,2,5"}, // (4,8) even row: up-right is (4,7)
		"4,7,2,6": {"4,7,2,6", "5,8,2,1"}, // (4,7) odd row: down-right is (5,8)
		"3,9,2,6": {"3,9,2,6", "4,10,2,1"},
	}
	for want, texts := range cases {
		var first engine.Move
		for k, txt := range texts {
			m, err := s.ParseMove(txt)
			if err != nil {
				t.Errorf("%s: %v", txt, err)
				continue
			}
			if k == 0 {
				first = m
			} else if m != first {
				t.Errorf("%s and %s differ", texts[0], txt)
			}
			if got := s.FormatMove(m); got != want {
				t.Errorf("%s formats as %s, want %s", txt, got, want)
			}
		}
	}
}

func wantIllegal(t *testing.T, s *State, text, detail string) {
	t.Helper()
	_, err := s.ParseMove(text)
	var me *engine.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("%q: %v, want *engine.MoveError", text, err)
	}
	if me.Kind != engine.Illegal || me.Text != text || !strings.HasPrefix(me.Reason, "ILLEGAL MOVE: player ") ||
		!strings.Contains(me.Detail, detail) {
		t.Errorf("%q: got %+v, want detail containing %q", text, *me, detail)
	}
}

func TestIllegal(t *testing.T) {
	s := mustBoard(t, seed3)
	for _, txt := range []string{"", "4,7,1", "4,7,1,1,1", " 4,7,1,1", "4,7,1,1 ", "4, 7,1,1", "+4,7,1,1",
		"4,7,1,1\n", "a,b,c,d", "4,,1,1", "4;7;1;1", "4,7,1,1,", "4.0,7,1,1", "-,7,1,1", "[4,7,1,1]", "4,7,1,0x1"} {
		wantIllegal(t, s, txt, "not four comma-separated integers")
	}
	wantIllegal(t, s, "-1,5,2,4", "outside the 12×12 board") // the original wrapped to column 11
	wantIllegal(t, s, "-12,7,1,1", "outside the 12×12 board")
	wantIllegal(t, s, "12,7,1,1", "outside the 12×12 board")
	wantIllegal(t, s, "4,12,1,1", "outside the 12×12 board")
	wantIllegal(t, s, "4,-1,1,1", "outside the 12×12 board")
	wantIllegal(t, s, "99999999999999999999,7,1,1", "(99999999999999999999, 7) is outside")
	wantIllegal(t, s, "4,7,0,1", "length 0 is outside 1..3")
	wantIllegal(t, s, "4,7,4,1", "length 4 is outside 1..3")
	wantIllegal(t, s, "4,7,-1,1", "length -1 is outside 1..3")
	wantIllegal(t, s, "4,7,2,0", "direction 0 is outside 1..6")
	wantIllegal(t, s, "4,7,2,7", "direction 7 is outside 1..6")
	wantIllegal(t, s, "4,7,3,-2", "direction -2 is outside 1..6")
	wantIllegal(t, s, "0,0,1,1", "start cell (0, 0) is an obstacle")
	wantIllegal(t, s, "4,7,3,3", "cell 2 of the line, (3, 7), is an obstacle")
	play(t, s, "4,7,3,2")
	wantIllegal(t, s, "5,6,1,1", "already crossed out by player 1")
	wantIllegal(t, s, "4,8,2,2", "cell 2 of the line, (4, 7), is already crossed out by player 1")
	e := mustBoard(t, strings.Repeat("############/", 11)+"##########..")
	wantIllegal(t, e, "11,11,2,4", "leaves the board")
	wantIllegal(t, e, "10,11,3,4", "leaves the board")
	play(t, e, "10,11,2,4")
	if !e.Terminal() {
		t.Fatal("not over")
	}
	wantIllegal(t, e, "10,11,1,1", "the game is over")
}

func TestIllegalLegal(t *testing.T) {
	s := mustBoard(t, seed3)
	if _, err := s.ParseMove("4,7,3,4"); err != nil {
		t.Errorf("4,7,3,4: %v", err)
	}
}

// referee is the course's check on an in-range tuple, written plainly.
func referee(s *State, x, y, l, dir int) ([]int, bool) {
	if !s.free.has(x*side + y) {
		return nil, false
	}
	cells := []int{x*side + y}
	for k := 1; k < l; k++ {
		d := deltas[y&1][dir-1]
		x, y = x+d[0], y+d[1]
		if x < 0 || x >= side || y < 0 || y >= side || !s.free.has(x*side+y) {
			return nil, false
		}
		cells = append(cells, x*side+y)
	}
	slices.Sort(cells)
	return cells, true
}

// TestCounts checks LegalMoves, LegalCount and legal_tuples against a
// plain enumeration of every in-range tuple, along random games.
func TestCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for game := 0; game < 60; game++ {
		checkCountsAlongAGame(t, r, newState(mustGenerate(t, 12+game%22, int64(game))))
	}
}

// checkCountsAlongAGame plays s out with uniform legal moves, checking
// LegalMoves, LegalCount and legal_tuples at every position.
func checkCountsAlongAGame(t *testing.T, r *rand.Rand, s *State) {
	t.Helper()
	for !s.Terminal() {
		checkCounts(t, s)
		moves := s.LegalMoves(nil)
		s.Apply(moves[r.IntN(len(moves))])
	}
}

// checkCounts checks one position against a plain enumeration of every
// in-range tuple.
func checkCounts(t *testing.T, s *State) {
	t.Helper()
	sets := map[string][4]int{}
	var order [][4]int
	tuples := 0
	for x := 0; x < side; x++ {
		for y := 0; y < side; y++ {
			for l := 1; l <= 3; l++ {
				for dir := 1; dir <= 6; dir++ {
					cells, ok := referee(s, x, y, l, dir)
					if !ok {
						continue
					}
					tuples++
					key := fmt.Sprint(cells)
					if _, seen := sets[key]; !seen {
						tup := [4]int{x, y, l, dir}
						if l == 1 {
							tup[3] = 1
						}
						sets[key] = tup
						order = append(order, tup)
					}
				}
			}
		}
	}
	if s.legalTuples() != tuples || s.LegalCount() != len(sets) {
		t.Fatalf("%s: tuples %d/%d sets %d/%d", s.Text(), s.legalTuples(), tuples, s.LegalCount(), len(sets))
	}
	moves := s.LegalMoves(nil)
	if len(moves) != len(order) {
		t.Fatalf("%d moves, want %d", len(moves), len(order))
	}
	for i, m := range moves {
		tup := order[i]
		want := fmt.Sprintf("%d,%d,%d,%d", tup[0], tup[1], tup[2], tup[3])
		if got := s.FormatMove(m); got != want {
			t.Fatalf("move %d: %s, want %s (first tuple of its set, ascending)", i, got, want)
		}
	}
}

func mustGenerate(t testing.TB, n int, seed int64) mask {
	t.Helper()
	m, err := generate(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGenerator(t *testing.T) {
	seeds := []int64{0, 1, 2, 3, 42, -7, 1001, 1 << 40, math.MinInt64, math.MaxInt64}
	distinct := map[string]bool{}
	for n := minFree; n <= maxFree; n++ {
		for _, seed := range seeds {
			a, err := Generate(n, seed)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Generate(n, seed)
			if a != b {
				t.Fatalf("n=%d seed=%d: not deterministic", n, seed)
			}
			free, err := parseBoard(a) // checks the shape and connectivity
			if err != nil {
				t.Fatalf("n=%d seed=%d: %v\n%s", n, seed, err, a)
			}
			if free.count() != n || !free.has(centre) {
				t.Fatalf("n=%d seed=%d: %d free cells, centre free %v", n, seed, free.count(), free.has(centre))
			}
			distinct[a] = true
		}
	}
	if len(distinct) < (maxFree-minFree+1)*len(seeds)*9/10 {
		t.Errorf("only %d distinct boards", len(distinct))
	}
	st, err := Game{}.NewState(engine.Params{"free": "30", "seed": "77"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Generate(30, 77)
	if st.Text() != want {
		t.Error("NewState(free, seed) differs from Generate")
	}
	def, _ := Game{}.NewState(engine.Params{})
	want, _ = Generate(24, 1)
	if def.Text() != want {
		t.Error("default board is not free=24 seed=1")
	}
}

func TestParams(t *testing.T) {
	bad := []engine.Params{
		{"free": "11"}, {"free": "34"}, {"free": "x"}, {"seed": "1.5"}, {"size": "3"},
		{"board": seed3, "free": "20"}, {"board": seed3, "seed": "2"},
		{"board": strings.Repeat("#", 144)},
		{"board": strings.Repeat("############/", 11) + "###########"},
		{"board": strings.Repeat("############/", 11) + "#####x######"},
		{"board": strings.Repeat("############/", 12) + "############"},
		{"board": strings.Repeat("############/", 11) + "############"},
		{"board": strings.Repeat("############/", 11) + ".#.#########"},
		{"board": strings.Repeat("############/", 11) + "1###########"},
	}
	for _, p := range bad {
		if _, err := (Game{}).NewState(p); err == nil {
			t.Errorf("NewState(%v): want an error", p)
		} else if !strings.Contains(err.Error(), "parameter") {
			t.Errorf("NewState(%v): %v does not name the parameter", p, err)
		}
		if _, err := (Game{}).Profile(p); err == nil {
			t.Errorf("Profile(%v): want an error", p)
		}
	}
	// Rows are joined by '/': cells on adjacent rows touch across the shift.
	if _, err := NewFromBoard(strings.Repeat("############/", 10) + "#.##########/.###########"); err != nil {
		t.Errorf("(1,10)-(0,11) are neighbours: %v", err)
	}
	if _, err := NewFromBoard(strings.Repeat("############/", 10) + ".###########/#.##########"); err == nil {
		t.Errorf("(0,10)-(1,11) are not neighbours")
	}
}

func TestProfile(t *testing.T) {
	p, err := Game{}.Profile(engine.Params{"board": seed3})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Time != engine.PerMove || p.MoveLimit.Seconds() != 6 || p.FirstMoveLimit.Seconds() != 6 || p.Cushion != 0 || p.MemoryMB != 0 {
		t.Errorf("numbers %+v", p)
	}
	want := map[engine.Failure]engine.Penalty{
		engine.FailTimeout: engine.RandomMove, engine.FailLate: engine.RandomMove, engine.FailUnparseable: engine.Loss,
		engine.FailIllegal: engine.Loss, engine.FailError: engine.RandomMove, engine.FailDead: engine.SkipTurn,
		engine.FailMemory: engine.AsDead,
	}
	for f, w := range want {
		if p.PenaltyFor(f) != w {
			t.Errorf("%s: %s, want %s", f, p.PenaltyFor(f), w)
		}
	}
}

// TestRandomMove checks that substitutes are legal and follow the
// referee's distribution on a small board.
func TestRandomMove(t *testing.T) {
	s := mustBoard(t, seed3)
	play(t, s, "4,9,1,1")
	checkRandomMove(t, s, 400000)
	r := rand.New(rand.NewPCG(1, 2))
	// Playing only substitutes always finishes the game legally.
	for g := 0; g < 200; g++ {
		st, _ := Game{}.NewState(engine.Params{"free": strconv.Itoa(12 + g%22), "seed": strconv.Itoa(g)})
		for !st.Terminal() {
			m, _, ok := engine.SubstituteMove(st, r, nil)
			if !ok {
				t.Fatal("no substitute")
			}
			if !slices.Contains(st.LegalMoves(nil), m) {
				t.Fatalf("illegal substitute %s", st.FormatMove(m))
			}
			st.Apply(m)
		}
	}
}

func TestPass(t *testing.T) {
	s := mustBoard(t, seed3)
	h := s.Hash()
	s.Pass()
	if s.ToMove() != 1 || s.Ply() != 0 || s.LegalCount() != 54 || s.Hash() == h {
		t.Errorf("after pass: to move %d ply %d", s.ToMove(), s.Ply())
	}
	s.Pass()
	if s.ToMove() != 0 || s.Hash() != h {
		t.Errorf("two passes: to move %d, hash restored %v", s.ToMove(), s.Hash() == h)
	}
	// Seat 1 is dead: seat 0 plays every move and must take the last cell.
	for !s.Terminal() {
		if s.ToMove() == 1 {
			s.Pass()
			continue
		}
		s.Apply(s.LegalMoves(nil)[0])
	}
	r := s.Result()
	if r.Winner != 1 || r.Draw || r.Scores != [2]int{14, 0} {
		t.Errorf("result %+v", r)
	}
	s.Pass() // no effect once over
	if s.ToMove() != engine.NoSeat {
		t.Error("pass after the end")
	}
}

func TestEnd(t *testing.T) {
	s := mustBoard(t, strings.Repeat("############/", 11)+"#########...")
	if s.LegalCount() != 6 {
		t.Fatalf("legal %d", s.LegalCount())
	}
	play(t, s, "9,11,1,1", "10,11,2,4")
	r := s.Result()
	if !s.Terminal() || r.Winner != 0 || r.Draw || r.Scores != [2]int{1, 2} || s.ToMove() != engine.NoSeat {
		t.Errorf("result %+v", r)
	}
	if s.Text() != strings.Repeat("############/", 11)+"#########122" {
		t.Errorf("text %s", s.Text())
	}
	f := map[string]any{}
	s.PlyFields(f)
	if f["legal_tuples"] != 0 || s.LegalCount() != 0 || len(s.LegalMoves(nil)) != 0 {
		t.Errorf("final fields %v", f)
	}
}

func TestHashAndClone(t *testing.T) {
	a, b := mustBoard(t, seed3), mustBoard(t, seed3)
	play(t, a, "4,9,1,1", "4,10,1,1", "5,8,1,1")
	play(t, b, "5,8,1,1", "4,10,1,1", "4,9,1,1")
	if a.Hash() != b.Hash() {
		t.Error("transposition hashes differ")
	}
	c := a.Clone().(*State)
	play(t, c, "6,7,1,1")
	if c.Hash() == a.Hash() || a.FreeCells() != c.FreeCells()+1 || a.Text() == c.Text() {
		t.Error("clone not independent")
	}
}

func TestEvaluate(t *testing.T) {
	// Four isolated cells (not a valid start board, built directly).
	var free mask
	for _, x := range []int{0, 2, 4, 6} {
		free.set(x*side + 11)
	}
	s := newState(free)
	if s.Evaluate(0) != 1 || s.Evaluate(1) != -1 {
		t.Errorf("four singles, seat 0 to move: %v %v", s.Evaluate(0), s.Evaluate(1))
	}
	play(t, s, "0,11,1,1")
	if s.Evaluate(1) != -1 || s.Evaluate(0) != 1 {
		t.Errorf("three singles, seat 1 to move: %v %v", s.Evaluate(1), s.Evaluate(0))
	}
	g := mustBoard(t, seed3)
	if v := g.Evaluate(0); v != 0.5 {
		t.Errorf("one region: %v", v)
	}
	if testing.AllocsPerRun(100, func() { g.Evaluate(0) }) != 0 {
		t.Error("Evaluate allocates")
	}
}
