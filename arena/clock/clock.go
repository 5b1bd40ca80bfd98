// Package clock holds the referee's time models and the clock they read:
// per-move wall-clock limits with a first-move allowance and a cushion
// (COMP424 style), and per-player CPU budgets for a whole game (COMP30024
// style). The Clock interface lets tests drive time by hand.
package clock

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// Clock is the source of time for the referee.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// stop, called first, returns true. The referee arms one per move
	// request and waits for the reply itself: a timer that calls back
	// costs no goroutine or channel while the reply comes in time.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Real is the system clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// Fake is a clock that moves only when told to.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []*waiter
}

type waiter struct {
	at time.Time
	f  func()
}

// NewFake starts a fake clock at t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// AfterFunc calls fn when Advance moves the clock to or past now+d (from
// Advance), or at once, in a goroutine of its own, when d is not positive.
func (f *Fake) AfterFunc(d time.Duration, fn func()) func() bool {
	if d <= 0 {
		go fn()
		return func() bool { return false }
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	w := &waiter{at: f.now.Add(d), f: fn}
	f.waiters = append(f.waiters, w)
	return func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		for i, x := range f.waiters {
			if x == w {
				f.waiters = slices.Delete(f.waiters, i, i+1)
				return true
			}
		}
		return false // fired already
	}
}

// Advance moves the clock forward and calls the functions of the timers
// that came due, earliest first, before it returns (so a test knows what
// fired).
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	sort.SliceStable(f.waiters, func(i, j int) bool { return f.waiters[i].at.Before(f.waiters[j].at) })
	var due []*waiter
	keep := f.waiters[:0]
	for _, w := range f.waiters {
		if !w.at.After(f.now) {
			due = append(due, w)
			continue
		}
		keep = append(keep, w)
	}
	clear(f.waiters[len(keep):])
	f.waiters = keep
	f.mu.Unlock()
	for _, w := range due {
		w.f()
	}
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
