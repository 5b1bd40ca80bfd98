package host_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"arena/plugins/host"
)

func affinity(t *testing.T, tid int) []int {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(tid, &set); err != nil {
		t.Fatalf("affinity of %d: %v", tid, err)
	}
	var out []int
	for c := 0; len(out) < set.Count(); c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}

// TestCPUsPinEveryThreadOfTheAgent checks that an agent started with CPUs
// runs, with every thread of every process of its tree, on those CPUs
// only, and that the arena itself keeps all of its own.
func TestCPUsPinEveryThreadOfTheAgent(t *testing.T) {
	mine := affinity(t, 0)
	if len(mine) < 2 {
		t.Skip("needs two CPUs to tell a pinned agent from an unpinned one")
	}
	want := []int{mine[len(mine)-1]}
	p := launch(t, "echo", host.Options{CPUs: want})
	defer p.Kill()
	pids := p.Pids()
	if len(pids) == 0 {
		t.Fatal("no agent process found")
	}
	threads := 0
	for _, pid := range pids {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*"))
		for _, task := range tasks {
			tid, err := strconv.Atoi(filepath.Base(task))
			if err != nil {
				continue
			}
			if _, err := os.Stat(task); err != nil {
				continue // exited meanwhile
			}
			if got := affinity(t, tid); !slices.Equal(got, want) {
				t.Errorf("agent pid %d thread %d runs on CPUs %v, want %v", pid, tid, got, want)
			}
			threads++
		}
	}
	if threads == 0 {
		t.Fatal("no thread of the agent found")
	}
	if got := affinity(t, 0); !slices.Equal(got, mine) {
		t.Fatalf("the arena's own thread now runs on %v, was %v", got, mine)
	}
	// Another agent started unpinned gets every CPU.
	q := launch(t, "echo", host.Options{})
	defer q.Kill()
	if got := affinity(t, q.Pid()); !slices.Equal(got, mine) {
		t.Fatalf("unpinned agent runs on %v, want %v", got, mine)
	}
}
