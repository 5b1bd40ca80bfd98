package ratings

import (
	"fmt"
	"testing"
)

// go test -run '^$' -bench . -benchmem ./arena/ratings
func BenchmarkFitBT(b *testing.B) {
	for _, size := range []struct{ agents, games int }{{20, 10000}, {100, 100000}} {
		g, _ := synth(size.agents, size.games, 0.3, 1)
		b.Run(fmt.Sprintf("%dx%d", size.agents, size.games), func(b *testing.B) {
			for b.Loop() {
				if _, err := FitBT(size.agents, g, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkBootstrap(b *testing.B) {
	g, _ := synth(20, 10000, 0.3, 1)
	for b.Loop() {
		if _, err := Bootstrap(20, g, Options{}, 100, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLLRPenta(b *testing.B) {
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}
	p := Penta{200, 3000, 9000, 3400, 250}
	for b.Loop() {
		s.LLRPenta(p)
	}
}
