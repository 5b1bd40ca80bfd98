// Package clock holds the referee's time models and the clock they read:
// per-move wall-clock limits with a first-move allowance and a cushion
// (COMP424 style), and per-player CPU budgets for a whole game (COMP30024
// style). The Clock interface lets tests drive time by hand.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock is the source of time for the referee.
type Clock interface {
	Now() time.Time
	// After sends the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Real is the system clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// After is time.After.
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Fake is a clock that moves only when told to.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewFake starts a fake clock at t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// After fires when Advance moves the clock to or past now+d.
func (f *Fake) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan time.Time, 1)
	at := f.now.Add(d)
	if d <= 0 {
		ch <- f.now
		return ch
	}
	f.waiters = append(f.waiters, waiter{at: at, ch: ch})
	return ch
}

// Advance moves the clock forward and fires due timers.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	sort.Slice(f.waiters, func(i, j int) bool { return f.waiters[i].at.Before(f.waiters[j].at) })
	keep := f.waiters[:0]
	for _, w := range f.waiters {
		if !w.at.After(f.now) {
			w.ch <- f.now
			continue
		}
		keep = append(keep, w)
	}
	f.waiters = keep
}

// Waiters is the number of pending timers (lets tests wait until the
// referee is waiting before they advance time).
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// Verdict classifies a reply's timing.
type Verdict int

const (
	// OnTime: handle the reply normally.
	OnTime Verdict = iota
	// Late: inside the cushion; discard the reply, substitute a move.
	Late
	// Over: past the limit (and cushion), or over the budget.
	Over
)

func (v Verdict) String() string {
	return [...]string{"on time", "late", "over"}[v]
}

// PerMove is a wall-clock limit per move.
type PerMove struct {
	Limit      time.Duration // an ordinary move
	FirstLimit time.Duration // each side's first move
	Cushion    time.Duration // grace in which a late reply is replaced
}

// Window returns the soft limit and the hard deadline (limit + cushion) for
// a move.
func (p PerMove) Window(first bool) (limit, hard time.Duration) {
	limit = p.Limit
	if first {
		limit = p.FirstLimit
	}
	return limit, limit + p.Cushion
}

// Judge classifies a reply that took elapsed wall time. A reply exactly at
// a boundary is still inside it.
func (p PerMove) Judge(first bool, elapsed time.Duration) Verdict {
	limit, hard := p.Window(first)
	switch {
	case elapsed <= limit:
		return OnTime
	case elapsed <= hard:
		return Late
	}
	return Over
}

// Budget is a CPU-time budget per player for the whole game. It is not
// safe for concurrent use; the referee owns it.
type Budget struct {
	Total time.Duration // per player
	Grace time.Duration // wall-clock grace past the remaining budget before a kill
	used  [2]time.Duration
}

// Hard is how long to wait for seat's reply before killing it: its remaining
// budget plus the grace.
func (b *Budget) Hard(seat int) time.Duration {
	return max(b.Total-b.used[seat], 0) + b.Grace
}

// Remaining is seat's unused budget.
func (b *Budget) Remaining(seat int) time.Duration {
	return max(b.Total-b.used[seat], 0)
}

// Charge records seat's total CPU use so far and judges it: Over when it
// is strictly greater than the budget, as the course referee checked.
func (b *Budget) Charge(seat int, total time.Duration) Verdict {
	b.used[seat] = max(b.used[seat], total) // readings only grow
	if b.used[seat] > b.Total {
		return Over
	}
	return OnTime
}

// Used is seat's CPU use as last charged.
func (b *Budget) Used(seat int) time.Duration { return b.used[seat] }
