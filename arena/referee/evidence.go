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
