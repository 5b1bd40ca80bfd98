package turning_test

import (
	"context"
	"strings"
	"testing"

	"arena/agents/housebots"
	"arena/arena/record"
	"arena/arena/turning"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/sdk/search"
)

// wins decides by exhaustive negamax whether the side to move wins (1),
// draws (0) or loses (-1) in st, which is not over: the test's own
// answer, independent of the searchers under test. Only for tiny positions.
func wins(st engine.State, memo map[string]int) int {
	key := st.Text()
	if v, ok := memo[key]; ok {
		return v
	}
	best := -2
	me := st.ToMove()
	for _, m := range st.LegalMoves(nil) {
		c := st.Clone()
		c.Apply(m)
		best = max(best, valueFor(c, me, memo))
	}
	memo[key] = best
	return best
}

// valueFor is c's value for seat.
func valueFor(c engine.State, seat int, memo map[string]int) int {
	if c.Terminal() {
		r := c.Result()
		switch {
		case r.Draw || r.Winner == engine.NoSeat:
			return 0
		case r.Winner == seat:
			return 1
		}
		return -1
	}
	v := wins(c, memo)
	if c.ToMove() != seat {
		v = -v
	}
	return v
}

// bestMove is the side to move's best move in st by exhaustive search.
func bestMove(st engine.State, memo map[string]int) engine.Move {
	var mv engine.Move
	me, bestV := st.ToMove(), -2
	for _, m := range st.LegalMoves(nil) {
		c := st.Clone()
		c.Apply(m)
		if v := valueFor(c, me, memo); v > bestV {
			mv, bestV = m, v
		}
	}
	return mv
}

// losingMove returns a move of the side to move in st that loses a
// position that is not lost, and whether there is one.
func losingMove(st engine.State, memo map[string]int) (engine.Move, bool) {
	if wins(st, memo) < 0 {
		return 0, false
	}
	for _, m := range st.LegalMoves(nil) {
		c := st.Clone()
		c.Apply(m)
		if valueFor(c, st.ToMove(), memo) < 0 {
			return m, true
		}
	}
	return 0, false
}

// lostGame plays from params' start with both sides playing their best by
// exhaustive search, until the side to move can throw away a position
// that is not lost; it does, and the game is played out. It returns the
// record, the seat that lost, the losing move's number and the position
// before it.
func lostGame(t *testing.T, g engine.Game, params map[string]string, memo map[string]int) (*record.Game, int, int, engine.State) {
	t.Helper()
	st, err := g.NewState(engine.Params(params))
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Game{ID: "test/" + g.Info().Name, Game: g.Info().Name, Params: params, Agents: [2]record.Agent{{Name: "a"}, {Name: "b"}}, Start: st.Text()}
	loser, at := -1, 0
	var before engine.State
	for !st.Terminal() {
		mv := bestMove(st, memo)
		if loser < 0 {
			if lm, ok := losingMove(st, memo); ok {
				mv, loser, at, before = lm, st.ToMove(), len(rec.Moves)+1, st.Clone()
			}
		}
		rec.Moves = append(rec.Moves, record.Move{Ply: len(rec.Moves), Seat: st.ToMove(), Text: st.FormatMove(mv), Source: record.SourceAgent})
		st.Apply(mv)
	}
	r := st.Result()
	rec.Result = record.Result{Winner: r.Winner, Draw: r.Draw}
	rec.Final = st.Text()
	if loser < 0 || r.Draw || r.Winner != 1-loser {
		t.Fatalf("the constructed game was not lost by a throw-away move: loser %d, result %+v", loser, r)
	}
	return rec, loser, at, before
}

func checkTurningPoint(t *testing.T, game string, params map[string]string, b housebots.Bounds, solver bool) {
	g, err := all.Registry().Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	memo := map[string]int{}
	rec, seat, at, before := lostGame(t, g, params, memo)
	m, err := turning.For(game, engine.Params(params), b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Solver != solver {
		t.Errorf("method %q: solver %v, want %v", m.Name, m.Solver, solver)
	}
	p, err := turning.Find(context.Background(), g, rec, seat, m.Judge)
	if err != nil {
		t.Fatal(err)
	}
	if p.Move != at || p.Played != rec.Moves[at-1].Text || p.Certainty != turning.Proven {
		t.Fatalf("turning point %+v; want move %d (%s), proven", p, at, rec.Moves[at-1].Text)
	}
	if p.Better == "" {
		t.Fatal("no better move")
	}
	// The better move must not lose, by the test's own search.
	mv, err := before.ParseMove(p.Better)
	if err != nil {
		t.Fatalf("better move %q: %v", p.Better, err)
	}
	before.Apply(mv)
	if v := valueFor(before, seat, memo); v < 0 {
		t.Errorf("better move %q loses too", p.Better)
	}
	if !strings.Contains(p.Explain(m), "proven") {
		t.Errorf("explanation %q does not say it is proven", p.Explain(m))
	}
}

// A hex cross-out board of four free cells in a row: the mover wins by
// crossing out three (the opponent must take the last), and loses by
// taking one or two. The solver knows it exactly.
func TestTurningPointHexSolver(t *testing.T) {
	rows := []string{"....########"}
	for len(rows) < 12 {
		rows = append(rows, "############")
	}
	checkTurningPoint(t, "hex-crossout", map[string]string{"board": strings.Join(rows, "/")}, turning.DefaultBounds, true)
}

// Dots-and-Boxes on two boxes: short enough for the strong bot's
// alpha-beta to search to the end, so its verdicts are proven.
func TestTurningPointDotsSearch(t *testing.T) {
	checkTurningPoint(t, "dots-and-boxes", map[string]string{"rows": "2", "cols": "4"}, housebots.Bounds{Nodes: 2_000_000, Depth: 64}, false)
}

// Every game has a reference search, and it gives the same answer twice:
// bounded by nodes, not the clock.
func TestEveryGameHasAReproducibleReference(t *testing.T) {
	reg := all.Registry()
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		st, err := g.NewState(nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := turning.For(name, nil, housebots.Bounds{Nodes: 3000, Depth: 6})
		if err != nil {
			t.Fatal(err)
		}
		a1, err := m.Judge(context.Background(), st)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a2, _ := m.Judge(context.Background(), st)
		if a1.Move == "" || a1 != a2 {
			t.Errorf("%s: %+v then %+v", name, a1, a2)
		}
		if _, err := st.ParseMove(a1.Move); err != nil {
			t.Errorf("%s: the reference's move %q: %v", name, a1.Move, err)
		}
	}
}

// fakeJudge answers from a table keyed by the number of free cells of a
// hex board (the position's size), for the side to move.
func fakeJudge(byFree map[int]housebots.Analysis) turning.Judge {
	return func(_ context.Context, st engine.State) (housebots.Analysis, error) {
		return byFree[strings.Count(st.Text(), ".")], nil
	}
}

// A nine-cell row played one cell at a time: seat 0 moves at 9, 7, 5, 3
// and 1 cells, so it crosses out the last cell and loses.
func rowGame(t *testing.T) (*record.Game, engine.Game) {
	t.Helper()
	rows := []string{".........###"}
	for len(rows) < 12 {
		rows = append(rows, "############")
	}
	params := map[string]string{"board": strings.Join(rows, "/")}
	g, _ := all.Registry().Lookup("hex-crossout")
	st, err := g.NewState(engine.Params(params))
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Game{ID: "test/row", Game: "hex-crossout", Params: params}
	for !st.Terminal() {
		var one engine.Move
		for _, m := range st.LegalMoves(nil) {
			c := st.Clone()
			c.Apply(m)
			if strings.Count(c.Text(), ".") == strings.Count(st.Text(), ".")-1 {
				one = m
				break
			}
		}
		rec.Moves = append(rec.Moves, record.Move{Ply: len(rec.Moves), Seat: st.ToMove(), Text: st.FormatMove(one), Source: record.SourceAgent})
		st.Apply(one)
	}
	if r := st.Result(); r.Winner != 1 {
		t.Fatalf("result %+v, want seat 1 to win", r)
	}
	return rec, g
}

func TestTurningPointCertainties(t *testing.T) {
	rec, g := rowGame(t)
	est := func(v float64) housebots.Analysis { return housebots.Analysis{Value: v, Move: "x"} }
	lostFor := housebots.Analysis{Value: -search.Win, Proven: true}
	wonFor := housebots.Analysis{Value: search.Win, Proven: true, Move: "x"}
	cases := []struct {
		name  string
		moves int // the record's first moves, then a forfeit (0: all)
		table map[int]housebots.Analysis
		move  int
		cert  turning.Certainty
		note  string
	}{
		// Ended on a penalty after six moves with nothing proven: the
		// largest drop of the estimate (seat 0's move from 5 cells: +5
		// before, -(+4) after).
		{"estimate", 6, map[int]housebots.Analysis{9: est(1), 8: est(-1), 7: est(1), 6: est(-1), 5: est(5), 4: est(4)}, 5, turning.Estimate, "ended on a penalty"},
		// Seat 0's position at 5 cells is proven lost, but after its move
		// from 7 nothing was: the loss was seen one turn later.
		{"one turn later", 0, map[int]housebots.Analysis{9: est(1), 8: est(-1), 7: est(1), 6: est(-1), 5: lostFor}, 3, turning.ProvenLater, ""},
		// Lost at the start.
		{"lost before", 0, map[int]housebots.Analysis{9: lostFor}, 0, turning.Proven, "already lost before"},
		// Proven at once: after seat 0's move from 7 the opponent wins.
		{"proven", 0, map[int]housebots.Analysis{9: est(1), 8: est(-1), 7: est(1), 6: wonFor}, 3, turning.Proven, ""},
		// Nothing proven until the last cell, which loses by the rules.
		{"the rules", 0, map[int]housebots.Analysis{}, 9, turning.Proven, ""},
	}
	for _, c := range cases {
		r := *rec
		if c.moves > 0 {
			r.Moves = rec.Moves[:c.moves]
			r.Result = record.Result{Winner: 1, Forfeit: "timeout"}
		}
		p, err := turning.Find(context.Background(), g, &r, 0, fakeJudge(c.table))
		if err != nil {
			t.Fatal(err)
		}
		if p.Move != c.move || p.Certainty != c.cert || !strings.Contains(p.Note, c.note) {
			t.Errorf("%s: %+v; want move %d, certainty %d, note %q", c.name, p, c.move, c.cert, c.note)
		}
	}
}
