package search

import (
	"context"
	"sync/atomic"
	"time"

	"arena/engine"
	"arena/plugins/agentapi"
)

// Limits bound one search. The zero value searches until ctx is done.
type Limits struct {
	// Deadline is the hard stop: the search returns its best move so far as
	// soon as it notices the time is past (it polls every few hundred nodes).
	Deadline time.Time
	// Soft is when iterative deepening stops starting new iterations (zero:
	// halfway between the start and Deadline). MCTS ignores it.
	Soft time.Time
	// CPU, when non-zero, caps the process CPU time (user + system, all
	// threads) this search may spend; checked alongside Deadline. Needed
	// where the referee measures CPU time: the garbage collector's threads
	// count too.
	CPU time.Duration
	// MaxDepth caps alpha-beta's iterations (0: 64).
	MaxDepth int
	// MaxNodes caps alpha-beta nodes or MCTS playouts (0: no cap).
	MaxNodes int64
}

// Budget says how a bot wants to spend the referee's clock.
type Budget struct {
	// Fraction of the per-move limit to use (0: 0.5). The rest is the
	// margin for the transport, the garbage collector and a loaded
	// machine, where a process can lose the processor for a few hundred
	// milliseconds.
	Fraction float64
	// Margin is kept back from every per-move limit whatever the fraction
	// (0: 400 ms).
	Margin time.Duration
	// MovesLeft estimates the bot's own moves still to come, for budgets
	// that cover the whole game (0: 20).
	MovesLeft int
	// Reserve is the part of a whole-game budget never planned (0: 15%).
	Reserve float64
}

func (b Budget) withDefaults() Budget {
	if b.Fraction <= 0 || b.Fraction > 1 {
		b.Fraction = 0.5
	}
	if b.Margin <= 0 {
		b.Margin = 400 * time.Millisecond
	}
	if b.MovesLeft <= 0 {
		b.MovesLeft = 20
	}
	if b.Reserve <= 0 || b.Reserve >= 1 {
		b.Reserve = 0.15
	}
	return b
}

// ForTurn turns the clock carried by a move request into Limits, measured
// from now (call it first thing in Move).
//
// Per-move profiles: the search stops at Fraction of the limit, and at
// least Margin before it; a very short limit still gets a quarter of
// itself (or the Fraction, if smaller). Whole-game CPU budgets (Cachex): the remaining budget less the
// Reserve, shared over MovesLeft moves, enforced on the process's own CPU
// time and on the wall clock (wall time is never less than the CPU time of
// a single search thread).
func ForTurn(t agentapi.Turn, b Budget) Limits {
	return forClock(time.Now(), t.Game.Clock.Model, t.TimeLeft, t.Deadline, b)
}

func forClock(now time.Time, model string, left time.Duration, deadline time.Time, b Budget) Limits {
	b = b.withDefaults()
	if model == string(engine.CPUBudget) {
		spend := time.Duration(float64(left)*(1-b.Reserve)) / time.Duration(b.MovesLeft)
		if spend < 0 {
			spend = 0
		}
		return Limits{Deadline: now.Add(spend), CPU: spend}
	}
	avail := left
	if !deadline.IsZero() {
		if d := deadline.Sub(now); d < avail || avail <= 0 {
			avail = d
		}
		// The request was sent at deadline - left; if it took a while to
		// arrive (a loaded machine), the reply will likely take as long
		// to get back: keep that time too.
		if left > 0 {
			if lag := now.Sub(deadline.Add(-left)); lag > 0 {
				avail -= lag
			}
		}
	}
	if avail <= 0 {
		return Limits{Deadline: now}
	}
	// The fraction, but never closer than Margin to the limit, unless the
	// limit is so short that this leaves under a quarter of it.
	use := min(time.Duration(float64(avail)*b.Fraction), max(avail-b.Margin, avail/4))
	return Limits{Deadline: now.Add(use)}
}

// clock polls the limits during one search; it is shared by the search's
// goroutines.
type clock struct {
	ctx      context.Context
	deadline time.Time
	cpuStart time.Duration
	cpuLimit time.Duration
	stop     atomic.Bool
}

func newClock(ctx context.Context, lim Limits) *clock {
	c := &clock{ctx: ctx, deadline: lim.Deadline, cpuLimit: lim.CPU}
	if c.cpuLimit > 0 {
		if t, ok := processCPU(); ok {
			c.cpuStart = t
		} else {
			c.cpuLimit = 0
		}
	}
	return c
}

// expired checks the limits and latches the stop flag.
func (c *clock) expired() bool {
	if c.stop.Load() {
		return true
	}
	if c.ctx.Err() != nil || (!c.deadline.IsZero() && !time.Now().Before(c.deadline)) {
		c.stop.Store(true)
		return true
	}
	if c.cpuLimit > 0 {
		if t, ok := processCPU(); ok && t-c.cpuStart >= c.cpuLimit {
			c.stop.Store(true)
			return true
		}
	}
	return false
}

func (c *clock) stopped() bool { return c.stop.Load() }
