package bohnenspiel

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"arena/engine"
	"arena/engine/vector"
)

const startText = "6,6,6,6,6,6|6,6,6,6,6,6|skip=2,2|blocked=0,0|turn=0"

// play applies move texts from the start, failing on the first bad one.
func play(t testing.TB, moves ...string) *State {
	t.Helper()
	s := New()
	for i, mv := range moves {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("move %d %q: %v", i, mv, err)
		}
		s.Apply(m)
	}
	return s
}

func TestInfoAndProfile(t *testing.T) {
	g := Game{}
	info := g.Info()
	if info.Name != "bohnenspiel" || info.Profile != "comp424-2017" || !info.HasScores || len(info.Params) != 0 {
		t.Errorf("Info = %+v", info)
	}
	st, err := g.NewState(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Text(); got != startText {
		t.Errorf("start text %q, want %q", got, startText)
	}
	if _, err := g.NewState(engine.Params{"n": "3"}); err == nil || !strings.Contains(err.Error(), "n") {
		t.Errorf("NewState with a parameter: err = %v, want an error naming it", err)
	}
	if _, err := g.Profile(engine.Params{"x": "1"}); err == nil {
		t.Error("Profile with a parameter: no error")
	}
	p, err := g.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
	if p.Time != engine.PerMove || p.FirstMoveLimit.Seconds() != 30 || p.MoveLimit.Milliseconds() != 700 ||
		p.Cushion.Seconds() != 1 || p.MemoryMB != 520 || p.StartupTimeout != p.FirstMoveLimit {
		t.Errorf("profile numbers %+v", p)
	}
	want := map[engine.Failure]engine.Penalty{
		engine.FailTimeout: engine.Loss, engine.FailLate: engine.RandomMove,
		engine.FailUnparseable: engine.AsTimeout, engine.FailIllegal: engine.Loss,
		engine.FailError: engine.RandomMove, engine.FailDead: engine.RandomMove,
		engine.FailMemory: engine.AsDead,
	}
	for _, f := range engine.Failures() {
		if got := p.PenaltyFor(f); got != want[f] {
			t.Errorf("penalty for %s = %s, want %s", f, got, want[f])
		}
	}
	if got := p.ReasonFor(engine.FailTimeout, 1); got != "TIMEOUT" {
		t.Errorf("timeout reason %q", got)
	}
	// The profile map must be fresh each time, so an override cannot leak.
	p.Penalties[engine.FailLate] = engine.Loss
	if q, _ := g.Profile(nil); q.PenaltyFor(engine.FailLate) != engine.RandomMove {
		t.Error("Profile returns shared maps")
	}
}

// TestWorkedExample is §5's example: vector seed 1, plies[20].
func TestWorkedExample(t *testing.T) {
	recs, err := vector.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	var rec *vector.Record
	for _, r := range recs {
		if string(r.Seed) == "1" {
			rec = r
			break
		}
	}
	if rec == nil {
		t.Fatal("no vector game with seed 1")
	}
	s := play(t, rec.Moves[:20]...)
	if got, want := s.Text(), "1,5,15,3,2,2|1,13,12,2,4,0|"; !strings.HasPrefix(got, want) {
		t.Fatalf("before: %q, want prefix %q", got, want)
	}
	if s.Scores() != [2]int{6, 6} || s.ToMove() != 0 || rec.Moves[20] != "PIT 0 2" {
		t.Fatalf("before: scores %v, to move %d, move %q", s.Scores(), s.ToMove(), rec.Moves[20])
	}
	m, err := s.ParseMove("PIT 0 2")
	if err != nil {
		t.Fatal(err)
	}
	s.Apply(m)
	if got, want := s.Text(), "2,6,1,5,0,0|2,14,13,3,5,1|"; !strings.HasPrefix(got, want) {
		t.Errorf("after: %q, want prefix %q", got, want)
	}
	if s.Scores() != [2]int{14, 6} {
		t.Errorf("after: scores %v, want [14 6]", s.Scores())
	}
}

func TestIllegalReasons(t *testing.T) {
	skipped := play(t, "SKIP 0")                                             // player 1 barred
	noCredit := play(t, "SKIP 0", "PIT 1 0", "SKIP 0", "PIT 1 1")            // player 0 spent both credits
	emptyPit := play(t, "PIT 0 4", "PIT 1 0")                                // player 0's pit 4 is empty
	afterPit := play(t, "SKIP 0", "PIT 1 0", "SKIP 0", "PIT 1 1", "PIT 0 0") // player 1's bar lifted by its pit move, credits left
	cases := []struct {
		s      *State
		text   string
		reason string
		detail string
	}{
		{New(), "PIT 0 9", "ILLEGAL MOVE: Player 0 plays pit 9", "pit 9 is outside 0..5"},
		{New(), "PIT 0 -1", "ILLEGAL MOVE: Player 0 plays pit -1", "outside"},
		{New(), "PIT 0 2147483647", "ILLEGAL MOVE: Player 0 plays pit 2147483647", "outside"},
		{emptyPit, "PIT 0 4", "ILLEGAL MOVE: Player 0 plays pit 4", "pit 4 is empty"},
		{New(), "PIT 1 3", "ILLEGAL MOVE: Player 1 plays pit 3", "player 0's turn"},
		{New(), "PIT 7 9", "ILLEGAL MOVE: Player 7 plays pit 9", "player 0's turn"},
		{New(), "SKIP 1", "ILLEGAL MOVE: Player 1 skips turn.", "player 0's turn"},
		{New(), "NOTHING 0", "ILLEGAL MOVE: Player 0 ends turn.", "never"},
		{New(), "NOTHING -5 x", "ILLEGAL MOVE: Player -5 ends turn.", "never"},
		{skipped, "SKIP 1", "ILLEGAL MOVE: Player 1 skips turn.", "may not skip"},
		{noCredit, "SKIP 0", "ILLEGAL MOVE: Player 0 skips turn.", "no skip credits"},
		{New(), "PIT +0 09", "ILLEGAL MOVE: Player 0 plays pit 9", "outside"},
	}
	for _, c := range cases {
		_, err := c.s.ParseMove(c.text)
		var me *engine.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%q: err = %v, want a *MoveError", c.text, err)
			continue
		}
		if me.Kind != engine.Illegal || me.Reason != c.reason || !strings.Contains(me.Detail, c.detail) || me.Text != c.text {
			t.Errorf("%q: got %s %q detail %q text %q, want illegal %q detail containing %q",
				c.text, me.Kind, me.Reason, me.Detail, me.Text, c.reason, c.detail)
		}
	}
	if _, err := afterPit.ParseMove("SKIP 1"); err != nil {
		t.Errorf("SKIP 1 after its own pit move: %v", err)
	}
}

// The course server read replies a line at a time: a trailing line break,
// in any of the three forms, is not part of the move, and nothing after
// the first one is.
func TestReplyIsOneLine(t *testing.T) {
	for _, text := range []string{"PIT 0 2\n", "PIT 0 2\r\n", "PIT 0 2\r", "PIT 0 2\nPIT 0 3", "PIT 0 2\r\n\r\n"} {
		s := New()
		m, err := s.ParseMove(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := s.FormatMove(m); got != "PIT 0 2" {
			t.Errorf("%q parsed as %q", text, got)
		}
	}
}

func TestUnparseable(t *testing.T) {
	for _, text := range []string{
		"", " ", "   ", "pit 0 1", "Pit 0 1", "PIT 0", "PIT 0 ", "PIT x 1", "PIT 0 x", "PIT  0 1", "PIT 0  1",
		"PIT 0 99999999999", "PIT 0 2147483648", "PIT 2147483648 0", "PIT -2147483649 0",
		"SKIP", "SKIP ", "SKIP x", "NOTHING", "MOVE 0 1", " PIT 0 1", "PIT\t0 1", "PIT 0 1.0",
		"PIT 0 +", "PIT 0 -", "PIT 0 +-1", "\nPIT 0 1", "PIT 0 0x1", "PIT 0 1e0", "FOO 0",
		"PIT 0 \U0001D7D1", // a mathematical digit outside the BMP: Java saw two surrogates
	} {
		_, err := New().ParseMove(text)
		var me *engine.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%q: err = %v, want a *MoveError", text, err)
			continue
		}
		if me.Kind != engine.Unparseable || me.Reason != "" || me.Detail == "" || me.Text != text {
			t.Errorf("%q: got kind %s reason %q detail %q text %q, want unparseable with a detail and no reason",
				text, me.Kind, me.Reason, me.Detail, me.Text)
		}
	}
}

func TestAcceptedForms(t *testing.T) {
	for text, want := range map[string]engine.Move{
		"PIT 0 1":            PitMove(0, 1),
		"PIT 0 1 extra":      PitMove(0, 1),
		"PIT 0 1 ":           PitMove(0, 1),
		"PIT 0 1  ":          PitMove(0, 1),
		"PIT 0 5 x y z":      PitMove(0, 5),
		"PIT +0 +3":          PitMove(0, 3),
		"PIT -0 -0":          PitMove(0, 0),
		"PIT 00 0004":        PitMove(0, 4),
		"SKIP 0":             SkipMove(0),
		"SKIP 0 1":           SkipMove(0),
		"SKIP 0 anything  ":  SkipMove(0),
		"PIT 0 \uFF13":       PitMove(0, 3), // fullwidth 3, a digit to Java's Character.digit
		"PIT \u0660 \u0662":  PitMove(0, 2), // Arabic-Indic 0 and 2
		"PIT 0 \u096A extra": PitMove(0, 4), // Devanagari 4
	} {
		got, err := New().ParseMove(text)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", text, got, err, want)
		}
	}
}

func TestJavaInt(t *testing.T) {
	for in, want := range map[string]int32{
		"0": 0, "-0": 0, "+7": 7, "2147483647": 2147483647, "-2147483648": -2147483648,
		"0000000000000000000012": 12, "\u0663\u0664": 34,
	} {
		if got, ok := javaInt(in); !ok || got != want {
			t.Errorf("javaInt(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "+", "-", "2147483648", "-2147483649", "1 ", " 1", "1_0", "١x", "99999999999999999999999"} {
		if got, ok := javaInt(in); ok {
			t.Errorf("javaInt(%q) = %d, want a failure", in, got)
		}
	}
}

// TestDigitTable checks the assumption digitValue rests on.
func TestDigitTable(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("unicode.Nd range %#x-%#x stride %d is not whole runs of ten", rg.Lo, rg.Hi, rg.Stride)
		}
	}
	for r := rune(0); r <= 0xFFFF; r++ {
		d := digitValue(r)
		if (d >= 0) != unicode.IsDigit(r) {
			t.Fatalf("digitValue(%#x) = %d, unicode.IsDigit = %v", r, d, unicode.IsDigit(r))
		}
	}
}

func TestEndings(t *testing.T) {
	// Variant B's dead end: player 1 has an empty row and a credit, but
	// player 0's skip bars it, so the game ends and player 0 sweeps.
	s := &State{credit: [2]uint8{1, 1}, toMove: 0}
	s.pits[0], s.pits[3] = 40, 4
	s.score = [2]uint8{10, 18}
	s.Apply(SkipMove(0))
	if !s.Terminal() || s.EndingLabel() != LabelNoValidMoves || s.Scores() != [2]int{54, 18} ||
		s.Text() != "0,0,0,0,0,0|0,0,0,0,0,0|skip=0,1|blocked=0,1|turn=0" || s.ToMove() != engine.NoSeat {
		t.Errorf("dead end: %s %q scores %v", s.Text(), s.EndingLabel(), s.Scores())
	}
	if r := s.Result(); r.Winner != 0 || r.Draw || r.Reason != "" || r.Scores != [2]int{54, 18} {
		t.Errorf("dead end result %+v", r)
	}
	if s.LegalCount() != 0 || len(s.LegalMoves(nil)) != 0 {
		t.Error("moves listed after the end")
	}
	if _, err := s.ParseMove("PIT 0 0"); err == nil {
		t.Error("move accepted after the end")
	}

	// Player 1's 201st move ends the game by score, seeds staying put.
	s = &State{credit: [2]uint8{0, 0}, toMove: 1, turn: maxTurn, ply: 2*maxTurn + 1}
	s.pits[0], s.pits[6], s.pits[7] = 30, 1, 36
	s.score = [2]uint8{3, 2}
	s.Apply(PitMove(1, 0)) // one seed into pit 1,1: 37, no capture
	if !s.Terminal() || s.EndingLabel() != LabelMaxTurn || s.Ply() != 402 || s.TurnNumber() != 201 {
		t.Errorf("max turn: %s %q ply %d", s.Text(), s.EndingLabel(), s.Ply())
	}
	if r := s.Result(); r.Winner != 0 || r.Scores != [2]int{3, 2} {
		t.Errorf("max turn result %+v", r)
	}

	// The no-legal-move ending wins over the round limit.
	s = &State{credit: [2]uint8{0, 0}, toMove: 1, turn: maxTurn}
	s.pits[11] = 1
	s.pits[5] = 71
	s.Apply(PitMove(1, 5)) // the seed lands in pit 0,0; player 0 still has seeds
	if s.EndingLabel() != LabelMaxTurn {
		t.Errorf("limit with moves left: %q", s.EndingLabel())
	}
	s = &State{credit: [2]uint8{0, 0}, toMove: 1, turn: maxTurn}
	s.pits[10] = 1
	s.pits[11] = 71
	s.Apply(PitMove(1, 4)) // player 0's row stays empty
	if s.EndingLabel() != LabelNoValidMoves || s.Scores() != [2]int{0, 72} {
		t.Errorf("limit and no moves: %q %v", s.EndingLabel(), s.Scores())
	}

	// A draw.
	s = &State{credit: [2]uint8{0, 0}, toMove: 0, score: [2]uint8{35, 36}}
	s.pits[0] = 1
	s.Apply(PitMove(0, 0)) // player 1 has no move; player 0 sweeps its own seed
	if r := s.Result(); !r.Draw || r.Winner != engine.NoSeat || r.Scores != [2]int{36, 36} {
		t.Errorf("draw result %+v (%s)", r, s.Text())
	}
}

func TestSowingLapsAndCrossCapture(t *testing.T) {
	// 24 seeds from pit 0,0: two whole laps, the origin getting two seeds
	// back; the last lands in the origin (2 seeds), which is captured, and
	// the chain walks back over the row boundary into pit 1,5.
	s := &State{credit: [2]uint8{2, 2}}
	s.pits[0] = 24
	s.pits[11] = 2 // becomes 4
	s.pits[10] = 3 // becomes 5: stop
	s.pits[6] = 1
	s.score = [2]uint8{0, 40}
	s.Apply(PitMove(0, 0))
	if got, want := s.Text(), "0,2,2,2,2,2|3,2,2,2,5,0|skip=2,2|blocked=0,0|turn=0"; got != want {
		t.Errorf("after: %q, want %q", got, want)
	}
	if s.Scores() != [2]int{6, 40} {
		t.Errorf("scores %v", s.Scores())
	}
}

// TestPlayouts plays random games checking invariants at every ply.
func TestPlayouts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf []engine.Move
	ends := map[string]int{}
	games := 3000
	if testing.Short() {
		games = 300
	}
	for g := 0; g < games; g++ {
		s := New()
		for !s.Terminal() {
			checkInvariants(t, s)
			buf = s.LegalMoves(buf[:0])
			if len(buf) == 0 {
				t.Fatalf("game %d ply %d: non-terminal without moves: %s", g, s.Ply(), s.Text())
			}
			// Bias toward skips and quiet moves now and then so long games
			// and the round limit are reached too.
			m := buf[r.IntN(len(buf))]
			if g%4 == 0 {
				m = buf[len(buf)-1]
			}
			s.Apply(m)
		}
		checkInvariants(t, s)
		ends[s.EndingLabel()]++
		if t.Failed() {
			return
		}
	}
	if ends[LabelNoValidMoves] == 0 {
		t.Errorf("endings %v", ends)
	}
}

func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	sum := s.Scores()[0] + s.Scores()[1]
	for p := 0; p < 2; p++ {
		for i := 0; i < pitsPerSide; i++ {
			sum += s.Pit(p, i)
		}
	}
	if sum != totalSeeds {
		t.Fatalf("ply %d: scores + seeds = %d: %s", s.Ply(), sum, s.Text())
	}
	if s.Ply() > 2*(maxTurn+1) {
		t.Fatalf("ply %d past the round limit", s.Ply())
	}
	moves := s.LegalMoves(nil)
	if len(moves) != s.LegalCount() {
		t.Fatalf("ply %d: %d moves, LegalCount %d", s.Ply(), len(moves), s.LegalCount())
	}
	if s.Terminal() {
		return
	}
	if s.Ply() != 2*s.TurnNumber()+s.ToMove() {
		t.Fatalf("ply %d, turn %d, to move %d", s.Ply(), s.TurnNumber(), s.ToMove())
	}
	for _, m := range moves {
		text := s.FormatMove(m)
		back, err := s.ParseMove(text)
		if err != nil || back != m {
			t.Fatalf("ply %d: %q parses to %v, %v", s.Ply(), text, back, err)
		}
	}
	if c := s.Clone(); c.Hash() != s.Hash() || c.Text() != s.Text() {
		t.Fatalf("clone differs")
	}
}

func TestCloneIndependence(t *testing.T) {
	s := play(t, "PIT 0 4", "SKIP 1")
	c := s.Clone()
	before := s.Text()
	m, err := c.ParseMove("PIT 0 0")
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(m)
	if s.Text() != before || s.Ply() != 2 || s.ToMove() != 0 {
		t.Errorf("original changed: %s", s.Text())
	}
	if c.Text() == before || c.Ply() != 3 {
		t.Errorf("clone did not move: %s", c.Text())
	}
	// And the other way round.
	m, _ = s.ParseMove("PIT 0 5")
	s.Apply(m)
	if c.Text() == s.Text() {
		t.Error("states coincide after different moves")
	}
}

func TestHash(t *testing.T) {
	moves := []string{"PIT 0 4", "PIT 1 4", "SKIP 0", "PIT 1 2"}
	a, b := play(t, moves...), play(t, moves...)
	if a.Hash() != b.Hash() || *a != *b {
		t.Error("equal positions hash differently")
	}
	if New().Hash() != New().Hash() {
		t.Error("start hashes differ")
	}
	// Every field that matters changes the hash.
	base := *a
	variants := []func(s *State){
		func(s *State) { s.pits[3]++; s.pits[9]-- },
		func(s *State) { s.score[0]++; s.pits[0]-- },
		func(s *State) { s.credit[1]-- },
		func(s *State) { s.barred[0] = !s.barred[0] },
		func(s *State) { s.barred[1] = !s.barred[1] },
		func(s *State) { s.toMove ^= 1 },
		func(s *State) { s.turn++ },
		func(s *State) { s.end = maxTurnLimit },
	}
	seen := map[uint64]int{base.Hash(): -1}
	for i, f := range variants {
		v := base
		f(&v)
		h := v.Hash()
		if j, dup := seen[h]; dup {
			t.Errorf("variant %d hashes like %d", i, j)
		}
		seen[h] = i
	}
	// Distinct positions over playouts should essentially never collide.
	r := rand.New(rand.NewPCG(3, 4))
	hashes := map[uint64]string{}
	var buf []engine.Move
	for g := 0; g < 200; g++ {
		s := New()
		for !s.Terminal() {
			key := s.Text() + "/" + string(rune('0'+s.ToMove()))
			if prev, ok := hashes[s.Hash()]; ok && prev != key {
				t.Fatalf("hash collision: %s and %s", prev, key)
			}
			hashes[s.Hash()] = key
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
	}
}

func TestPlyFields(t *testing.T) {
	s := play(t, "SKIP 0")
	f := map[string]any{}
	s.PlyFields(f)
	want := []string{"PIT 1 0", "PIT 1 1", "PIT 1 2", "PIT 1 3", "PIT 1 4", "PIT 1 5"}
	if got, _ := f["legal"].([]string); !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", f["legal"], want)
	}
}

func TestEvaluate(t *testing.T) {
	s := &State{score: [2]uint8{20, 10}, credit: [2]uint8{2, 2}}
	s.pits[0], s.pits[6] = 30, 12
	if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 <= 0 || e1 >= 0 || e0 != -e1 {
		t.Errorf("Evaluate = %v, %v", e0, e1)
	}
	if a := testing.AllocsPerRun(100, func() { _ = s.Evaluate(0) }); a != 0 {
		t.Errorf("Evaluate allocates %v", a)
	}
}

func TestNoAllocs(t *testing.T) {
	s := New()
	buf := make([]engine.Move, 0, 8)
	if a := testing.AllocsPerRun(100, func() { buf = s.LegalMoves(buf[:0]) }); a != 0 {
		t.Errorf("LegalMoves allocates %v", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		c := *s
		c.Apply(PitMove(0, 2))
	}); a != 0 {
		t.Errorf("Apply allocates %v", a)
	}
	if a := testing.AllocsPerRun(100, func() { _ = s.Hash() }); a != 0 {
		t.Errorf("Hash allocates %v", a)
	}
}
