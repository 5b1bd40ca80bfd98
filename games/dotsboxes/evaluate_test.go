package dotsboxes

import "testing"

// TestEvaluateCountsScoresAndThreeSidedBoxes follows a 3x3 game on both
// paths (one word, and the multi-word path on the same board) and checks
// Evaluate's exact value from each seat: the seat's boxes minus the
// opponent's, plus the boxes with three sides drawn when the seat is to
// move (it can take them), minus them when the opponent is.
func TestEvaluateCountsScoresAndThreeSidedBoxes(t *testing.T) {
	steps := []struct {
		move string
		// After the move: seat 0's evaluation (seat 1's is its negation),
		// by score difference and three-sided boxes.
		eval0 float64
	}{
		// The six outer sides of boxes (0,0) and (0,1), none completing,
		// so the turn passes each time; 0-0 throughout. Box (0,0) is
		// three-sided from the third, box (0,1) from the sixth: one for
		// whoever is to move, then two for seat 0.
		{"[[0,0],[1,0]]", 0}, {"[[0,0],[0,1]]", 0}, {"[[1,0],[1,1]]", -1},
		{"[[0,1],[0,2]]", 1}, {"[[1,1],[1,2]]", -1}, {"[[0,2],[1,2]]", 2},
		// Seat 0 takes both with the shared side and moves again: 2-0.
		{"[[0,1],[1,1]]", 2},
		// Seat 0 gives box (1,0) its second side; seat 1 to move.
		{"[[1,0],[2,0]]", 2},
		// Seat 1 gives it a third: seat 0 to move and can take it.
		{"[[2,0],[2,1]]", 2 + 1},
		// Seat 0 takes it (3-0), moves again, and draws a side of box (1,1)
		// that leaves it three-sided for seat 1.
		{"[[1,1],[2,1]]", 3},
		{"[[2,1],[2,2]]", 3 - 1},
	}
	for _, path := range []struct {
		name string
		s    *State
	}{{"one word", NewState(3, 3)}, {"multi-word", wide(3, 3)}} {
		s := path.s
		for i, st := range steps {
			play(t, s, st.move)
			if e0, e1 := s.Evaluate(0), s.Evaluate(1); e0 != st.eval0 || e1 != -st.eval0 {
				t.Fatalf("%s, after move %d %s (scores %v, seat %d to move): Evaluate %v and %v, want %v and %v",
					path.name, i+1, st.move, s.Scores(), s.ToMove(), e0, e1, st.eval0, -st.eval0)
			}
		}
		if s.Scores() != [2]int{3, 0} || s.ToMove() != 1 {
			t.Fatalf("%s: scores %v, seat %d to move; want [3 0] and seat 1", path.name, s.Scores(), s.ToMove())
		}
	}
}
