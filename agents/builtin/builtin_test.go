package builtin

import (
	"context"
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/pentagotwist"
	"arena/plugins/agentapi"
)

func turn(t *testing.T, st engine.State) agentapi.Turn {
	t.Helper()
	var legal []string
	for _, m := range st.LegalMoves(nil) {
		legal = append(legal, st.FormatMove(m))
	}
	return agentapi.Turn{State: st, Legal: legal}
}

func TestNew(t *testing.T) {
	for _, n := range Names() {
		if _, err := New(n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := New("oracle"); err == nil {
		t.Fatal("unknown built-in accepted")
	}
}

func TestRandomIsSeededAndUniform(t *testing.T) {
	st, _ := bohnenspiel.Game{}.NewState(nil)
	tr := turn(t, st) // 6 pits + SKIP
	play := func(seed uint64) map[string]int {
		r := &Random{}
		if err := r.Start(context.Background(), agentapi.Game{Seed: seed}); err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for range 7000 {
			m, err := r.Move(context.Background(), tr)
			if err != nil {
				t.Fatal(err)
			}
			counts[m]++
		}
		return counts
	}
	a, b := play(5), play(5)
	if len(a) != len(tr.Legal) {
		t.Fatalf("not every legal move was drawn: %v", a)
	}
	for m, n := range a {
		if b[m] != n {
			t.Fatalf("same seed, different choices: %v vs %v", a, b)
		}
		// 1000 expected per move; 5 sigma is about 150.
		if n < 850 || n > 1150 {
			t.Fatalf("move %s drawn %d times of 7000, far from uniform", m, n)
		}
	}
}

func TestGreedyTakesTheBestCapture(t *testing.T) {
	st, _ := bohnenspiel.Game{}.NewState(nil)
	// From the start, find by brute force the move with the best gain and
	// check greedy agrees on its value.
	if err := engine.Replay(st, []string{"PIT 0 0", "PIT 1 0", "PIT 0 1", "PIT 1 1"}); err != nil {
		t.Fatal(err)
	}
	best := -1
	for _, m := range st.LegalMoves(nil) {
		c := st.Clone()
		c.Apply(m)
		if g := c.Scores()[0] - st.Scores()[0]; g > best {
			best = g
		}
	}
	if best <= 0 {
		t.Fatalf("test position has no capture (best gain %d)", best)
	}
	var buf []engine.Move
	for seed := range uint64(20) {
		m, ok := GreedyMove(st, rand.New(rand.NewPCG(seed, 1)), &buf)
		if !ok {
			t.Fatal("no move")
		}
		c := st.Clone()
		c.Apply(m)
		if g := c.Scores()[0] - st.Scores()[0]; g != best {
			t.Fatalf("seed %d: greedy gains %d, best is %d", seed, g, best)
		}
	}
}

func TestGreedyWinsWhenItCan(t *testing.T) {
	st := pentagotwist.NewState()
	// White builds four on row 0 while Black plays in quadrant 2; every
	// twist rotates the empty quadrant 3, so nothing moves.
	hist := []string{"0 0 3 0 0", "3 0 3 0 1", "0 1 3 0 0", "3 1 3 0 1", "0 2 3 0 0", "4 0 3 0 1", "0 3 3 0 0", "4 1 3 0 1"}
	if err := engine.Replay(st, hist); err != nil {
		t.Fatal(err)
	}
	if st.Terminal() {
		t.Fatal("position already decided")
	}
	g := &Greedy{}
	_ = g.Start(context.Background(), agentapi.Game{Seed: 3})
	mv, err := g.Move(context.Background(), turn(t, st))
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.ParseMove(mv)
	if err != nil {
		t.Fatal(err)
	}
	st.Apply(m)
	if !st.Terminal() || st.Result().Winner != 0 {
		t.Fatalf("greedy played %s without winning: %+v\n%s", mv, st.Result(), st.Text())
	}
}
