package host_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"arena/plugins/host"
	"arena/plugins/protocol"
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

func tasksOf(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*"))
	for _, task := range tasks {
		if tid, err := strconv.Atoi(filepath.Base(task)); err == nil {
			out = append(out, tid)
		}
	}
	return out
}

// tree lists pid and its descendants, from /proc's parent links.
func tree(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
		pp, _ := strconv.Atoi(f[1])
		parent[child] = pp
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		for c, pp := range parent {
			if pp == out[i] {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestCPUsPinEveryThreadOfTheAgent checks that an agent started with CPUs
// runs, with every thread of every process of its tree, on those CPUs
// only, and that the arena itself keeps all of its own.
func TestCPUsPinEveryThreadOfTheAgent(t *testing.T) {
	longRunning(t)
	mine := affinity(t, 0)
	if len(mine) < 2 {
		t.Skip("needs two CPUs to tell a pinned agent from an unpinned one")
	}
	want := []int{mine[len(mine)-1]}
	p := launch(t, "echo", host.Options{CPUs: want})
	defer p.Kill()
	pids := tree(p.Pid())
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
	// The agent outlives its start: the launching thread is not discarded
	// (its parent-death signal would kill the agent).
	time.Sleep(300 * time.Millisecond)
	if _, err := p.Agent.Move(context.Background(), protocol.MoveRequest{}); err != nil {
		t.Fatalf("pinned agent no longer answers: %v", err)
	}
	for _, task := range tasksOf(os.Getpid()) {
		if got := affinity(t, task); !slices.Equal(got, mine) {
			t.Fatalf("the arena's thread %d now runs on %v, was %v", task, got, mine)
		}
	}
	// Another agent started unpinned gets every CPU.
	q := launch(t, "echo", host.Options{})
	defer q.Kill()
	if got := affinity(t, q.Pid()); !slices.Equal(got, mine) {
		t.Fatalf("unpinned agent runs on %v, want %v", got, mine)
	}
}

// TestRepinMovesEveryThreadOfAKeptAgent: a kept agent moved to another
// slot runs, with every thread of its tree, on the new CPUs only, and
// still answers.
func TestRepinMovesEveryThreadOfAKeptAgent(t *testing.T) {
	mine := affinity(t, 0)
	if len(mine) < 2 {
		t.Skip("needs two CPUs to move an agent from one to another")
	}
	from, to := []int{mine[0]}, []int{mine[len(mine)-1]}
	p := launch(t, "echo", host.Options{CPUs: from})
	defer p.Kill()
	if err := host.Repin(p.Pid(), to); err != nil {
		t.Fatal(err)
	}
	threads := 0
	for _, pid := range tree(p.Pid()) {
		for _, tid := range tasksOf(pid) {
			if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid), "task", strconv.Itoa(tid))); err != nil {
				continue // exited meanwhile
			}
			if got := affinity(t, tid); !slices.Equal(got, to) {
				t.Errorf("agent pid %d thread %d runs on CPUs %v after the move, want %v", pid, tid, got, to)
			}
			threads++
		}
	}
	if threads == 0 {
		t.Fatal("no thread of the agent found")
	}
	if _, err := p.Agent.Move(context.Background(), protocol.MoveRequest{}); err != nil {
		t.Fatalf("moved agent no longer answers: %v", err)
	}
	if err := host.Repin(1<<30, to); err == nil {
		t.Error("repinning a process that does not exist succeeded")
	}
}

// A thread made during a pass by one not yet moved keeps the old mask:
// Repin goes over the tree again until a pass finds nothing to move. The
// straggler is made by hand here (the process's one thread put back on the
// old CPU after the first pass), which a single pass would leave behind.
func TestRepinMovesAThreadLeftBehindByAPass(t *testing.T) {
	mine := affinity(t, 0)
	if len(mine) < 2 {
		t.Skip("needs two CPUs to move a process from one to another")
	}
	from, to := []int{mine[0]}, []int{mine[len(mine)-1]}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	pid := cmd.Process.Pid
	var old unix.CPUSet
	old.Set(from[0])
	if err := unix.SchedSetaffinity(pid, &old); err != nil {
		t.Fatal(err)
	}
	passes := 0
	err := host.RepinTree(pid, to, func() {
		passes++
		if passes == 1 {
			if err := unix.SchedSetaffinity(pid, &old); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := affinity(t, pid); !slices.Equal(got, to) {
		t.Errorf("after %d pass(es) the process is on CPUs %v, want %v", passes+1, got, to)
	}
	if passes != 2 {
		t.Errorf("%d passes moved a thread, want 2 (the first, and the one after the straggler)", passes)
	}
	// Nothing left to move: one pass, which moves nothing.
	passes = 0
	if err := host.RepinTree(pid, to, func() { passes++ }); err != nil || passes != 0 {
		t.Errorf("a tree already moved: %v, %d passes moved a thread, want none", err, passes)
	}
}
