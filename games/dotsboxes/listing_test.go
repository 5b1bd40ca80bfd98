package dotsboxes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"arena/engine"
)

// undrawn lists the undrawn lines from the board text alone: the line
// characters that are '.'.
func undrawn(s *State) []engine.Move {
	var ms []engine.Move
	for i, ch := range s.Text()[:s.g.nLines] {
		if ch == '.' {
			ms = append(ms, engine.Move(i))
		}
	}
	return ms
}

// TestLegalMovesAppends lists the undrawn lines of positions on a one-word
// board (5x5) and a multi-word one (12x12) into slices that already hold
// moves, with every kind of spare room: none, less than the lines left,
// exactly enough, and about the one-word tables' room. The moves already
// there must stay, the undrawn lines follow them in Grid order, a slice
// with room for them is filled in place, and a one-word board's slice
// that must grow gets the tables' room, so the next listing into it
// takes the table copies.
func TestLegalMovesAppends(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, size := range [][2]int{{5, 5}, {12, 12}} {
		s := NewState(size[0], size[1])
		for plies := 0; !s.Terminal(); plies++ {
			want := undrawn(s)
			left := len(want)
			for _, n := range []int{1, 3, 20} {
				for _, spare := range []int{0, left - 1, left, wordRoom - 1, wordRoom, wordRoom + 1} {
					if spare < 0 {
						continue
					}
					name := fmt.Sprintf("%dx%d ply %d, %d moves and room for %d more", size[0], size[1], plies, n, spare)
					checkAppend(t, name, s, want, n, spare)
				}
			}
			s.Apply(want[r.IntN(left)])
		}
	}
}

func checkAppend(t *testing.T, name string, s *State, want []engine.Move, n, spare int) {
	t.Helper()
	dst := make([]engine.Move, n, n+spare)
	for i := range dst {
		dst[i] = engine.Move(1000 + i)
	}
	got := s.LegalMoves(dst)
	if len(got) != n+len(want) || !slices.Equal(got[n:], want) {
		t.Fatalf("%s: listed %v, want %v", name, got[min(n, len(got)):], want)
	}
	for i := 0; i < n; i++ {
		if got[i] != engine.Move(1000+i) {
			t.Fatalf("%s: move %d already there became %d", name, i, got[i])
		}
	}
	fits := spare >= len(want)
	if fits && &got[0] != &dst[0] {
		t.Fatalf("%s: a slice with room was reallocated", name)
	}
	if !fits && s.word && cap(got)-n < wordRoom {
		t.Fatalf("%s: grown to room for %d moves, want at least the tables' %d", name, cap(got)-n, wordRoom)
	}
}

// TestLegalMovesWithRoomDoNotAllocate: listing into a slice with room
// for the undrawn lines, but not for the one-word tables' copies, fills
// it without allocating on either kind of board.
func TestLegalMovesWithRoomDoNotAllocate(t *testing.T) {
	for _, size := range [][2]int{{5, 5}, {3, 4}, {12, 12}} {
		s := NewState(size[0], size[1])
		s.Apply(2)
		buf := make([]engine.Move, 2, 2+s.LegalCount())
		if n := testing.AllocsPerRun(50, func() { buf = s.LegalMoves(buf[:2]) }); n != 0 {
			t.Errorf("%dx%d: %v allocations listing into a slice with exactly the room", size[0], size[1], n)
		}
		if len(buf) != 2+s.LegalCount() {
			t.Errorf("%dx%d: %d listed, want %d", size[0], size[1], len(buf)-2, s.LegalCount())
		}
	}
}

// TestPlyCountsLines: Ply is the number of lines drawn and LegalCount
// the number left, after every move of random games on one-word and
// multi-word boards.
func TestPlyCountsLines(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for _, size := range [][2]int{{5, 5}, {2, 3}, {12, 12}} {
		s := NewState(size[0], size[1])
		lines := len(gridOrder(size[0], size[1]))
		for drawn := 0; ; drawn++ {
			if s.Ply() != drawn || s.LegalCount() != lines-drawn {
				t.Fatalf("%dx%d after %d lines: ply %d, %d legal; want %d and %d",
					size[0], size[1], drawn, s.Ply(), s.LegalCount(), drawn, lines-drawn)
			}
			if s.Terminal() {
				break
			}
			m, _ := s.RandomPlayoutMove(r)
			s.Apply(m)
		}
	}
}

// TestListsEachLineLeftAlone draws every line but one on every one-word
// board, for each line in turn, and lists into a slice with the table
// copies' room: the one line left, in whichever byte it lies, is the
// whole list. Random games reach such positions by chance only, and
// the copies of the bytes past the 40th line are skipped while they hold
// no undrawn line.
func TestListsEachLineLeftAlone(t *testing.T) {
	buf := make([]engine.Move, 0, wordRoom)
	for rows := MinDots; rows <= MaxDots; rows++ {
		for cols := MinDots; cols <= MaxDots; cols++ {
			start := NewState(rows, cols)
			if !start.word {
				continue
			}
			for left := range start.g.nLines {
				s := start.Clone().(*State)
				for i := range start.g.nLines {
					if i != left {
						s.Apply(engine.Move(i))
					}
				}
				buf = s.LegalMoves(buf[:0])
				if !slices.Equal(buf, []engine.Move{engine.Move(left)}) {
					t.Fatalf("%dx%d, line %d left: LegalMoves %v", rows, cols, left, buf)
				}
			}
		}
	}
}
