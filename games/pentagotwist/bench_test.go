package pentagotwist

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

// BenchmarkRandomPlayout plays whole games with uniformly random moves.
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]engine.Move, 0, 288)
	start := NewState()
	plies := 0
	b.ReportAllocs()
	for b.Loop() {
		s := *start
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			s.Apply(buf[r.IntN(len(buf))])
		}
		plies += s.Ply()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
}

// BenchmarkLegalMoves lists the moves of a mid-game position.
func BenchmarkLegalMoves(b *testing.B) {
	s := midGame()
	buf := make([]engine.Move, 0, 288)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalMoves(buf[:0])
	}
}

// BenchmarkApply applies one move to a copy of a mid-game position.
func BenchmarkApply(b *testing.B) {
	s := midGame()
	m := s.LegalMoves(nil)[40]
	b.ReportAllocs()
	for b.Loop() {
		c := *s
		c.Apply(m)
	}
}

// BenchmarkEvaluate scores a mid-game position.
func BenchmarkEvaluate(b *testing.B) {
	s := midGame()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Evaluate(White)
	}
}

// midGame is a fixed non-terminal position after 12 seeded random plies.
func midGame() *State {
	r := rand.New(rand.NewPCG(5, 6))
	for {
		s := NewState()
		var buf []engine.Move
		for s.Ply() < 12 && !s.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
		if !s.Terminal() {
			return s
		}
	}
}

// BenchmarkPlayoutFast plays whole games through the searchers' fast path:
// CopyFrom into a reused state and RandomPlayoutMove.
func BenchmarkPlayoutFast(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	start := NewState()
	var s State
	plies := 0
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(start)
		for {
			m, ok := s.RandomPlayoutMove(r)
			if !ok {
				break
			}
			s.Apply(m)
		}
		plies += s.Ply()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
}
