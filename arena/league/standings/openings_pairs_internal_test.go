package standings

import (
	"testing"

	"arena/arena/league/leaguefile"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/results"
)

// sprtOf evaluates the SPRT for agent a over its opponent, as a league
// run counts its games.
func sprtOf(c leaguefile.SPRTConfig, a string, games []results.Game) (pairs int, llr, lo, hi float64, d ratings.Decision) {
	p := NewSPRTCount(a)
	for _, g := range games {
		p.Add(g.Match, g.Record)
	}
	return p.Test(c)
}

// withOpenings gives each game of pairGames an opening: game i plays
// openings[i].
func withOpenings(games []results.Game, openings ...int) []results.Game {
	for i := range games {
		games[i].Record.Opening = &record.Opening{Index: openings[i], Moves: []string{"PIT 0 1"}}
	}
	return games
}

// The pentanomial counts pair the two colour-swapped games of one opening:
// two games of a pair played from different openings are no pair (both
// count as unpaired), in the standings and in the SPRT alike.
func TestPentanomialPairsByOpening(t *testing.T) {
	l := results.League{Name: "x", Format: leaguefile.RoundRobin}
	same := Compute(l, []string{"a", "b"}, 4, withOpenings(pairGames([][2]float64{{1, 0}, {1, 1}}), 3, 3, 0, 0))
	if p := same.Pairs[0]; p.Penta.N() != 2 || p.Penta[2] != 1 || p.Penta[4] != 1 || p.Unpaired != 0 {
		t.Errorf("pairs of one opening each: %+v, want a 1-1 pair and a 2-0 pair", p)
	}
	mixed := Compute(l, []string{"a", "b"}, 4, withOpenings(pairGames([][2]float64{{1, 0}, {1, 1}}), 3, 1, 0, 0))
	if p := mixed.Pairs[0]; p.Penta.N() != 1 || p.Penta[4] != 1 || p.Unpaired != 2 {
		t.Errorf("a pair split over two openings: %+v, want one pair and two unpaired games", p)
	}
	cfg := leaguefile.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: leaguefile.Pentanomial}
	if n, _, _, _, _ := sprtOf(cfg, "a", withOpenings(pairGames([][2]float64{{1, 0}, {1, 1}}), 3, 1, 0, 0)); n != 1 {
		t.Errorf("the SPRT counts %d pairs over a pair split over two openings, want 1", n)
	}
}
