package hexcrossout

import (
	"context"
	"testing"
	"time"

	"arena/engine"
	"arena/games/hexcrossout"
	"arena/plugins/sdk/search"
)

// The solver must agree with an exhaustive alpha-beta over the engine on
// small boards, and its winning move must be legal in the engine.
func TestSolverMatchesAlphaBeta(t *testing.T) {
	for seed := 1; seed <= 12; seed++ {
		st, err := hexcrossout.Game{}.NewState(engine.Params{"free": "12", "seed": itoa(seed)})
		if err != nil {
			t.Fatal(err)
		}
		m, err := newModel(st.Text())
		if err != nil {
			t.Fatal(err)
		}
		if len(m.moves) != st.LegalCount() {
			t.Fatalf("seed %d: %d cell sets, engine counts %d", seed, len(m.moves), st.LegalCount())
		}
		s := newSolver(m, 16)
		cm, win, solved := s.best(context.Background(), m.free, time.Time{})
		if !solved {
			t.Fatalf("seed %d: not solved", seed)
		}
		ab := &search.AlphaBeta{}
		r := ab.Search(context.Background(), st, search.Limits{})
		if !r.Exact {
			t.Fatalf("seed %d: alpha-beta did not finish", seed)
		}
		if abWin := r.Value > search.Win/2; abWin != win {
			t.Fatalf("seed %d: solver says win=%v, alpha-beta %v", seed, win, r.Value)
		}
		if win {
			mv, err := m.moveFor(st, cm)
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, cm.text(), err)
			}
			c := st.Clone()
			c.Apply(mv)
			after := newSolver(m, 16)
			if w, ok := after.win(m.freeSet(c.Text())); !ok || w {
				t.Fatalf("seed %d: after the winning move %s the opponent still wins", seed, cm.text())
			}
		}
	}
}

func TestParityRule(t *testing.T) {
	// A run of two and one single (s odd): take both, leaving one single.
	rows := make([]string, 12)
	for y := range rows {
		rows[y] = "############"
	}
	rows[2] = "#..#.#######"
	m, err := newModel(join(rows))
	if err != nil {
		t.Fatal(err)
	}
	cm, ok := parityRule(m, m.free)
	if !ok || cm.l != 2 {
		t.Fatalf("run of 2 + 1 single: %+v %v, want both cells of the run", cm, ok)
	}
	rows[2] = "#..#.#.#####" // two singles: take one of the run
	m, _ = newModel(join(rows))
	if cm, ok = parityRule(m, m.free); !ok || cm.l != 1 || cm.x > 2 {
		t.Fatalf("run of 2 + 2 singles: %+v %v, want one cell of the run", cm, ok)
	}
}

func join(rows []string) string {
	out := rows[0]
	for _, r := range rows[1:] {
		out += "/" + r
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}
