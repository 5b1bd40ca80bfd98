package bohnenspiel

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

// BenchmarkRandomPlayout plays whole games with uniformly random moves.
func BenchmarkRandomPlayout(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]engine.Move, 0, 8)
	start := New()
	plies := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
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

// BenchmarkLegalMoves lists moves over a spread of mid-game positions.
func BenchmarkLegalMoves(b *testing.B) {
	states := benchStates()
	buf := make([]engine.Move, 0, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = states[i%len(states)].LegalMoves(buf[:0])
	}
}

// BenchmarkApply applies one legal move to a copy of a mid-game position.
func BenchmarkApply(b *testing.B) {
	states := benchStates()
	moves := make([]engine.Move, len(states))
	for i, s := range states {
		moves[i] = s.LegalMoves(nil)[0]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(states)
		s := *states[k]
		s.Apply(moves[k])
	}
}

// benchStates returns non-terminal positions from fixed random games.
func benchStates() []*State {
	r := rand.New(rand.NewPCG(7, 8))
	var out []*State
	var buf []engine.Move
	for len(out) < 1024 {
		s := New()
		for !s.Terminal() {
			out = append(out, s.Clone().(*State))
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
	}
	return out
}

// BenchmarkPlayoutFast plays whole games through the searchers' fast path:
// CopyFrom into a reused state and RandomPlayoutMove.
func BenchmarkPlayoutFast(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	start := New()
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
