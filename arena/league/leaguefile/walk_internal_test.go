package leaguefile

import "testing"

// A Swiss league's current round is the first with a game missing, and
// counts its stored games; a knockout's round handed out again with its
// tie-break pairs keeps its number.
func TestWalkNumbersTheRounds(t *testing.T) {
	l := &League{Name: "s", Format: Swiss, GamesPerPairing: 2, Seed: 1, Rounds: 3, TiebreakPairs: 1}
	if _, err := l.newTournament([]string{"a", "b", "c", "d"}); err != nil {
		t.Fatal(err)
	}
	pts := map[string]float64{}
	for want := 1; want <= 3; want++ {
		_, pending, round, err := l.WalkRound(pts)
		if err != nil {
			t.Fatal(err)
		}
		if round != want || len(pending) != 4 {
			t.Fatalf("round %d with %d games, want round %d of 4 games", round, len(pending), want)
		}
		pts[pending[0].ID] = 1
		if _, again, round, _ := l.WalkRound(pts); round != want || len(again) != 4 {
			t.Fatalf("one game stored: round %d with %d games, want round %d", round, len(again), want)
		}
		for _, m := range pending {
			pts[m.ID] = 1
		}
	}
	if _, pending, round, err := l.WalkRound(pts); err != nil || pending != nil || round != 3 {
		t.Fatalf("after the last round: %d pending, round %d, %v", len(pending), round, err)
	}

	// A knockout of two whose two games are drawn hands the round out
	// again with a tie-break pair.
	k := &League{Name: "k", Format: Knockout, GamesPerPairing: 2, Seed: 1, TiebreakPairs: 1}
	if _, err := k.newTournament([]string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	pts = map[string]float64{}
	_, first, round, err := k.WalkRound(pts)
	if err != nil || round != 1 || len(first) != 2 {
		t.Fatalf("knockout: round %d, %d games, %v", round, len(first), err)
	}
	for _, m := range first {
		pts[m.ID] = 0.5
	}
	_, tie, round, err := k.WalkRound(pts)
	if err != nil || round != 1 || len(tie) <= len(first) {
		t.Fatalf("knockout tie-break: round %d with %d games (%v), want round 1 with more than %d", round, len(tie), err, len(first))
	}
}
