package hexcrossout

import "math/bits"

// Evaluate is a parity heuristic for the misère ending, from the side to
// move's point of view (negated for the other seat). With only isolated
// cells left the game is decided: the side to move wins exactly when
// their number is even (±1). With one larger region the side to move can
// usually fix the parity by taking all of it or all but one cell (+0.5).
// Otherwise the number of regions is taken as the number of remaining
// moves, an even count favouring the side to move (±0.25).
func (s *State) Evaluate(seat int) float64 {
	singles, big := 0, 0
	rest := s.free
	for w := 0; w < 3; w++ {
		for rest[w] != 0 {
			c := w*64 + bits.TrailingZeros64(rest[w])
			comp := component(&rest, c)
			if comp.count() == 1 {
				singles++
			} else {
				big++
			}
			rest.andNot(&comp)
		}
	}
	var v float64
	switch {
	case big == 0 && singles%2 == 0:
		v = 1
	case big == 0:
		v = -1
	case big == 1:
		v = 0.5
	case (singles+big)%2 == 0:
		v = 0.25
	default:
		v = -0.25
	}
	if seat != s.toMove {
		v = -v
	}
	return v
}
