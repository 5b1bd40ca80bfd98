package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"arena/engine"
)

// opCost is the CPU time and allocation of one call of an operation.
type opCost struct {
	ns, allocs, bytes float64
}

// timeOp runs op in batches for at least d of CPU time.
func timeOp(op func(), d time.Duration) opCost {
	op()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	start := cpuTime()
	var el time.Duration
	for el < d {
		for k := 0; k < 256; k++ {
			op()
		}
		n += 256
		el = cpuTime() - start
	}
	runtime.ReadMemStats(&after)
	return opCost{
		ns:     float64(el.Nanoseconds()) / float64(n),
		allocs: float64(after.Mallocs-before.Mallocs) / float64(n),
		bytes:  float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
	}
}

// midGames returns 64 non-terminal positions from seeded random games,
// taken around the middle of each game.
func midGames(c gameCase) []engine.State {
	r := rand.New(rand.NewPCG(5, 6))
	var out []engine.State
	var buf []engine.Move
	for len(out) < 64 {
		s := c.Start()
		var hist []engine.State
		for !s.Terminal() {
			hist = append(hist, s.Clone())
			var m engine.Move
			m, buf, _ = engine.RandomLegal(s, r, buf)
			s.Apply(m)
		}
		out = append(out, hist[len(hist)/2])
	}
	return out
}

// opRow is the per-operation costs of one game.
type opRow struct {
	c                                   gameCase
	clone, copyFrom, apply, legal, hash opCost
	playoutMove                         opCost
}

// measureOps times the hot-path operations on mid-game positions.
func measureOps(c gameCase, d time.Duration) opRow {
	ps := midGames(c)
	moves := make([]engine.Move, len(ps))
	buf := make([]engine.Move, 0, 512)
	for i, p := range ps {
		buf = p.LegalMoves(buf[:0])
		moves[i] = buf[len(buf)/2]
	}
	dst := ps[0].Clone()
	cp := dst.(engine.Copier)
	r := rand.New(rand.NewPCG(7, 8))
	i := 0
	next := func() int { i = (i + 1) % len(ps); return i }
	row := opRow{c: c}
	var sink engine.State
	var hsink uint64
	row.clone = timeOp(func() { sink = ps[next()].Clone() }, d)
	row.copyFrom = timeOp(func() { cp.CopyFrom(ps[next()]) }, d)
	// Apply is timed with the CopyFrom that restores the position; the
	// CopyFrom time is subtracted below.
	both := timeOp(func() { k := next(); cp.CopyFrom(ps[k]); dst.Apply(moves[k]) }, d)
	row.apply = opCost{ns: both.ns - row.copyFrom.ns, allocs: both.allocs - row.copyFrom.allocs, bytes: both.bytes - row.copyFrom.bytes}
	row.legal = timeOp(func() { buf = ps[next()].LegalMoves(buf[:0]) }, d)
	row.hash = timeOp(func() { hsink ^= ps[next()].Hash() }, d)
	row.playoutMove = timeOp(func() { ps[next()].(engine.PlayoutMover).RandomPlayoutMove(r) }, d)
	_, _ = sink, hsink
	return row
}

func opTable(rows []opRow) string {
	s := "| game | Clone ns (B) | CopyFrom ns | Apply ns (allocs) | LegalMoves ns | RandomPlayoutMove ns | Hash ns |\n"
	s += "|---|---:|---:|---:|---:|---:|---:|\n"
	for _, r := range rows {
		name := r.c.label()
		s += fmt.Sprintf("| %s | %.0f (%.0f) | %.0f | %.0f (%.2f) | %.0f | %.0f | %.1f |\n", name,
			r.clone.ns, r.clone.bytes, r.copyFrom.ns, r.apply.ns, r.apply.allocs, r.legal.ns, r.playoutMove.ns, r.hash.ns)
	}
	return s
}
