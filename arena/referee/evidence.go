package referee

import (
	"errors"
	"time"

	"arena/arena/record"
	"arena/arena/slots"
	"arena/engine"
)

// UsageReader is a Handle that reads, with its CPU time, the time its
// threads spent ready to run but waiting for a CPU (host.Process.Usage).
// The referee reads it around moves timed by the wall clock, so that a
// late move can be put down to the machine only when the agent was kept
// waiting, never when it slept.
type UsageReader interface {
	Usage() (cpu, runQueue time.Duration, err error)
}

// ErrNoRunQueue is a UsageReader's error when the handle it wraps cannot
// read the run-queue delay; the referee then reads the CPU time alone.
var ErrNoRunQueue = errors.New("the agent's run-queue delay cannot be read")

// usageReading is an agent's CPU time and, where read, its run-queue
// delay at one instant.
type usageReading struct {
	cpu, runQueue time.Duration
	err           error // the CPU time's
	queued        bool  // runQueue was read
}

// readUsage reads h's CPU time, and its run-queue delay when the profile
// times moves by the wall clock and h can read it.
func (g *game) readUsage(h Handle) usageReading {
	if u, ok := h.(UsageReader); ok && g.prof.Time == engine.PerMove {
		cpu, rq, err := u.Usage()
		if err == nil {
			return usageReading{cpu: cpu, runQueue: rq, queued: true}
		}
	}
	cpu, err := h.CPUTime()
	return usageReading{cpu: cpu, err: err}
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

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
// processes used since the request (before), the time they waited for a
// CPU meanwhile against the move's limit, and the machine's load now.
func (g *game) evidence(h Handle, elapsed, limit time.Duration, before usageReading) *record.Evidence {
	ev := &record.Evidence{WallMS: millis(elapsed)}
	if before.err == nil {
		if after := g.readUsage(h); after.err == nil {
			cpu := millis(after.cpu - before.cpu)
			ev.MoveCPUMS = &cpu
			if before.queued && after.queued {
				// A thread that ended takes its delay with it: the sum
				// may shrink, which is no wait at all.
				rq := millis(max(0, after.runQueue-before.runQueue))
				ev.RunQueueMS, ev.LimitMS = &rq, millis(limit)
			}
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
