package host

import (
	"io"
	"sync"
	"time"
)

// DefaultStderrRate is how fast the arena reads an agent's stderr, in
// bytes a second, after a first stderrBurst bytes (Launcher.StderrRate).
// An agent writing faster fills its pipe and waits on its own writes: a
// flood costs its own clock, never the referee's or another game's CPU.
const DefaultStderrRate = 256 << 10

// stderrBurst is what an agent may write at once before the rate holds.
const stderrBurst = 1 << 20

// throttle passes writes on to w at most rate bytes a second on average,
// after a burst, by making the writer wait: it sits between go-plugin's
// readers of the agent's stderr (the pipe and the plugin channel's copy)
// and the kept tail, so while it waits nothing reads the agent's pipe.
// Once stop is closed (the agent is being killed) it waits no more, so
// what is left in the pipe (at most its size) is read at once.
type throttle struct {
	w     io.Writer
	rate  float64
	burst float64
	stop  <-chan struct{}
	now   func() time.Time
	sleep func(d time.Duration, stop <-chan struct{})

	mu     sync.Mutex
	tokens float64
	last   time.Time
}

func newThrottle(w io.Writer, rate int, stop <-chan struct{}) *throttle {
	if rate <= 0 {
		rate = DefaultStderrRate
	}
	return &throttle{w: w, rate: float64(rate), burst: stderrBurst, stop: stop, now: time.Now, sleep: sleepUnless, tokens: stderrBurst}
}

// sleepUnless sleeps for d, or until stop is closed.
func sleepUnless(d time.Duration, stop <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-stop:
	}
}

// Write passes p on, in pieces of at most the burst, each after the wait
// the rate asks for. It never fails: the tail behind it does not.
func (t *throttle) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), int(t.burst))
		t.take(k)
		_, _ = t.w.Write(p[:k])
		p = p[k:]
	}
	return n, nil
}

// take reserves n bytes of the rate, waiting (outside the lock, so the
// two readers share one rate) until they are due.
func (t *throttle) take(n int) {
	select {
	case <-t.stop:
		return
	default:
	}
	t.mu.Lock()
	now := t.now()
	if !t.last.IsZero() {
		t.tokens = min(t.burst, t.tokens+now.Sub(t.last).Seconds()*t.rate)
	}
	t.last = now
	t.tokens -= float64(n)
	wait := time.Duration(-t.tokens / t.rate * float64(time.Second))
	t.mu.Unlock()
	if wait > 0 {
		t.sleep(wait, t.stop)
	}
}
