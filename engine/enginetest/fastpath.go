package enginetest

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

// CheckFastPaths checks the contracts searchers rely on, on positions from
// seeded random games played from start: CopyFrom reproduces the source and
// allocates nothing, Apply and LegalMoves allocate nothing, and
// RandomPlayoutMove (required) draws only legal moves, uniformly, and
// reports false exactly on finished games. games is how many random games
// to sample positions from.
func CheckFastPaths(t *testing.T, start engine.State, games int) {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 12))
	var positions []engine.State
	var buf []engine.Move
	for g := 0; g < games; g++ {
		s := start.Clone()
		for {
			positions = append(positions, s.Clone())
			if s.Terminal() {
				break
			}
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
	}
	if _, ok := start.(engine.Copier); !ok {
		t.Fatalf("%T does not implement engine.Copier", start)
	}
	if _, ok := start.(engine.PlayoutMover); !ok {
		t.Fatalf("%T does not implement engine.PlayoutMover", start)
	}
	dst := start.Clone()
	moves := make([]engine.Move, 0, 512)
	for i, p := range positions {
		c := dst.(engine.Copier)
		c.CopyFrom(p)
		if dst.Text() != p.Text() || dst.Hash() != p.Hash() || dst.ToMove() != p.ToMove() ||
			dst.Ply() != p.Ply() || dst.Terminal() != p.Terminal() || dst.Scores() != p.Scores() {
			t.Fatalf("position %d: CopyFrom gave %q (hash %x), want %q (hash %x)", i, dst.Text(), dst.Hash(), p.Text(), p.Hash())
		}
		if p.Terminal() {
			if m, ok := p.(engine.PlayoutMover).RandomPlayoutMove(r); ok {
				t.Fatalf("position %d is over, RandomPlayoutMove gave %v, true", i, m)
			}
			continue
		}
		moves = p.LegalMoves(moves[:0])
		legal := make(map[engine.Move]bool, len(moves))
		for _, m := range moves {
			legal[m] = true
		}
		// A few draws everywhere; a full uniformity check on every 25th.
		draws := 8
		if i%25 == 0 {
			draws = 200 * len(moves)
		}
		counts := make(map[engine.Move]int, len(moves))
		for k := 0; k < draws; k++ {
			m, ok := p.(engine.PlayoutMover).RandomPlayoutMove(r)
			if !ok || !legal[m] {
				t.Fatalf("position %d %q: RandomPlayoutMove gave %v, %v: not a legal move", i, p.Text(), m, ok)
			}
			counts[m]++
		}
		if draws > 8 {
			// 200 expected per move: a count outside 100..300 is more
			// than 7 standard deviations off, never chance.
			for _, m := range moves {
				if c := counts[m]; c < 100 || c > 300 {
					t.Fatalf("position %d %q: move %s drawn %d times in %d, want about 200",
						i, p.Text(), p.FormatMove(m), c, draws)
				}
			}
		}
	}
	// Allocation checks on a sample of positions.
	for i := 0; i < len(positions); i += 1 + len(positions)/20 {
		p := positions[i]
		if p.Terminal() {
			continue
		}
		c := dst.(engine.Copier)
		if a := testing.AllocsPerRun(20, func() { c.CopyFrom(p) }); a != 0 {
			t.Errorf("position %d: CopyFrom allocates %.1f times", i, a)
		}
		moves = p.LegalMoves(moves[:0])
		if a := testing.AllocsPerRun(20, func() { moves = p.LegalMoves(moves[:0]) }); a != 0 {
			t.Errorf("position %d: LegalMoves allocates %.1f times", i, a)
		}
		m := moves[len(moves)/2]
		if a := testing.AllocsPerRun(20, func() { c.CopyFrom(p); dst.Apply(m) }); a != 0 {
			t.Errorf("position %d: Apply(%s) allocates %.1f times", i, p.FormatMove(m), a)
		}
		pmv := p.(engine.PlayoutMover)
		if a := testing.AllocsPerRun(20, func() { pmv.RandomPlayoutMove(r) }); a != 0 {
			t.Errorf("position %d: RandomPlayoutMove allocates %.1f times", i, a)
		}
	}
}
