package standings

import (
	"math"
	"testing"

	"arena/arena/results"
)

// A partial league lists the agents that have not played yet last, with no
// rating, below an agent that lost every game.
func TestStandingsAgentsWithoutGamesLast(t *testing.T) {
	games := pairGames([][2]float64{{1, 1}, {1, 0.5}})
	s := Compute(results.League{Name: "p"}, []string{"c", "a", "b"}, 12, games)
	if len(s.Rows) != 3 {
		t.Fatalf("rows: %+v", s.Rows)
	}
	var order []string
	for _, r := range s.Rows {
		order = append(order, r.Agent)
	}
	if order[0] != "a" || order[1] != "b" || order[2] != "c" {
		t.Fatalf("order %v, want a, b, then c (no games)", order)
	}
	last := s.Rows[2]
	if last.Games != 0 || !math.IsNaN(last.Elo) || last.Rank != 3 {
		t.Errorf("agent without games: %+v, want rank 3 and no rating", last)
	}
	if math.IsNaN(s.Rows[1].Elo) || s.Rows[1].Elo >= 0 {
		t.Errorf("the losing agent's rating: %v", s.Rows[1].Elo)
	}
}
