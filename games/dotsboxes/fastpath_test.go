package dotsboxes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arena/engine"
	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	enginetest.CheckFastPaths(t, NewState(5, 5), 20)
	// 12x12 spans five words of lines.
	enginetest.CheckFastPaths(t, NewState(12, 12), 2)
	enginetest.CheckFastPaths(t, NewState(2, 3), 20)
}

// TestHashIsOfPosition plays random games on one-word boards (5x5, 3x4)
// and a multi-word one (12x12) and checks at every ply that Hash is a
// function of what it claims to cover (the lines drawn, whoever drew them,
// the board, the seat to move, the scores): positions equal in those hash
// equally however they were reached, and positions that differ in them
// hash differently.
func TestHashIsOfPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	byKey := map[string]uint64{}
	byHash := map[uint64]string{}
	var buf []engine.Move
	for _, c := range []struct{ rows, cols, games int }{{5, 5, 400}, {3, 4, 300}, {12, 12, 4}} {
		for g := 0; g < c.games; g++ {
			s := NewState(c.rows, c.cols)
			for {
				// Who drew each line does not matter to the hash: normalise.
				lines := strings.ReplaceAll(s.Text()[:s.g.nLines], "1", "0")
				key := fmt.Sprintf("%dx%d %d %s %v", c.rows, c.cols, s.toMove, lines, s.scores)
				h := s.Hash()
				if was, ok := byKey[key]; ok && was != h {
					t.Fatalf("equal positions %q hash %x and %x", key, was, h)
				}
				if was, ok := byHash[h]; ok && was != key {
					t.Fatalf("positions %q and %q share hash %x", was, key, h)
				}
				byKey[key], byHash[h] = h, key
				if s.Terminal() {
					break
				}
				var m engine.Move
				m, buf, _ = engine.RandomLegal(s, r, buf)
				s.Apply(m)
			}
		}
	}
	if len(byKey) < 20000 {
		t.Fatalf("only %d distinct positions seen", len(byKey))
	}
}

// threeSided is the number of boxes with exactly three sides drawn, as
// Evaluate counts them.
func (s *State) threeSided() int {
	if !s.word {
		return s.threes
	}
	return s.g.sideMasks.three(s.drawn[0])
}

// wide returns the start position of a board that fits one word, played
// on the multi-word path instead.
func wide(rows, cols int) *State {
	s := NewState(rows, cols)
	g := *s.g
	g.oneWord = false
	s.g, s.word = &g, false
	return s
}

// TestOneWordMatchesWide plays random games on every board that fits one
// word on both paths side by side, the one-word path's state carried by
// CopyFrom, and compares at every ply everything a caller can see: the
// board text, hash, evaluation, side to move, scores, ply and the legal
// moves (listed into slices with and without the table copies' room).
func TestOneWordMatchesWide(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var fast, slow []engine.Move
	for rows := MinDots; rows <= MaxDots; rows++ {
		for cols := MinDots; cols <= MaxDots; cols++ {
			if !NewState(rows, cols).word {
				continue
			}
			for g := 0; g < 20; g++ {
				a, b, spare := NewState(rows, cols), wide(rows, cols), NewState(rows, cols)
				for ply := 0; ; ply++ {
					if a.Text() != b.Text() || a.Hash() != b.Hash() || a.ToMove() != b.ToMove() ||
						a.Scores() != b.Scores() || a.Ply() != b.Ply() || a.threeSided() != b.threeSided() ||
						a.Evaluate(0) != b.Evaluate(0) || a.Evaluate(1) != b.Evaluate(1) {
						t.Fatalf("%dx%d game %d ply %d: one word %s %x threes %d, wide %s %x threes %d",
							rows, cols, g, ply, a.Text(), a.Hash(), a.threeSided(), b.Text(), b.Hash(), b.threeSided())
					}
					if a.Terminal() != b.Terminal() {
						t.Fatalf("%dx%d game %d ply %d: terminal %v, wide %v", rows, cols, g, ply, a.Terminal(), b.Terminal())
					}
					if a.Terminal() {
						break
					}
					// Every other ply lists into an exact-size slice, which
					// takes the walk instead of the table copies.
					if ply%2 == 0 {
						fast = a.LegalMoves(fast[:0])
					} else {
						fast = a.LegalMoves(make([]engine.Move, 0, a.LegalCount()))
					}
					slow = b.LegalMoves(slow[:0])
					if !slices.Equal(fast, slow) {
						t.Fatalf("%dx%d game %d ply %d: moves %v, wide %v", rows, cols, g, ply, fast, slow)
					}
					m := fast[r.IntN(len(fast))]
					spare.CopyFrom(a)
					a, spare = spare, a
					a.Apply(m)
					b.Apply(m)
				}
			}
		}
	}
}
