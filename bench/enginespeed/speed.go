package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"syscall"
	"time"

	"arena/bench/internal/playoutrow"
	"arena/bench/reference"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
)

// gameCase is one game at the size the comparison uses, on both
// implementations. The reference's playouts are its own concrete loops on
// a copy of the start value (no interface on their hot path).
type gameCase struct {
	Name       string
	Size       string
	Start      func() engine.State
	RefListing func(r *rand.Rand) int // list the moves, draw one
	RefDraw    func(r *rand.Rand) int // draw directly; nil when the reference has none
}

// hexBoard is the generated 33-cell board (seed 1), the largest the course
// used.
func hexBoard() string {
	b, err := hexcrossout.Generate(33, 1)
	if err != nil {
		panic(err) // the generator is deterministic; this board exists
	}
	return b
}

// label is the game's name with its size, as the tables' rows name it.
func (c gameCase) label() string {
	if c.Size == "" {
		return c.Name
	}
	return c.Name + " " + c.Size
}

func cases() []gameCase {
	bohn, pent, dots, cx := *reference.NewBohnenspiel(), *reference.NewPentago(), *reference.NewDots64(5, 5), *reference.NewCachex(9)
	hex, err := reference.NewHex(hexBoard())
	if err != nil {
		panic(err)
	}
	return []gameCase{
		{"bohnenspiel", "", func() engine.State { return bohnenspiel.New() }, bohn.PlayoutListing, bohn.PlayoutDraw},
		{"pentago-twist", "", func() engine.State { return pentagotwist.NewState() }, pent.PlayoutListing, pent.PlayoutDraw},
		{"dots-and-boxes", "5x5", func() engine.State { return dotsboxes.NewState(5, 5) }, dots.PlayoutListing, dots.PlayoutDraw},
		{"cachex", "n=9", func() engine.State { return cachex.New(9) }, cx.PlayoutListing, cx.PlayoutDraw},
		{"hex-crossout", "33 cells", func() engine.State {
			s, err := hexcrossout.NewFromBoard(hexBoard())
			if err != nil {
				panic(err)
			}
			return s
		}, hex.PlayoutListing, nil},
	}
}

// runner plays one random game from the start and returns its plies.
type runner func() int

// engineFast is the searchers' path: CopyFrom into one reused state, then
// RandomPlayoutMove and Apply until the end.
func engineFast(c gameCase, seed uint64) runner {
	start := c.Start()
	s := start.Clone()
	cp := s.(engine.Copier)
	pm := s.(engine.PlayoutMover)
	r := rand.New(rand.NewPCG(seed, 1))
	return func() int {
		cp.CopyFrom(start)
		n := 0
		for {
			m, ok := pm.RandomPlayoutMove(r)
			if !ok {
				return n
			}
			s.Apply(m)
			n++
		}
	}
}

// engineListing is the path of LegalMoves-based search: CopyFrom into one
// reused state, list the moves, draw one, Apply.
func engineListing(c gameCase, seed uint64) runner {
	start := c.Start()
	s := start.Clone()
	cp := s.(engine.Copier)
	r := rand.New(rand.NewPCG(seed, 2))
	buf := make([]engine.Move, 0, 1024)
	return func() int {
		cp.CopyFrom(start)
		n := 0
		for !s.Terminal() {
			buf = s.LegalMoves(buf[:0])
			s.Apply(buf[r.IntN(len(buf))])
			n++
		}
		return n
	}
}

// referencePlain plays the reference's listing loop on a copy of the start.
func referencePlain(c gameCase, seed uint64) runner {
	r := rand.New(rand.NewPCG(seed, 3))
	return func() int { return c.RefListing(r) }
}

// referenceDraw plays the reference's direct-draw loop; nil when the game
// has none.
func referenceDraw(c gameCase, seed uint64) runner {
	if c.RefDraw == nil {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 4))
	return func() int { return c.RefDraw(r) }
}

// measurement is one timed run.
type measurement struct {
	playouts, plies int
	elapsed         time.Duration
	mallocs, bytes  uint64
}

func (m measurement) rate() float64 { return float64(m.playouts) / m.elapsed.Seconds() }

// measure runs play for at least d of process CPU time. CPU time, not
// wall time, because the machine may be shared: time spent waiting for a
// core is not the code's. With GOMAXPROCS=1 the process's CPU time is the
// playouts' plus the garbage collection their allocations cause.
func measure(play runner, d time.Duration) measurement {
	play() // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var m measurement
	start := cpuTime()
	for m.elapsed < d {
		for k := 0; k < 16; k++ {
			m.plies += play()
			m.playouts++
		}
		m.elapsed = cpuTime() - start
	}
	runtime.ReadMemStats(&after)
	m.mallocs = after.Mallocs - before.Mallocs
	m.bytes = after.TotalAlloc - before.TotalAlloc
	return m
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(fmt.Sprintf("getrusage: %v", err)) // cannot fail with these arguments
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// result is the best of several interleaved rounds per implementation.
type result struct {
	c                        gameCase
	fast, listing, reference measurement
	refDraw                  measurement // zero when the reference has no direct draw
}

// bestRef is the reference's faster playout loop: the engine is measured
// against the better of listing and drawing directly.
func (r result) bestRef() measurement {
	if r.refDraw.playouts > 0 && r.refDraw.rate() > r.reference.rate() {
		return r.refDraw
	}
	return r.reference
}

func (r result) ratio() float64 { return r.fast.rate() / r.bestRef().rate() }

// compare measures the three implementations of c in interleaved rounds
// and keeps each one's fastest round: on a shared machine even CPU time
// suffers from the neighbours (caches, frequency), never in the code's favour.
func compare(c gameCase, rounds int, d time.Duration) result {
	res := result{c: c}
	best := func(cur *measurement, m measurement) {
		if cur.playouts == 0 || m.rate() > cur.rate() {
			*cur = m
		}
	}
	for i := 0; i < rounds; i++ {
		seed := uint64(i + 1)
		best(&res.reference, measure(referencePlain(c, seed), d))
		if draw := referenceDraw(c, seed); draw != nil {
			best(&res.refDraw, measure(draw, d))
		}
		best(&res.fast, measure(engineFast(c, seed), d))
		best(&res.listing, measure(engineListing(c, seed), d))
	}
	return res
}

func perPly(v uint64, m measurement) float64 { return float64(v) / float64(m.plies) }

// listingRatio is the engine's listing loop against the reference's.
func (r result) listingRatio() float64 { return r.listing.rate() / r.reference.rate() }

// table renders the results as Markdown.
func table(rs []result) string {
	s := "| game | engine playouts/s | reference, direct draw | reference, listing | engine ÷ faster reference | engine, listing moves | engine listing ÷ reference listing | plies/playout | engine allocs (B) per move | reference allocs (B) per move |\n"
	s += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	for _, r := range rs {
		name := r.c.label()
		draw := "—"
		if r.refDraw.playouts > 0 {
			draw = fmt.Sprintf("%.0f", r.refDraw.rate())
		}
		ref := r.bestRef()
		s += fmt.Sprintf("| %s | %.0f | %s | %.0f | %.2f× | %.0f | %.2f× | %.1f | %.3f (%.1f) | %.3f (%.1f) |\n",
			name, r.fast.rate(), draw, r.reference.rate(), r.ratio(), r.listing.rate(), r.listingRatio(),
			float64(r.fast.plies)/float64(r.fast.playouts),
			perPly(r.fast.mallocs, r.fast), perPly(r.fast.bytes, r.fast),
			perPly(ref.mallocs, ref), perPly(ref.bytes, ref))
	}
	return s
}

// jsonRows is what -json prints.
func jsonRows(rs []result) []playoutrow.Row {
	out := make([]playoutrow.Row, 0, len(rs))
	for _, r := range rs {
		name := r.c.label()
		row := playoutrow.Row{
			Game: name, Engine: r.fast.rate(), EngineListing: r.listing.rate(), RefListing: r.reference.rate(),
			Plies:         float64(r.fast.plies) / float64(r.fast.playouts),
			AllocsPerMove: perPly(r.fast.mallocs, r.fast), ListingAllocs: perPly(r.listing.mallocs, r.listing),
		}
		if r.refDraw.playouts > 0 {
			row.RefDraw = r.refDraw.rate()
		}
		out = append(out, row)
	}
	return out
}
