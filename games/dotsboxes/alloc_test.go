package dotsboxes

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// allocSizes are boards from the smallest to the largest, square and
// long either way.
var allocSizes = [][2]int{{2, 2}, {3, 3}, {5, 5}, {4, 6}, {2, 12}, {12, 2}, {12, 12}}

// everyTenth plays a random game on each allocSizes board and calls f
// at the start, at every tenth ply and once every line is drawn.
func everyTenth(f func(s *State)) {
	r := rand.New(rand.NewPCG(12, 13))
	for _, size := range allocSizes {
		s := NewState(size[0], size[1])
		for {
			if s.Terminal() || s.Ply()%10 == 0 {
				f(s)
			}
			if s.Terminal() {
				break
			}
			m, _ := s.RandomPlayoutMove(r)
			s.Apply(m)
		}
	}
}

// fewestAllocs is the fewest allocations per call of f in three
// measurements: an allocation of the runtime's own that lands in one
// does not count, one that f makes every time does.
func fewestAllocs(f func()) float64 {
	n := testing.AllocsPerRun(20, f)
	for i := 0; i < 2; i++ {
		n = min(n, testing.AllocsPerRun(20, f))
	}
	return n
}

// TestTextAllocatesOnlyItsString: the board text is written on the
// stack, so on every board and at every stage the string is the one
// allocation.
func TestTextAllocatesOnlyItsString(t *testing.T) {
	everyTenth(func(s *State) {
		if n := fewestAllocs(func() { _ = s.Text() }); n != 1 {
			t.Fatalf("%dx%d ply %d: Text made %v allocations, want 1", s.Rows(), s.Cols(), s.Ply(), n)
		}
	})
}

// TestAgentViewSizedUpFront: the view is written into one buffer sized
// from the board, so it allocates that buffer and what encoding the
// opponent's name takes, on every board and at every stage, never a
// buffer grown as it is written.
func TestAgentViewSizedUpFront(t *testing.T) {
	// A name built at run time: a constant would be boxed for free.
	opp := strings.Repeat("housebot-", 2)
	name := fewestAllocs(func() { _, _ = json.Marshal(opp) })
	deadline := time.Date(2026, 3, 1, 12, 0, 5, 0, time.UTC)
	everyTenth(func(s *State) {
		for seat := 0; seat < 2; seat++ {
			if n := fewestAllocs(func() { _, _ = s.AgentView(seat, opp, deadline) }); n > name+1 {
				t.Fatalf("%dx%d ply %d seat %d: AgentView made %v allocations, want at most %v",
					s.Rows(), s.Cols(), s.Ply(), seat, n, name+1)
			}
		}
	})
}
