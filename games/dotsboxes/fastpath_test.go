package dotsboxes

import (
	"math/rand/v2"
	"slices"
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

// hashFromScratch recomputes what the incremental key summarises.
func hashFromScratch(s *State) uint64 {
	var lines uint64
	for i := 0; i < s.g.nLines; i++ {
		if s.drawer(i) >= 0 {
			lines ^= lineKeys[i]
		}
	}
	h := uint64(s.g.rows)<<8 | uint64(s.g.cols) | uint64(s.toMove)<<16 |
		uint64(s.scores[0])<<24 | uint64(s.scores[1])<<40
	return lines ^ mix64(h)
}

// TestIncrementalHash checks the key Apply maintains against a recount at
// every ply of random games, and that positions equal in everything Hash
// claims to cover hash equally however they were reached.
func TestIncrementalHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]uint64{}
	var buf []engine.Move
	for g := 0; g < 300; g++ {
		s := NewState(3, 4)
		for !s.Terminal() {
			if got, want := s.Hash(), hashFromScratch(s); got != want {
				t.Fatalf("game %d ply %d: hash %x, from scratch %x", g, s.Ply(), got, want)
			}
			key := string(rune('0'+s.toMove)) + s.Text()[:s.g.nLines] + string(rune('0'+s.scores[0])) + string(rune('0'+s.scores[1]))
			// Who drew each line does not matter to the hash: normalise.
			key = normaliseDrawers(key)
			if h, ok := seen[key]; ok && h != s.Hash() {
				t.Fatalf("equal positions %q hash %x and %x", key, h, s.Hash())
			}
			seen[key] = s.Hash()
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
	}
}

func normaliseDrawers(k string) string {
	b := []byte(k)
	for i := 1; i < len(b)-2; i++ {
		if b[i] == '1' {
			b[i] = '0'
		}
	}
	return string(b)
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
						a.Scores() != b.Scores() || a.Ply() != b.Ply() || a.threes != b.threes ||
						a.Evaluate(0) != b.Evaluate(0) || a.Evaluate(1) != b.Evaluate(1) {
						t.Fatalf("%dx%d game %d ply %d: one word %s %x threes %d, wide %s %x threes %d",
							rows, cols, g, ply, a.Text(), a.Hash(), a.threes, b.Text(), b.Hash(), b.threes)
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
