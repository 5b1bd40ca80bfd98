package referee_test

import (
	"sync"
	"time"

	"arena/arena/clock"
)

// replyClock is the referee's clock in fake matches: a clock.Fake that
// orders a fake agent's reply before the timers due at the instant of that
// reply. A reply sent at the deadline instant is in time, and the referee
// must see it first. Advancing the fake clock to that instant at once would
// fire the deadline timer before the agent's goroutine has handed the reply
// over, and the referee would, now and then, judge a timeout instead.
//
// So reply moves the clock in two steps: at once to one nanosecond before
// the reply (timers due earlier fire: the referee may give up on the move,
// as it would on a real agent), and the last nanosecond only when the
// referee next reads the clock, which it does after it has taken the reply.
type replyClock struct {
	*clock.Fake
	mu      sync.Mutex
	cond    *sync.Cond
	timers  int           // AfterFunc calls so far (one per move request)
	taken   int           // of those, the ones a fake agent has waited for
	pending time.Duration // time that passes when the clock is next read
}

func newReplyClock(t time.Time) *replyClock {
	c := &replyClock{Fake: clock.NewFake(t)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// settle lets the pending time pass.
func (c *replyClock) settle() {
	c.mu.Lock()
	d := c.pending
	c.pending = 0
	c.mu.Unlock()
	if d > 0 {
		c.Fake.Advance(d)
	}
}

func (c *replyClock) Now() time.Time {
	c.settle()
	return c.Fake.Now()
}

func (c *replyClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.settle()
	stop := c.Fake.AfterFunc(d, f)
	c.mu.Lock()
	c.timers++
	c.cond.Broadcast()
	c.mu.Unlock()
	return stop
}

func (c *replyClock) Advance(d time.Duration) {
	c.settle()
	c.Fake.Advance(d)
}

// awaitTimer blocks until the referee has set the deadline timer of the
// move request being answered: the referee asks (starting the agent's
// call) and then sets the timer, so the n-th call waits for the n-th timer.
func (c *replyClock) awaitTimer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.timers <= c.taken {
		c.cond.Wait()
	}
	c.taken++
}

// reply lets think pass for an agent that replies after think: all of it
// but the last nanosecond now, that nanosecond once the referee has taken
// the reply and reads the clock.
func (c *replyClock) reply(think time.Duration) {
	if think <= 0 {
		return
	}
	c.Advance(think - time.Nanosecond)
	c.mu.Lock()
	c.pending += time.Nanosecond
	c.mu.Unlock()
}
