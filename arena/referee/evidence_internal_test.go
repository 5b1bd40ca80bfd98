package referee

import (
	"testing"
	"time"

	"arena/arena/clock"
	"arena/arena/record"
	"arena/arena/slots"
)

// A move's load reading serves the moves of the next second of the game's
// clock and no longer: at one second exactly the load is read again, and a
// failed reading is not kept.
func TestMoveLoadIsReadOncePerSecond(t *testing.T) {
	clk := clock.NewFake(time.Unix(1000, 0))
	reads := 0
	ok := true
	g := &game{clk: clk, ref: &Referee{Sample: func() (slots.Sample, bool) {
		reads++
		return slots.Sample{Load: float64(reads)}, ok
	}}}
	steps := []struct {
		advance   time.Duration
		fail      bool
		wantLoad  float64
		wantOK    bool
		wantReads int
	}{
		{0, false, 1, true, 1},
		{time.Second - time.Nanosecond, false, 1, true, 1}, // still the first reading
		{time.Nanosecond, false, 2, true, 2},               // one second after it: read again
		{time.Second / 2, false, 2, true, 2},
		{time.Second / 2, true, 3, false, 3}, // read again, and it failed
		{0, false, 4, true, 4},               // the failed reading was not kept
	}
	for i, s := range steps {
		clk.Advance(s.advance)
		ok = !s.fail
		load, gotOK := g.moveLoad()
		if load != s.wantLoad || gotOK != s.wantOK || reads != s.wantReads {
			t.Fatalf("step %d: load %v, ok %v after %d readings; want %v, %v after %d",
				i, load, gotOK, reads, s.wantLoad, s.wantOK, s.wantReads)
		}
	}
}

// A late move's evidence goes to the event recorded for it, and is dropped
// when the game ended before that event was recorded.
func TestEvidenceAttachesToItsEventOnly(t *testing.T) {
	g := &game{rec: &record.Game{}}
	ev := &record.Evidence{WallMS: 1500}
	g.attach(0, ev) // no event at index 0: nothing to attach to
	if len(g.rec.Events) != 0 {
		t.Fatalf("events %+v", g.rec.Events)
	}
	g.rec.Events = append(g.rec.Events, record.Event{}, record.Event{})
	g.attach(1, ev)
	if g.rec.Events[0].Evidence != nil || g.rec.Events[1].Evidence != ev {
		t.Fatalf("evidence on events %+v, want on the second only", g.rec.Events)
	}
	g.attach(2, &record.Evidence{})
	if g.rec.Events[1].Evidence != ev {
		t.Fatal("evidence for an event never recorded replaced another's")
	}
}
