package search_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/sdk/search"
)

// benchPosition is a game's start position after a few seeded random
// moves (the middle of a game is where searches spend their time).
func benchPosition(b *testing.B, name string) engine.State {
	g, err := all.Registry().Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	st, err := g.NewState(engine.Params{})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 6 && !st.Terminal(); i++ {
		ms := st.LegalMoves(nil)
		st.Apply(ms[r.IntN(len(ms))])
	}
	return st
}

var benchGames = []string{"bohnenspiel", "cachex", "dots-and-boxes", "hex-crossout", "pentago-twist"}

// BenchmarkAlphaBeta reports alpha-beta nodes per second on one goroutine,
// with the game's own evaluation, and the nodes per operation (allocs/op
// divided by nodes/op is the allocations per node; the table is made once).
func BenchmarkAlphaBeta(b *testing.B) {
	for _, name := range benchGames {
		b.Run(name, func(b *testing.B) {
			st := benchPosition(b, name)
			tt := search.NewTT(16)
			var nodes int64
			var took time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tt.Clear()
				ab := &search.AlphaBeta{TT: tt}
				r := ab.Search(context.Background(), st, search.Limits{MaxNodes: 50000})
				nodes += r.Nodes
				took += r.Elapsed
			}
			b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkMCTS reports MCTS playouts per second on one goroutine, with
// the default playout policy.
func BenchmarkMCTS(b *testing.B) {
	for _, name := range benchGames {
		b.Run(name, func(b *testing.B) {
			st := benchPosition(b, name)
			var playouts int64
			var took time.Duration
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m := &search.MCTS{Seed: uint64(i)}
				r := m.Search(context.Background(), st, search.Limits{MaxNodes: 5000})
				playouts += r.Nodes
				took += r.Elapsed
			}
			b.ReportMetric(float64(playouts)/took.Seconds(), "playouts/s")
			b.ReportMetric(float64(playouts)/float64(b.N), "playouts/op")
		})
	}
}
