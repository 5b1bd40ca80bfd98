package referee_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/games/bohnenspiel"
)

// evidenceMatch plays seat 0's steps against a prompt opponent with the
// machine's load fixed to smp.
func evidenceMatch(t *testing.T, smp slots.Sample, a []step) *record.Game {
	t.Helper()
	rec, _ := countedEvidenceMatch(t, smp, a)
	return rec
}

// countedEvidenceMatch is evidenceMatch, also counting the load readings.
func countedEvidenceMatch(t *testing.T, smp slots.Sample, a []step) (*record.Game, int) {
	t.Helper()
	var reads atomic.Int64
	clk := newReplyClock(time.Unix(1000, 0))
	agents := [2]*fakeAgent{{clk: clk, steps: a, mem: make(chan struct{})}, {clk: clk, mem: make(chan struct{})}}
	r := &referee.Referee{
		Clock:  clk,
		Sample: func() (slots.Sample, bool) { reads.Add(1); return smp, true },
		Launch: seatLauncher(agents[0], agents[1]),
	}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3,
		Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec, int(reads.Load())
}

func TestLateMoveEvidence(t *testing.T) {
	ms := time.Millisecond
	busy := slots.Sample{Load: 5.5, Runnable: 6, CPUs: 2}
	idle := slots.Sample{Load: 0.2, Runnable: 0, CPUs: 2}
	burst := slots.Sample{Load: 0.5, Runnable: 4, CPUs: 2} // the average lags; the instant count does not
	cases := []struct {
		name       string
		smp        slots.Sample
		step       step
		kind       string
		contention bool
	}{
		{"waiting for a core on a busy machine", busy, step{think: 900 * ms, cpu: 100 * ms}, "late", true},
		{"a sudden burst of work", burst, step{think: 900 * ms, cpu: 100 * ms}, "late", true},
		{"slow thinking on a busy machine", busy, step{think: 900 * ms, cpu: 880 * ms}, "late", false},
		{"sleeping on an idle machine", idle, step{think: 900 * ms, cpu: 10 * ms}, "late", false},
		{"past the cushion on a busy machine", busy, step{think: 1800 * ms, cpu: 50 * ms}, "timeout", true},
		{"silent on a busy machine", busy, step{hang: true}, "timeout", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The first move uses CPU too: the evidence counts only the
			// late move's own.
			rec := evidenceMatch(t, c.smp, []step{{think: time.Second, cpu: 5 * ms}, c.step})
			if len(rec.Events) == 0 || rec.Events[0].Kind != c.kind {
				t.Fatalf("events %+v, want a %s first", rec.Events, c.kind)
			}
			ev := rec.Events[0].Evidence
			if ev == nil {
				t.Fatal("late move without evidence")
			}
			if ev.Load != c.smp.Load || ev.Runnable != c.smp.Runnable || ev.CPUs != c.smp.CPUs {
				t.Fatalf("evidence %+v, machine %+v", ev, c.smp)
			}
			if ev.MoveCPUMS == nil || *ev.MoveCPUMS != float64(c.step.cpu/ms) {
				t.Fatalf("evidence CPU %v, want %v ms", ev.MoveCPUMS, c.step.cpu/ms)
			}
			if !c.step.hang && ev.WallMS != float64(c.step.think/ms) {
				t.Fatalf("evidence wall %v ms, want %v", ev.WallMS, c.step.think/ms)
			}
			if ev.PossiblyContention != c.contention {
				t.Fatalf("possibly contention %v, want %v (%+v)", ev.PossiblyContention, c.contention, ev)
			}
			if got := rec.Contention(0); got != map[bool]int{true: 1}[c.contention] {
				t.Fatalf("Contention(0) = %d", got)
			}
		})
	}
}

// Every move records the machine's load; a move in time has no evidence
// attached. The load is read once for moves within a second of the game's
// clock (the fake agents here take no time).
func TestMovesRecordTheLoad(t *testing.T) {
	rec, reads := countedEvidenceMatch(t, slots.Sample{Load: 1.25, Runnable: 1, CPUs: 2}, nil)
	if reads != 1 || len(rec.Moves) < 10 {
		t.Errorf("%d load readings for %d moves in no time; want 1", reads, len(rec.Moves))
	}
	if len(rec.Events) != 0 {
		t.Fatalf("events %+v", rec.Events)
	}
	for _, m := range rec.Moves {
		if m.Source == record.SourceAgent && (m.Load == nil || *m.Load != 1.25) {
			t.Fatalf("move %d load %v", m.Ply, m.Load)
		}
	}
}

// Every move an agent made records the CPU its processes used for it.
func TestMovesRecordTheirCPU(t *testing.T) {
	ms := time.Millisecond
	rec, _ := countedEvidenceMatch(t, slots.Sample{Load: 0.1, CPUs: 2}, []step{{cpu: 30 * ms}, {cpu: 7 * ms}})
	var got []float64
	for _, m := range rec.Moves {
		if m.Seat != 0 || m.Source != record.SourceAgent {
			continue
		}
		if m.MoveCPUMS == nil {
			t.Fatalf("move %d has no CPU time", m.Ply)
		}
		got = append(got, *m.MoveCPUMS)
	}
	if len(got) < 3 || got[0] != 30 || got[1] != 7 || got[2] != 0 {
		t.Errorf("seat 0's moves' CPU %v ms, want 30, 7, then 0", got)
	}
}
