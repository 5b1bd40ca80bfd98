package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"arena/engine"
	"arena/games/pentagotwist"
)

// Worker classes: under a wall-clock profile a worker's speed is part of
// every verdict, so results of workers slower than the league's threshold
// are kept apart (cluster.slow_workers: class) or not played at all
// (refuse).
const (
	ClassStandard = "standard"
	ClassSlow     = "slow"
)

// Slow-worker policies (the league's cluster.slow_workers; class when it
// sets none).
const (
	SlowRefuse = "refuse"
	SlowClass  = "class"
)

// DefaultMinSpeed is the league's cluster.min_speed when it sets none: a
// worker whose benchmark score is under three quarters of the
// coordinator's own is slow.
const DefaultMinSpeed = 0.75

// benchPlayouts and benchRuns fix the benchmark's workload: the same
// Pentago-Twist random playouts from the same seed on every machine.
const (
	benchPlayouts = 4000
	benchRuns     = 3
)

// Benchmark measures this machine with a short fixed workload: random
// Pentago-Twist playouts from a fixed seed (the engine's hot path, what
// agents' searches spend their time on), timed by the wall clock, the
// best of three runs. The score is playouts per millisecond: higher is
// faster. It takes well under a second on a lab machine.
func Benchmark(ctx context.Context) (float64, error) {
	best := time.Duration(0)
	for range benchRuns {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		start := time.Now()
		if n := playouts(benchPlayouts); n == 0 {
			return 0, fmt.Errorf("benchmark: no playout ended")
		}
		if d := time.Since(start); best == 0 || d < best {
			best = d
		}
	}
	return float64(benchPlayouts) / (float64(best) / float64(time.Millisecond)), nil
}

// playouts plays n random games to the end and returns how many ended.
func playouts(n int) int {
	ended := 0
	playout(rand.New(rand.NewPCG(26, 1)), n, func(_ uint64, end engine.State) {
		if end.Terminal() {
			ended++
		}
	})
	return ended
}

// playout plays n random Pentago-Twist games from the start with r, the
// engine's playout path, and hands each one's length and end to each.
func playout(r *rand.Rand, n int, each func(plies uint64, end engine.State)) {
	root := pentagotwist.NewState()
	scratch := root.Clone()
	var buf []engine.Move
	for range n {
		scratch.(engine.Copier).CopyFrom(root)
		plies := uint64(0)
		for {
			m, b, ok := engine.PlayoutMove(scratch, r, buf)
			buf = b
			if !ok {
				break
			}
			scratch.Apply(m)
			plies++
		}
		each(plies, scratch)
	}
}

// classOf is the class of a worker with benchmark score, against the
// coordinator's reference: slow when under min-speed × reference. A
// worker that reported no score (an older arena) is slow: nothing says
// otherwise.
func (c Config) classOf(score float64) string {
	if score < c.minSpeed()*c.ReferenceScore {
		return ClassSlow
	}
	return ClassStandard
}

func (c Config) minSpeed() float64 {
	if c.MinSpeed > 0 {
		return c.MinSpeed
	}
	return DefaultMinSpeed
}

// refusesSlow says whether slow workers are refused wall-clock games.
func (c Config) refusesSlow() bool { return c.SlowWorkers == SlowRefuse }
