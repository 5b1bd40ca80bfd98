package clock

import (
	"testing"
	"time"
)

// A timer for no time at all has already fired: the referee's deadline for
// a player with no budget left must not wait for the clock to move.
func TestFakeAfterZeroFiresAtOnce(t *testing.T) {
	f := NewFake(time.Unix(10, 0))
	for _, d := range []time.Duration{0, -time.Second} {
		select {
		case at := <-f.After(d):
			if !at.Equal(time.Unix(10, 0)) {
				t.Errorf("After(%v) fired at %v, want the current time", d, at)
			}
		default:
			t.Errorf("After(%v) has not fired without the clock moving", d)
		}
	}
	if f.Waiters() != 0 {
		t.Errorf("%d timers pending after firing ones", f.Waiters())
	}
	// A timer exactly one tick away waits for that tick.
	ch := f.After(time.Nanosecond)
	select {
	case <-ch:
		t.Fatal("a 1 ns timer fired before the clock moved")
	default:
	}
	f.Advance(time.Nanosecond)
	select {
	case <-ch:
	default:
		t.Fatal("a 1 ns timer did not fire when the clock reached it")
	}
}

func TestVerdictNames(t *testing.T) {
	for v, want := range map[Verdict]string{OnTime: "on time", Late: "late", Over: "over"} {
		if v.String() != want {
			t.Errorf("%d.String() = %q, want %q", v, v.String(), want)
		}
	}
}
