package host

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// The last reading before an agent's group goes keeps a kernel OOM kill
// that the memory watcher never saw (the agent died between two of its
// ticks, or the machine held the watcher back): a memory breach, at the
// peak the agent was killed at. No watcher runs here, so the kill reaches
// the verdict through lastGroupMemory alone, whatever the machine's speed.
// Without an arena limit, a kill in the group is not a breach of one.
func TestLastGroupReadingKeepsAKillTheWatcherMissed(t *testing.T) {
	t.Parallel() // its own group and process; nothing it asserts is timed
	if _, err := exec.LookPath("tail"); err != nil {
		t.Skipf("no tail command to fill a group's memory: %v", err)
	}
	l := &Launcher{Isolation: IsolationOff, Notify: func(string) {}}
	const limitMB = 16
	g := l.newGroup(limitMB)
	if g == nil {
		t.Skip("no cgroup with a memory limit can be made here: memory is read from /proc")
	}
	defer func() { _ = g.Remove(10 * time.Second) }()
	// tail keeps every byte of a file without newlines: it grows until
	// the kernel kills it for the group's limit. Its address space is
	// bounded too (256 MiB), so that where the group holds no limit (a
	// broken group, a mutant) it fails on its own instead of filling the
	// machine's memory.
	cmd := exec.Command("sh", "-c", "ulimit -v 262144 && exec tail /dev/zero")
	intoGroup(cmd, g)
	if err := startThread(g, false, nil, cmd.Start); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("tail /dev/zero in a %d MiB group ended with %v, want killed by the kernel for the group's limit", limitMB, err)
	}

	p := &Process{group: g, groupMem: true, limit: limitMB << 20, memHit: make(chan struct{})}
	p.lastGroupMemory()
	if !p.OverMemory() {
		t.Fatal("the kernel's kill was not recorded as a memory breach")
	}
	select {
	case <-p.MemoryExceeded():
	default:
		t.Fatal("MemoryExceeded was not signalled")
	}
	if p.peak < limitMB<<20*9/10 {
		t.Errorf("peak %d, want about the %d MiB limit the agent was killed at", p.peak, limitMB)
	}

	free := &Process{group: g, groupMem: true, memHit: make(chan struct{})}
	free.lastGroupMemory()
	if free.OverMemory() || free.peak != 0 {
		t.Errorf("no arena limit: over=%v peak=%d, want neither", free.OverMemory(), free.peak)
	}
}
