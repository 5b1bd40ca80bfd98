package referee

import (
	"time"

	"arena/arena/record"
	"arena/arena/slots"
)

// sample reads the machine's load through the referee's Sample.
func (g *game) sample() (slots.Sample, bool) {
	if g.ref.Sample != nil {
		return g.ref.Sample()
	}
	return slots.Now()
}

// moveLoad is the machine's load average for a move's record. The kernel
// updates it every five seconds, so one reading serves a game's moves for
// a second of its clock (reading /proc/loadavg at every move cost more than
// the move's own bookkeeping); the evidence of a late move reads afresh.
func (g *game) moveLoad() (float64, bool) {
	now := g.clk.Now()
	if !g.loadAt.IsZero() && now.Sub(g.loadAt) < time.Second {
		return g.load.Load, true
	}
	s, ok := g.sample()
	if ok {
		g.load, g.loadAt = s, now
	}
	return s.Load, ok
}

// evidence describes a late move: wall time, the CPU the agent's
// processes used since the request, and the machine's load now.
func (g *game) evidence(h Handle, elapsed time.Duration, cpuBefore time.Duration, cpuErr error) *record.Evidence {
	ev := &record.Evidence{WallMS: float64(elapsed.Microseconds()) / 1000}
	if cpuErr == nil {
		if after, err := h.CPUTime(); err == nil {
			ms := float64((after - cpuBefore).Microseconds()) / 1000
			ev.MoveCPUMS = &ms
		}
	}
	if smp, ok := g.sample(); ok {
		ev.Load, ev.Runnable, ev.CPUs = smp.Load, smp.Runnable, smp.CPUs
	}
	ev.PossiblyContention = ev.Contended()
	return ev
}

// attach gives the event recorded at index i (the move's penalty) its
// evidence; the event may be missing when the game ended otherwise.
func (g *game) attach(i int, ev *record.Evidence) {
	if i < len(g.rec.Events) {
		g.rec.Events[i].Evidence = ev
	}
}
