package referee_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/games/bohnenspiel"
	"arena/games/dotsboxes"
	"arena/plugins/protocol"
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

// The machine is held to blame for a late move only when the agent's
// threads waited for a CPU long enough to explain the overrun: wall time
// less run-queue delay within the limit (700 ms here; COMP424's 1 s cushion
// makes a reply past 1.7 s a timeout). Neither the load nor the agent's CPU use
// decides it: an agent that slept used no CPU and waited for none.
func TestLateMoveEvidence(t *testing.T) {
	ms := time.Millisecond
	busy := slots.Sample{Load: 5.5, Runnable: 6, CPUs: 2}
	idle := slots.Sample{Load: 0.2, Runnable: 0, CPUs: 2}
	cases := []struct {
		name       string
		smp        slots.Sample
		step       step
		kind       string
		contention bool
	}{
		{"waiting for a core on a busy machine", busy, step{think: 1200 * ms, cpu: 100 * ms, wait: 1000 * ms}, "late", true},
		{"waiting just the overrun", busy, step{think: 1200 * ms, cpu: 700 * ms, wait: 500 * ms}, "late", true},
		{"waiting less than the overrun", busy, step{think: 1200 * ms, cpu: 700 * ms, wait: 499 * ms}, "late", false},
		{"slow thinking on a busy machine", busy, step{think: 1200 * ms, cpu: 1180 * ms}, "late", false},
		{"sleeping on a busy machine", busy, step{think: 1200 * ms, cpu: 10 * ms}, "late", false},
		{"sleeping on an idle machine", idle, step{think: 1200 * ms, cpu: 10 * ms}, "late", false},
		{"past the cushion, kept from a core", busy, step{think: 1800 * ms, cpu: 50 * ms, wait: 1700 * ms}, "timeout", true},
		{"past the cushion, asleep", busy, step{think: 1800 * ms, cpu: 50 * ms}, "timeout", false},
		{"silent on a busy machine", busy, step{hang: true}, "timeout", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The first move uses CPU and waits too: the evidence counts
			// only the late move's own.
			rec := evidenceMatch(t, c.smp, []step{{think: time.Second, cpu: 5 * ms, wait: 300 * ms}, c.step})
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
			if ev.RunQueueMS == nil || *ev.RunQueueMS != float64(c.step.wait/ms) || ev.LimitMS != 700 {
				t.Fatalf("evidence run queue %+v against %v ms, want %d against 700", ev.RunQueueMS, ev.LimitMS, c.step.wait/ms)
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

// An agent whose run-queue delay cannot be read (no UsageReader) is never
// held a victim of the machine, however loaded.
func TestLateMoveWithoutRunQueueIsNotContention(t *testing.T) {
	ms := time.Millisecond
	clk := newReplyClock(time.Unix(1000, 0))
	a := cpuOnly{&fakeAgent{clk: clk, steps: []step{{think: time.Second}, {think: 1200 * ms, wait: time.Second}}, mem: make(chan struct{})}}
	b := &fakeAgent{clk: clk, mem: make(chan struct{})}
	rec := playSeats(t, clk, slots.Sample{Load: 9, Runnable: 9, CPUs: 2}, a, b)
	if len(rec.Events) == 0 || rec.Events[0].Evidence == nil {
		t.Fatalf("events %+v", rec.Events)
	}
	if ev := rec.Events[0].Evidence; ev.RunQueueMS != nil || ev.PossiblyContention {
		t.Fatalf("evidence %+v without a run-queue reading", ev)
	}
}

// playSeats plays a Bohnenspiel game under COMP424's profile between
// seatLauncher's handles a and b, with the machine's load fixed to smp.
func playSeats(t *testing.T, clk *replyClock, smp slots.Sample, a, b referee.Handle) *record.Game {
	t.Helper()
	r := &referee.Referee{
		Clock:  clk,
		Sample: func() (slots.Sample, bool) { return smp, true },
		Launch: seatLauncher(a, b),
	}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3,
		Players: fakeSeats,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// cpuOnly hides a fake agent's run-queue reading.
type cpuOnly struct{ *fakeAgent }

func (c cpuOnly) Usage() (time.Duration, time.Duration, error) { return 0, 0, referee.ErrNoRunQueue }

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

// sendingAgent is a fake agent whose handle says when a request has left
// (referee.Sender). Before the request leaves it uses early CPU, which no
// move may be charged: the referee reads the agent once the request is
// sent, and reads it after a move when the next request is sent.
type sendingAgent struct {
	*fakeAgent
	early time.Duration
}

func (s sendingAgent) MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error) {
	s.mu.Lock()
	s.cpu += s.early
	s.mu.Unlock()
	sent()
	return s.fakeAgent.Move(ctx, req)
}

func TestMovesRecordTheirCPUFromTheSentRequest(t *testing.T) {
	ms := time.Millisecond
	clk := newReplyClock(time.Unix(1000, 0))
	steps := []step{{cpu: 30 * ms}, {cpu: 7 * ms}, {cpu: 12 * ms}}
	a := sendingAgent{&fakeAgent{clk: clk, steps: steps, mem: make(chan struct{})}, 5 * ms}
	b := sendingAgent{&fakeAgent{clk: clk, mem: make(chan struct{})}, 5 * ms}
	rec := playSeats(t, clk, slots.Sample{Load: 0.1, CPUs: 2}, a, b)
	var got [2][]float64
	for _, m := range rec.Moves {
		if m.Source != record.SourceAgent {
			continue
		}
		if m.MoveCPUMS == nil {
			t.Fatalf("move %d (seat %d, of %d) has no CPU time", m.Ply, m.Seat, len(rec.Moves))
		}
		got[m.Seat] = append(got[m.Seat], *m.MoveCPUMS)
	}
	if len(got[0]) < 4 || got[0][0] != 30 || got[0][1] != 7 || got[0][2] != 12 || got[0][3] != 0 {
		t.Errorf("seat 0's moves' CPU %v ms, want 30, 7, 12, then 0 (none of the CPU used before a request left)", got[0])
	}
	for i, c := range got[1] {
		if c != 0 {
			t.Fatalf("seat 1's move %d charged %v ms, want 0", i, c)
		}
	}
	last := rec.Moves[len(rec.Moves)-1]
	if last.Source == record.SourceAgent && last.MoveCPUMS == nil {
		t.Error("the game's last move has no CPU time: the reading owed at the end was not taken")
	}
}

// In Dots and Boxes a player who closes a box moves again: the reading
// taken as its next request leaves ends its last move too, with what it
// used between its reply and that request.
func TestMovesInARowRecordTheirCPU(t *testing.T) {
	ms := time.Millisecond
	clk := newReplyClock(time.Unix(1000, 0))
	var steps [2][]step
	for i := range 80 { // a seat makes at most 40 of Dots and Boxes' 40 moves
		steps[i%2] = append(steps[i%2], step{cpu: time.Duration(i+1) * ms})
	}
	var agents [2]sendingAgent
	for s := range agents {
		agents[s] = sendingAgent{&fakeAgent{clk: clk, steps: steps[s], mem: make(chan struct{}), game: dotsboxes.Game{}}, 3 * ms}
	}
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &referee.Referee{
		Clock:  clk,
		Sample: func() (slots.Sample, bool) { return slots.Sample{Load: 0.1, CPUs: 2}, true },
		Launch: seatLauncher(agents[0], agents[1]),
	}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: t.Name(), Game: dotsboxes.Game{}, Profile: prof, Seed: 3,
		Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var n [2]int
	again := 0
	for i, m := range rec.Moves {
		if m.Source != record.SourceAgent {
			t.Fatalf("move %d came from %s", m.Ply, m.Source)
		}
		want := float64(steps[m.Seat][n[m.Seat]].cpu / ms)
		n[m.Seat]++
		if i+1 < len(rec.Moves) && rec.Moves[i+1].Seat == m.Seat {
			// Read when the next request left: what the agent used
			// between its reply and then is this move's.
			want += 3
		}
		if m.MoveCPUMS == nil || *m.MoveCPUMS != want {
			got := "none"
			if m.MoveCPUMS != nil {
				got = fmt.Sprint(*m.MoveCPUMS)
			}
			t.Fatalf("move %d (seat %d): CPU %s ms, want %v", m.Ply, m.Seat, got, want)
		}
		if i > 0 && rec.Moves[i-1].Seat == m.Seat {
			again++
		}
	}
	if again == 0 {
		t.Fatal("no player moved twice in a row: the case is not exercised")
	}
}
