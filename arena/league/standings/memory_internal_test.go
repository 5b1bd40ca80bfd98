package standings

import (
	"arena/arena/record"
	"arena/arena/results"
	"testing"
)

// TestStandingsPassHoldsPairsOnlyUntilComplete counts many colour-swapped
// pairs and checks that a pair is held apart only until its second game,
// and the fit's input is one entry per pair of seats.
func TestStandingsPassHoldsPairsOnlyUntilComplete(t *testing.T) {
	p := newStandingsPass(results.League{Name: "p"}, []string{"a", "b", "c"}, 0)
	names := []string{"a", "b", "c"}
	n := 0
	for pair := range 500 {
		for i, x := range names {
			for _, y := range names[i+1:] {
				for idx := 2 * pair; idx <= 2*pair+1; idx++ {
					seats := [2]string{x, y}
					if idx%2 == 1 {
						seats = [2]string{y, x}
					}
					rec := &record.Game{Agents: [2]record.Agent{{Name: seats[0]}, {Name: seats[1]}}, Result: record.Result{Winner: n % 2}}
					p.add(results.Game{Match: results.Match{Pairing: x + "-vs-" + y, Pair: pair, Index: idx, Seats: seats}, Record: rec})
					n++
					if len(p.t.halves) > 1 {
						t.Fatalf("after %d games %d pairs held apart, want at most 1", n, len(p.t.halves))
					}
				}
			}
		}
	}
	if len(p.t.totals) != 6 {
		t.Errorf("fit input: %d entries, want one per ordered pair of agents (6)", len(p.t.totals))
	}
	s := p.finish()
	if s.Played != n || len(s.Pairs) != 3 || s.Pairs[0].Penta.N() != 500 {
		t.Errorf("played %d of %d, pairs %+v", s.Played, n, s.Pairs)
	}
}
