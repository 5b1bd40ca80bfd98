package cachex

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
)

// BenchmarkRandomPlayout plays uniform random games at n = 9 from a clone
// of the start position, as a Monte Carlo searcher would.
func BenchmarkRandomPlayout(b *testing.B) {
	start := New(9)
	r := rand.New(rand.NewPCG(1, 1))
	buf := make([]engine.Move, 0, 128)
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

// midGame returns an n = 9 position after 40 random actions.
func midGame() *State {
	r := rand.New(rand.NewPCG(2, 2))
	for {
		s := New(9)
		var buf []engine.Move
		for s.Ply() < 40 && !s.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
		if !s.Terminal() {
			return s
		}
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	s := midGame()
	buf := make([]engine.Move, 0, 128)
	for b.Loop() {
		buf = s.LegalMoves(buf[:0])
	}
}

// BenchmarkApply replays one recorded random n = 9 game on a reused state;
// ns/apply is the cost of one action including captures, the repetition
// count and the win check.
func BenchmarkApply(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	s := New(9)
	var moves, buf []engine.Move
	for !s.Terminal() {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(s, r, buf)
		s.Apply(m)
		moves = append(moves, m)
	}
	w := New(9)
	for b.Loop() {
		reset(w, 9)
		for _, m := range moves {
			w.Apply(m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/apply")
}

func BenchmarkClone(b *testing.B) {
	s := midGame()
	var c engine.State
	for b.Loop() {
		c = s.Clone()
	}
	if c.Ply() != s.Ply() {
		b.Fatal("clone differs")
	}
}

func BenchmarkEvaluate(b *testing.B) {
	s := midGame()
	for b.Loop() {
		_ = s.Evaluate(0)
	}
}

// BenchmarkPlayoutFast plays whole n = 9 games through the searchers'
// fast path: CopyFrom into a reused state and RandomPlayoutMove.
func BenchmarkPlayoutFast(b *testing.B) {
	start := New(9)
	r := rand.New(rand.NewPCG(1, 1))
	s := start.Clone().(*State)
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
