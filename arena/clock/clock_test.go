package clock

import (
	"testing"
	"time"
)

func TestPerMoveJudge(t *testing.T) {
	p := PerMove{Limit: 700 * time.Millisecond, FirstLimit: 30 * time.Second, Cushion: time.Second}
	cases := []struct {
		first   bool
		elapsed time.Duration
		want    Verdict
	}{
		{false, 0, OnTime},
		{false, 700 * time.Millisecond, OnTime},
		{false, 701 * time.Millisecond, Late},
		{false, 1700 * time.Millisecond, Late},
		{false, 1701 * time.Millisecond, Over},
		{true, 29 * time.Second, OnTime},
		{true, 30500 * time.Millisecond, Late},
		{true, 31001 * time.Millisecond, Over},
	}
	for _, c := range cases {
		if got := p.Judge(c.first, c.elapsed); got != c.want {
			t.Errorf("Judge(first=%v, %v) = %v, want %v", c.first, c.elapsed, got, c.want)
		}
	}
	if l, h := p.Window(false); l != 700*time.Millisecond || h != 1700*time.Millisecond {
		t.Errorf("Window(false) = %v, %v", l, h)
	}
}

func TestBudget(t *testing.T) {
	b := Budget{Total: 49 * time.Second, Grace: 5 * time.Second}
	if got := b.Hard(0); got != 54*time.Second {
		t.Fatalf("Hard = %v, want 54s", got)
	}
	if v := b.Charge(0, 49*time.Second); v != OnTime {
		t.Fatalf("exactly the budget must be on time (strict check), got %v", v)
	}
	if v := b.Charge(1, 10*time.Second); v != OnTime || b.Remaining(1) != 39*time.Second {
		t.Fatalf("seat 1: %v remaining %v", v, b.Remaining(1))
	}
	if v := b.Charge(0, 49*time.Second+time.Millisecond); v != Over {
		t.Fatalf("over the budget: got %v", v)
	}
	if b.Hard(0) != 5*time.Second || b.Remaining(0) != 0 {
		t.Fatalf("exhausted budget: hard %v remaining %v", b.Hard(0), b.Remaining(0))
	}
	// CPU readings never go backwards.
	b.Charge(1, 5*time.Second)
	if b.Used(1) != 10*time.Second {
		t.Fatalf("Used went backwards: %v", b.Used(1))
	}
}

func TestFakeAfterFunc(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	fired := 0
	f.AfterFunc(time.Second, func() { fired++ })
	if fired != 0 {
		t.Fatal("fired early")
	}
	f.Advance(999 * time.Millisecond)
	if fired != 0 {
		t.Fatal("fired early")
	}
	f.Advance(time.Millisecond)
	if fired != 1 {
		t.Fatal("did not fire at its time")
	}
	if f.Waiters() != 0 {
		t.Fatal("fired timer still pending")
	}
}

func TestRealAfterFunc(t *testing.T) {
	fired := make(chan struct{})
	Real{}.AfterFunc(time.Millisecond, func() { close(fired) })
	select {
	case <-fired:
	case <-time.After(10 * time.Second):
		t.Fatal("the real clock's timer never fired")
	}
	if stop := (Real{}).AfterFunc(time.Hour, func() { t.Error("a stopped timer fired") }); !stop() {
		t.Fatal("stop of a pending real timer returned false")
	}
}
