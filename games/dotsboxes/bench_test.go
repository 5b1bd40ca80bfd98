package dotsboxes

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

// BenchmarkRandomPlayout plays whole 5x5 games with uniformly random moves.
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]engine.Move, 0, 64)
	start := NewState(5, 5)
	b.ReportAllocs()
	for b.Loop() {
		s := *start
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			s.Apply(buf[r.IntN(len(buf))])
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkLegalMoves lists the moves of a 5x5 position after 12 lines.
func BenchmarkLegalMoves(b *testing.B) {
	s := midGame()
	buf := make([]engine.Move, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalMoves(buf[:0])
	}
}

// BenchmarkApply draws one line on a copy of the position.
func BenchmarkApply(b *testing.B) {
	s := midGame()
	m := s.LegalMoves(nil)[5]
	b.ReportAllocs()
	for b.Loop() {
		c := *s
		c.Apply(m)
	}
}

// BenchmarkEvaluate scores the position.
func BenchmarkEvaluate(b *testing.B) {
	s := midGame()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Evaluate(0)
	}
}

func midGame() *State {
	s := NewState(5, 5)
	r := rand.New(rand.NewPCG(5, 6))
	var buf []engine.Move
	for s.Ply() < 12 {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
	}
	return s
}

// BenchmarkPlayoutFast plays whole 5x5 games through the searchers' fast
// path: CopyFrom into a reused state and RandomPlayoutMove.
func BenchmarkPlayoutFast(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	start := NewState(5, 5)
	s := *start
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
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkEvaluatePositions scores 64 positions of random 5x5 games
// through engine.Evaluator, as a searcher calls it at its leaves.
func BenchmarkEvaluatePositions(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	var ps []engine.Evaluator
	for len(ps) < 64 {
		s := NewState(5, 5)
		for n := 8 + r.IntN(28); s.Ply() < n; {
			m, _ := s.RandomPlayoutMove(r)
			s.Apply(m)
		}
		ps = append(ps, s)
	}
	var sink float64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sink += ps[i&63].Evaluate(i & 1)
	}
	if sink == 0.5 {
		b.Log(sink)
	}
}
