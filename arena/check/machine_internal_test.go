package check

import (
	"strings"
	"testing"

	"arena/arena/record"
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
