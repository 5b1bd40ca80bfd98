package check

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
)

// A late reply whose evidence puts it down to the machine is reported as
// the machine's, saying so plainly; one the agent slept through stays the
// agent's.
func TestMachineCausedReadsTheRecordsEvidence(t *testing.T) {
	waited, slept := 900.0, 0.0
	rec := &record.Game{Events: []record.Event{
		{Ply: 4, Seat: 0, Kind: "late", Evidence: &record.Evidence{WallMS: 1200, LimitMS: 700, RunQueueMS: &waited}},
		{Ply: 8, Seat: 0, Kind: "late", Evidence: &record.Evidence{WallMS: 1200, LimitMS: 700, RunQueueMS: &slept}},
	}}
	rec.Events[0].Evidence.PossiblyContention = rec.Events[0].Evidence.Contended()
	got := machineCaused(rec, record.Event{Ply: 4, Seat: 0, Kind: "late"})
	if !strings.Contains(got, "waited 900 ms for a CPU") || !strings.Contains(got, "too busy for a fair verdict") {
		t.Fatalf("machine-caused late reply explained as %q", got)
	}
	if got := machineCaused(rec, record.Event{Ply: 8, Seat: 0, Kind: "late"}); got != "" {
		t.Fatalf("a sleeping agent's late reply put down to the machine: %q", got)
	}
	if got := machineCaused(rec, record.Event{Ply: 4, Seat: 1, Kind: "late"}); got != "" {
		t.Fatalf("the other seat's event matched: %q", got)
	}
}

// usageHandle is a Handle whose run-queue reading is fixed.
type usageHandle struct{ referee.Handle }

func (usageHandle) Usage() (time.Duration, time.Duration, error) {
	return 2 * time.Second, time.Second, nil
}

// The check's timing wrapper keeps the process's run-queue reading
// visible to the referee, and says so when there is none.
func TestTimedPassesTheRunQueueReadingOn(t *testing.T) {
	var h referee.Handle = timed{usageHandle{}, &tracker{}}
	u, ok := h.(referee.UsageReader)
	if !ok {
		t.Fatal("the timing wrapper hides the run-queue reading")
	}
	if cpu, rq, err := u.Usage(); cpu != 2*time.Second || rq != time.Second || err != nil {
		t.Fatalf("Usage() = %v, %v, %v", cpu, rq, err)
	}
	if _, _, err := (timed{Handle: nil, tr: &tracker{}}).Usage(); !errors.Is(err, referee.ErrNoRunQueue) {
		t.Fatalf("without a reading: %v", err)
	}
}
