package clock

import (
	"fmt"
	"testing"
	"time"
)

// A timer for no time at all fires without the clock moving: the
// referee's deadline for a player with no budget left must not wait for
// it.
func TestFakeAfterFuncZeroFiresAtOnce(t *testing.T) {
	f := NewFake(time.Unix(10, 0))
	for _, d := range []time.Duration{0, -time.Second} {
		fired := make(chan struct{})
		stop := f.AfterFunc(d, func() { close(fired) })
		select {
		case <-fired:
		case <-time.After(10 * time.Second):
			t.Fatalf("AfterFunc(%v) has not fired without the clock moving", d)
		}
		if stop() {
			t.Errorf("AfterFunc(%v): stop reports a timer that fired as stopped", d)
		}
	}
	if f.Waiters() != 0 {
		t.Errorf("%d timers pending after firing ones", f.Waiters())
	}
	// A timer exactly one tick away waits for that tick.
	n := 0
	f.AfterFunc(time.Nanosecond, func() { n++ })
	if n != 0 {
		t.Fatal("a 1 ns timer fired before the clock moved")
	}
	f.Advance(time.Nanosecond)
	if n != 1 {
		t.Fatalf("a 1 ns timer fired %d times when the clock reached it, want 1", n)
	}
	f.Advance(time.Hour)
	if n != 1 {
		t.Fatalf("a timer fired again (%d times)", n)
	}
}

// Timers fire earliest first, whatever order they were armed in, and a
// stopped one never does.
func TestFakeAfterFuncOrderAndStop(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	var got []int
	f.AfterFunc(3*time.Second, func() { got = append(got, 3) })
	f.AfterFunc(1*time.Second, func() { got = append(got, 1) })
	stop := f.AfterFunc(2*time.Second, func() { got = append(got, 2) })
	f.AfterFunc(2*time.Second, func() { got = append(got, 22) })
	if !stop() {
		t.Fatal("stop of a pending timer returned false")
	}
	if stop() {
		t.Fatal("a second stop returned true")
	}
	f.Advance(5 * time.Second)
	if fmt.Sprint(got) != "[1 22 3]" {
		t.Fatalf("fired %v, want [1 22 3]", got)
	}
	// A callback may arm another timer (the referee's next move does).
	f.AfterFunc(time.Second, func() { f.AfterFunc(time.Second, func() { got = append(got, 9) }) })
	f.Advance(time.Second)
	f.Advance(time.Second)
	if fmt.Sprint(got) != "[1 22 3 9]" {
		t.Fatalf("fired %v, want the timer armed from a callback too", got)
	}
}

func TestVerdictNames(t *testing.T) {
	for v, want := range map[Verdict]string{OnTime: "on time", Late: "late", Over: "over"} {
		if v.String() != want {
			t.Errorf("%d.String() = %q, want %q", v, v.String(), want)
		}
	}
}
