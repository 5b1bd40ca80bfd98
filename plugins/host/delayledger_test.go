package host

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestDelayLedgerKeepsTheWaitOfEndedThreads(t *testing.T) {
	var l delayLedger
	l.see("10", 10)
	l.see("11", 5)
	if got := l.total(); got != 15 {
		t.Fatalf("two live threads: %v, want 15", got)
	}
	l.see("10", 12) // 11 ended
	if got := l.total(); got != 17 {
		t.Fatalf("after thread 11 ended: %v, want 12 + 5", got)
	}
	l.see("12", 3) // 10 ended, 12 began
	if got := l.total(); got != 20 {
		t.Fatalf("after thread 10 ended and 12 began: %v, want 12 + 5 + 3", got)
	}
	if got := l.total(); got != 20 {
		t.Fatalf("after every thread ended: %v, want 20", got)
	}
}

// An agent whose work is done by short-lived workers (a pool per move,
// ended before the reply) waits on the run queue through them: read while
// they live, their waits stay counted after they end. Read only at the
// window's two ends, as before, the workers' waits were lost and a
// starved agent looked idle. The workers here are processes of the tree
// (shell subshells, each living a fraction of a second, longer than the
// ledger's reading period, and a small part of the window), pinned with
// three busy threads on one CPU, so they wait about three quarters of the
// time; a quarter is the bound, which more load only makes easier to meet,
// while without the ledger only the last worker's wait would count.
func TestRunQueueCountsWorkersThatEnded(t *testing.T) {
	if testing.Short() {
		// TestUsageSeesAStarvedAgentWaitNotASleepingOne reads the run
		// queue in a second; this window is three.
		t.Skip("samples an agent's run queue for seconds: runs without -short")
	}
	cpu := firstCPU(t)
	// The parent sleeps; each worker counts to 100,000 and ends.
	script := `while :; do (i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done) & wait; done`
	agent := startPinned(t, cpu, "sh", "-c", script)
	s := newTreeSampler(agent.Process.Pid)
	defer s.close()
	read := func() time.Duration {
		u, err := s.sample(reading{delay: true})
		if err != nil {
			t.Fatal(err)
		}
		return u.RunQueue
	}
	var stop atomic.Bool
	defer stop.Store(true)
	r0 := read()
	start := time.Now()
	hog(t, cpu, 3, &stop)
	for time.Since(start) < 3*time.Second {
		time.Sleep(delayEvery * watchEvery)
		read()
	}
	waited, wall := read()-r0, time.Since(start)
	stop.Store(true)
	t.Logf("over %v the workers waited %v on the run queue", wall, waited)
	if waited < wall/4 {
		t.Fatalf("the agent's ended workers waited %v of %v", waited, wall)
	}
}
