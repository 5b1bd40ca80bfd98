package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arena/arena/clock"
	"arena/arena/league"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// watchClock is the real clock, remembering the last deadline the referee
// armed (one game's turns are sequential, so the last is the current one).
type watchClock struct {
	clock.Real
	deadline atomic.Int64 // UnixNano of now + d at the last AfterFunc(d)
}

func (c *watchClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.deadline.Store(time.Now().Add(d).UnixNano())
	return time.AfterFunc(d, f).Stop
}

// watched notes, for each move request, when the referee gave up on it
// (cancelled the call) relative to the armed deadline.
type watched struct {
	referee.Handle
	clk *watchClock
	rec *samples
}

type samples struct {
	mu   sync.Mutex
	late []time.Duration
}

func (w watched) Move(ctx context.Context, r protocol.MoveRequest) (string, error) {
	return w.MoveSent(ctx, r, func() {})
}

// MoveSent is the handle's, so the referee reads the agent as in a league.
func (w watched) MoveSent(ctx context.Context, r protocol.MoveRequest, sent func()) (string, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			t := time.Now().UnixNano()
			w.rec.mu.Lock()
			w.rec.late = append(w.rec.late, time.Duration(t-w.clk.deadline.Load()))
			w.rec.mu.Unlock()
		case <-done:
		}
	}()
	if s, ok := w.Handle.(referee.Sender); ok {
		return s.MoveSent(ctx, r, sent)
	}
	sent()
	return w.Handle.Move(ctx, r)
}

// deadlineRun plays games of timed agents with the given options in both
// seats, with o.slots CPU slots held as a league holds them, until at least
// target agent moves were asked for.
func deadlineRun(ctx context.Context, o options, b *bins, target int, opts map[string]string) (asked, late, over int, verdicts []time.Duration, lateWall []float64, err error) {
	g, err := all.Registry().Lookup("dots-and-boxes")
	if err != nil {
		return 0, 0, 0, nil, nil, err
	}
	prof, err := g.Profile(engine.Params{})
	if err != nil {
		return 0, 0, 0, nil, nil, err
	}
	prof.MoveLimit, prof.FirstMoveLimit, prof.Cushion = o.limit, o.limit, o.cushion
	// A timeout substitutes a random move (and restarts the agent), so a
	// game of a never-answering agent goes on for every move.
	prof.Penalties = maps.Clone(prof.Penalties)
	prof.Penalties[engine.FailTimeout] = engine.RandomMove
	prof.Penalties[engine.FailLate] = engine.RandomMove
	l := readmeLauncher(b)
	rec := &samples{}
	// As a league runs them: every agent pinned to a CPU slot of its own,
	// a game holding two.
	mach, err := slots.Detect(o.slots)
	if err != nil {
		return 0, 0, 0, nil, nil, err
	}
	slotDir, err := os.MkdirTemp("", "arena-bench-slots-")
	if err != nil {
		return 0, 0, 0, nil, nil, err
	}
	defer os.RemoveAll(slotDir)
	pool, err := slots.New(slotDir, mach)
	if err != nil {
		return 0, 0, 0, nil, nil, err
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var next atomic.Int64
	quota := &moveQuota{target: target}
	for range o.slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for quota.begin() {
				clk := &watchClock{}
				launch := func(ctx context.Context, p referee.Player, opt host.Options) (referee.Handle, error) {
					proc, err := l.Launch(ctx, p.Ref, opt)
					if err != nil {
						return nil, err
					}
					return watched{referee.Wrap(proc), clk, rec}, nil
				}
				ref := &referee.Referee{Launch: launch, Clock: clk}
				i := next.Add(1)
				m := referee.Match{ID: fmt.Sprintf("deadline-%d", i), Game: g, Params: engine.Params{}, Profile: prof, Seed: uint64(i),
					Players: [2]referee.Player{{Name: "a", Ref: b.timed, Options: opts}, {Name: "b", Ref: b.timed, Options: opts}}}
				r, perr := league.PlayPinned(ctx, pool, *ref, m, nil)
				a := 0
				mu.Lock()
				if perr != nil {
					err = perr
				} else {
					var lt, ov int
					a, lt, ov = countMoves(r)
					asked, late, over = asked+a, late+lt, over+ov
					for _, e := range r.Events {
						if engine.Failure(e.Kind) == engine.FailLate && e.Evidence != nil {
							lateWall = append(lateWall, e.Evidence.WallMS)
						}
					}
				}
				mu.Unlock()
				quota.end(a, perr != nil)
			}
		}()
	}
	wg.Wait()
	return asked, late, over, rec.late, lateWall, err
}

// countMoves counts a record's move requests and its late and timed-out ones.
func countMoves(r *record.Game) (asked, late, over int) {
	for _, m := range r.Moves {
		if m.Source == record.SourceAgent {
			asked++
		}
	}
	for _, e := range r.Events {
		switch engine.Failure(e.Kind) {
		case engine.FailLate:
			late++
			asked++
		case engine.FailTimeout:
			over++
			asked++
		}
	}
	return asked, late, over
}

func benchDeadline(ctx context.Context, o options, b *bins, t *table) error {
	setting := fmt.Sprintf("limit %v + cushion %v, %d CPU slots full, each agent pinned to one as in a league", o.limit, o.cushion, o.slots)
	stolen := stealTime()
	asked, late, over, _, walls, err := deadlineRun(ctx, o, b, o.deadline, map[string]string{"fraction": "0.95"})
	if err != nil {
		return err
	}
	got := fmt.Sprintf("%d late, %d over", late, over)
	if len(walls) > 0 {
		// How late: the reply's wall time as the referee measured it.
		got += fmt.Sprintf(" (replies at %.1f–%.1f ms)", slices.Min(walls), slices.Max(walls))
	}
	// On a virtual machine the host may take the CPUs away for
	// milliseconds (steal time): no arena can answer for that.
	if st := stealTime() - stolen; stolen >= 0 && st >= 0 {
		got += fmt.Sprintf("; CPU time stolen by the VM host meanwhile: %v", st)
	}
	t.add("deadline", fmt.Sprintf("agent at 95%% of limit, %d moves (%s)", asked, setting), got, "0 late, 0 over", "")
	asked, late, over, v, _, err := deadlineRun(ctx, o, b, o.timeouts, map[string]string{"never": "1"})
	if err != nil {
		return err
	}
	t.add("deadline", fmt.Sprintf("never-answering agent, %d moves: timeouts", asked), fmt.Sprintf("%d timed out, %d late", over, late), fmt.Sprintf("%d timed out", asked), "")
	for _, q := range []struct {
		name string
		q    float64
	}{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"max", 1}} {
		t.add("deadline", "verdict − (limit + cushion), "+q.name, ms(quantile(v, q.q)), "target p99 ≤ 5 ms", "")
	}
	return nil
}

// stealTime is the CPU time the hypervisor took from this machine's CPUs
// (the steal column of /proc/stat), or -1 where it cannot be read.
func stealTime() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return -1
	}
	ticks, err := strconv.ParseInt(f[8], 10, 64)
	if err != nil {
		return -1
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100
}
