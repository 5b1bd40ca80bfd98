package dotsboxes

import (
	"math/rand/v2"
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
