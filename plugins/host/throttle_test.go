package host

import (
	"strings"
	"testing"
	"time"
)

// fakeClock stands for time: a sleep moves it on at once.
type fakeClock struct {
	at    time.Time
	slept time.Duration
}

func (c *fakeClock) now() time.Time { return c.at }
func (c *fakeClock) sleep(d time.Duration, stop <-chan struct{}) {
	select {
	case <-stop:
		return
	default:
	}
	c.at = c.at.Add(d)
	c.slept += d
}

// The reader of an agent's stderr waits as long as the rate asks past the
// burst, and not at all once the agent is being killed; every byte still
// reaches the tail, which keeps its end and says how much it dropped.
func TestThrottleWaitsPastTheBurst(t *testing.T) {
	tail := NewTail(100)
	stop := make(chan struct{})
	clk := &fakeClock{at: time.Unix(0, 0)}
	th := newThrottle(tail, 1000, stop)
	th.burst, th.tokens = 1000, 1000
	th.now, th.sleep = clk.now, clk.sleep
	line := []byte(strings.Repeat("x", 499) + "\n")
	for range 2 {
		th.Write(line) // the burst: no wait
	}
	if clk.slept != 0 {
		t.Fatalf("waited %v within the burst", clk.slept)
	}
	for range 8 {
		th.Write(line)
	}
	if clk.slept != 4*time.Second {
		t.Fatalf("4000 bytes past the burst at 1000 a second waited %v", clk.slept)
	}
	clk.at = clk.at.Add(time.Second) // a quiet second earns 1000 bytes back
	th.Write(line)
	th.Write(line)
	if clk.slept != 4*time.Second {
		t.Fatalf("after a quiet second, 1000 bytes waited %v", clk.slept-4*time.Second)
	}
	close(stop)
	th.Write([]byte(strings.Repeat("y", 5000)))
	if clk.slept != 4*time.Second {
		t.Fatalf("a killed agent's stderr was waited for: %v", clk.slept)
	}
	if tail.Written() != 11000 || !strings.Contains(tail.String(), "10900 earlier bytes dropped") {
		t.Fatalf("tail: %d written, %q", tail.Written(), tail.String())
	}
}
