package dotsboxes

import (
	"math/rand/v2"
	"sort"
	"testing"

	"arena/engine"
	"arena/games/dotsboxes"
)

// The model must agree with the engine move by move: legal moves (as
// text), scores and the side to move, for every size the vectors use.
func TestModelMatchesEngine(t *testing.T) {
	for _, size := range [][2]int{{5, 5}, {3, 3}, {4, 6}} {
		g, err := newGeom(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(size[0]), uint64(size[1])))
		for game := 0; game < 20; game++ {
			st, err := dotsboxes.Game{}.NewState(engine.Params{"rows": itoa(size[0]), "cols": itoa(size[1])})
			if err != nil {
				t.Fatal(err)
			}
			for !st.Terminal() {
				p, err := fromEngine(g, st)
				if err != nil {
					t.Fatal(err)
				}
				var want, got []string
				for _, m := range st.LegalMoves(nil) {
					want = append(want, st.FormatMove(m))
				}
				for _, m := range p.LegalMoves(nil) {
					got = append(got, p.FormatMove(m))
				}
				sort.Strings(want)
				sort.Strings(got)
				if len(want) != len(got) {
					t.Fatalf("%v: %d legal moves, engine %d", size, len(got), len(want))
				}
				for i := range want {
					if want[i] != got[i] {
						t.Fatalf("%v: legal move %s, engine %s", size, got[i], want[i])
					}
				}
				// Play the same random move in both.
				m := p.LegalMoves(nil)[r.IntN(len(got))]
				em, err := st.ParseMove(p.FormatMove(m))
				if err != nil {
					t.Fatal(err)
				}
				st.Apply(em)
				p.Apply(m)
				if p.Scores() != st.Scores() || p.ToMove() != st.ToMove() || p.Terminal() != st.Terminal() {
					t.Fatalf("%v after %s: model %v/%d, engine %v/%d", size, p.FormatMove(m), p.Scores(), p.ToMove(), st.Scores(), st.ToMove())
				}
			}
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestChainArithmetic(t *testing.T) {
	cs := newChainSolver()
	cases := []struct {
		chains, loops []int
		want          float64
	}{
		{[]int{3}, nil, -3},
		{[]int{3, 3}, nil, -2},   // open one: the opponent double-crosses
		{[]int{1, 3}, nil, 2},    // open the single box: the opponent must open the 3-chain... after taking 1
		{nil, []int{4}, -4},      // a lone loop is taken whole
		{[]int{3}, []int{4}, -1}, // open the loop: taking all 4 and opening the chain beats declining
		{[]int{2, 2}, nil, 0},    // 2-chains opened in the middle: no double-cross
	}
	for _, c := range cases {
		if got := cs.value(append([]int{}, c.chains...), append([]int{}, c.loops...)); got != c.want {
			t.Errorf("chains %v loops %v: %v, want %v", c.chains, c.loops, got, c.want)
		}
	}
}
