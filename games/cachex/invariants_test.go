package cachex

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/engine"
)

// checkDerived checks the fields Apply keeps up to date against the board
// itself: the Zobrist key, the occupied set (no bit past the board), the
// empty count, and nothing written past the last cell.
func checkDerived(t *testing.T, s *State, what string) {
	t.Helper()
	var key uint64
	var occ [occWords]uint64
	empties := 0
	for i := 0; i < maxCells; i++ {
		c := s.cells[i]
		if i >= s.g.cells {
			if c != empty {
				t.Fatalf("%s: cell %d past the %d-cell board holds %d", what, i, s.g.cells, c)
			}
			continue
		}
		if c == empty {
			empties++
			continue
		}
		key ^= zobrist[c][i]
		occ[i>>6] |= 1 << (i & 63)
	}
	if s.board != key {
		t.Fatalf("%s %s: board key %#x, want %#x from the cells", what, s.Text(), s.board, key)
	}
	if s.occ != occ {
		t.Fatalf("%s %s: occupied set %x, want %x", what, s.Text(), s.occ, occ)
	}
	if s.empty != empties {
		t.Fatalf("%s %s: empty count %d, want %d", what, s.Text(), s.empty, empties)
	}
}

// refDistance is distance by repeated relaxation until nothing changes:
// the fewest empty cells colour c must fill to join its two edges.
func refDistance(s *State, c uint8) int {
	n := s.g.n
	// The other colour's stones block; each empty cell costs one.
	cost := func(i int) int {
		if s.cells[i] == 3-c {
			return -1
		}
		return b2i(s.cells[i] == empty)
	}
	onFirst := func(i int) bool { return c == red && i/n == 0 || c == blue && i%n == 0 }
	onLast := func(i int) bool { return c == red && i/n == n-1 || c == blue && i%n == n-1 }
	dist := make([]int, n*n)
	for i := range dist {
		dist[i] = unreachable
		if w := cost(i); w >= 0 && onFirst(i) {
			dist[i] = w
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range dist {
			if dist[v] == unreachable {
				continue
			}
			for k := 0; k < int(s.g.nnb[v]); k++ {
				u := int(s.g.nb[v][k])
				if w := cost(u); w >= 0 && dist[v]+w < dist[u] {
					dist[u] = dist[v] + w
					changed = true
				}
			}
		}
	}
	best := unreachable
	for i, d := range dist {
		if onLast(i) && d < best {
			best = d
		}
	}
	return best
}

// TestDerivedFieldsAndDistance plays random games on every board size,
// each with a STEAL, and checks after every action the fields derived
// from the board and both colours' connection distance against a plain
// relaxation.
func TestDerivedFieldsAndDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var buf []engine.Move
	for n := minN; n <= maxN; n++ {
		for game := 0; game < 2; game++ {
			s := New(n)
			for !s.Terminal() && s.Ply() < 4*n*n {
				var m engine.Move
				if s.Ply() == 1 && game == 0 {
					m = moveSteal
				} else {
					m, buf, _ = engine.RandomLegal(s, r, buf)
				}
				s.Apply(m)
				checkDerived(t, s, "n="+strconv.Itoa(n)+" after "+s.FormatMove(m))
				for c := red; c <= blue; c++ {
					if got, want := s.distance(c), refDistance(s, c); got != want {
						t.Fatalf("n=%d ply %d %s: colour %d distance %d, want %d", n, s.Ply(), s.Text(), c, got, want)
					}
				}
			}
		}
	}
}

// TestOutOfBoundsColumn: the column is checked against n as the row is.
func TestOutOfBoundsColumn(t *testing.T) {
	const see = " See the specification/game rules for details."
	s := newState(t, 5)
	wantError(t, s, "PLACE 0 5", engine.Illegal, "The PLACE action coordinate (0, 5) is outside the bounds of the board (n = 5)."+see)
	wantError(t, s, "PLACE 4 -1", engine.Illegal, "The PLACE action coordinate (4, -1) is outside the bounds of the board (n = 5)."+see)
	if _, err := s.ParseMove("PLACE 4 4"); err != nil {
		t.Errorf("PLACE 4 4 on n=5: %v", err)
	}
}

// TestStartupTimeout: start-up CPU counts against the budget, and the
// start-up wait is only a 30-second hang guard.
func TestStartupTimeout(t *testing.T) {
	p, err := Game{}.Profile(engine.Params{"n": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if p.StartupTimeout != 30*time.Second {
		t.Errorf("start-up timeout %v, want 30s", p.StartupTimeout)
	}
}

// TestTextAllocatesOnlyItsString: the builder is sized for the whole text.
func TestTextAllocatesOnlyItsString(t *testing.T) {
	for _, n := range []int{3, 8, 15} {
		s := New(n)
		if a := testing.AllocsPerRun(20, func() { _ = s.Text() }); a != 1 {
			t.Errorf("n=%d: Text allocates %v times, want 1", n, a)
		}
	}
}

// TestCopyFromGivesRoomForAWholeGame: a state whose history buffer is
// short gets one for a whole game, so its Apply never allocates after.
func TestCopyFromGivesRoomForAWholeGame(t *testing.T) {
	src := New(5)
	for _, room := range []int{0, maxActions - 1, maxActions} {
		dst := &State{hist: make([]uint64, 0, room)}
		dst.CopyFrom(src)
		if cap(dst.hist) < maxActions+1 {
			t.Errorf("history room %d: after CopyFrom %d, want at least %d", room, cap(dst.hist), maxActions+1)
		}
		if dst.Hash() != src.Hash() || dst.Text() != src.Text() || len(dst.hist) != len(src.hist) {
			t.Errorf("history room %d: copy differs", room)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
