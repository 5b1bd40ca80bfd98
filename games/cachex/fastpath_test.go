package cachex

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	enginetest.CheckFastPaths(t, New(9), 10)
	// Odd n bans the centre on the first action; even n has no centre;
	// 15 spans four words of cells.
	enginetest.CheckFastPaths(t, New(3), 40)
	enginetest.CheckFastPaths(t, New(4), 40)
	enginetest.CheckFastPaths(t, New(15), 2)
}

// TestCloneAllocatesOnce checks that a clone is one allocation and that
// playing on it allocates nothing more.
func TestCloneAllocatesOnce(t *testing.T) {
	s := midGame()
	m := s.LegalMoves(nil)[3]
	if a := testing.AllocsPerRun(50, func() { s.Clone().Apply(m) }); a != 1 {
		t.Errorf("Clone then Apply: %.1f allocations, want 1", a)
	}
}

// TestGroupsMatchFloodFill checks the incremental groups at every ply of
// random games (captures and STEAL included): two stones of a colour
// whose forest is current share a root exactly when a flood fill joins
// them, and the root's edge bits are those of the whole group.
func TestGroupsMatchFloodFill(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var buf []engine.Move
	for game := 0; game < 300; game++ {
		n := 3 + game%8
		s := New(n)
		for !s.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
			for c := uint8(1); c <= 2; c++ {
				if !s.groupsOK[c-1] {
					continue
				}
				comp := floodComponents(s, c)
				for i := 0; i < n*n; i++ {
					if s.cells[i] != c {
						continue
					}
					for j := 0; j < n*n; j++ {
						if s.cells[j] == c && (s.find(i) == s.find(j)) != (comp[i] == comp[j]) {
							t.Fatalf("game %d ply %d %s: cells %d and %d: same root %v, same component %v",
								game, s.Ply(), s.Text(), i, j, s.find(i) == s.find(j), comp[i] == comp[j])
						}
					}
					var want uint8
					for j := 0; j < n*n; j++ {
						if comp[j] == comp[i] && s.cells[j] == c {
							want |= s.g.edgeBits[c-1][j]
						}
					}
					if got := s.reach[s.find(i)]; got != want {
						t.Fatalf("game %d ply %d %s: cell %d reaches edges %b, want %b", game, s.Ply(), s.Text(), i, got, want)
					}
				}
			}
		}
	}
}

// floodComponents labels colour c's stones by connected component.
func floodComponents(s *State, c uint8) []int {
	n := s.g.cells
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	label := 0
	for i := 0; i < n; i++ {
		if s.cells[i] != c || comp[i] >= 0 {
			continue
		}
		stack := []int{i}
		comp[i] = label
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for k := 0; k < int(s.g.nnb[v]); k++ {
				d := int(s.g.nb[v][k])
				if s.cells[d] == c && comp[d] < 0 {
					comp[d] = label
					stack = append(stack, d)
				}
			}
		}
		label++
	}
	return comp
}
