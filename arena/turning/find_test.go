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
