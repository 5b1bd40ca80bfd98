package hexcrossout

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

func benchStart(b *testing.B, n int) *State {
	free, err := generate(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	return newState(free)
}

// BenchmarkRandomPlayout plays uniform random games (over distinct cell
// sets) on a generated 33-cell board from a clone of the start.
func BenchmarkRandomPlayout(b *testing.B) {
	start := benchStart(b, 33)
	r := rand.New(rand.NewPCG(1, 1))
	buf := make([]engine.Move, 0, 256)
	plies := 0
	for b.Loop() {
		s := start.Clone().(*State)
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			s.Apply(buf[r.IntN(len(buf))])
		}
		plies += s.Ply()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
}

// BenchmarkRandomMovePlayout plays the referee's substitute distribution.
func BenchmarkRandomMovePlayout(b *testing.B) {
	start := benchStart(b, 33)
	r := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		s := *start
		for !s.Terminal() {
			s.Apply(s.RandomMove(r))
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

func BenchmarkLegalMoves(b *testing.B) {
	s := benchStart(b, 33)
	buf := make([]engine.Move, 0, 256)
	for b.Loop() {
		buf = s.LegalMoves(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "moves")
}

// BenchmarkApply replays one random game on a value copy of the start.
func BenchmarkApply(b *testing.B) {
	start := benchStart(b, 33)
	r := rand.New(rand.NewPCG(3, 3))
	s := *start
	var moves []engine.Move
	for !s.Terminal() {
		m := s.RandomMove(r)
		s.Apply(m)
		moves = append(moves, m)
	}
	for b.Loop() {
		s = *start
		for _, m := range moves {
			s.Apply(m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/apply")
}

func BenchmarkEvaluate(b *testing.B) {
	s := benchStart(b, 33)
	for b.Loop() {
		_ = s.Evaluate(0)
	}
}

// BenchmarkPlayoutFast plays uniform random games (as BenchmarkRandomPlayout)
// through the searchers' fast path: CopyFrom into a reused state and
// RandomPlayoutMove.
func BenchmarkPlayoutFast(b *testing.B) {
	start := benchStart(b, 33)
	r := rand.New(rand.NewPCG(1, 1))
	s := *start
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
