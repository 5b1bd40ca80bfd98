package host

import (
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// A process of a kept agent's tree that ends between the listing of the
// tree and the pinning of its threads leaves nothing to pin: Repin must
// not fail the whole agent for it (the pool would then replace a healthy
// process). The root ending is still an error.
func TestPinThreadsOfAnEndedProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	gone := cmd.Process.Pid // reaped: no /proc entry is left
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	if _, err := pinThreads(gone, false, &set); err != nil {
		t.Errorf("an ended descendant: %v, want nothing to do", err)
	}
	if _, err := pinThreads(gone, true, &set); err == nil {
		t.Error("an ended root pinned without an error")
	}
}

// A thread made during a pass by one not yet moved keeps the old mask:
// Repin goes over the tree again until a pass finds nothing to move. The
// straggler is made by hand here (the agent's one thread put back on the
// old CPU after the first pass), which a single pass would leave behind.
func TestRepinMovesAThreadLeftBehindByAPass(t *testing.T) {
	var mine unix.CPUSet
	if err := unix.SchedGetaffinity(0, &mine); err != nil {
		t.Fatal(err)
	}
	cpus := setCPUs(mine)
	if len(cpus) < 2 {
		t.Skip("needs two CPUs to move a process from one to another")
	}
	var from, to unix.CPUSet
	from.Set(cpus[0])
	to.Set(cpus[1])
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	pid := cmd.Process.Pid
	if err := unix.SchedSetaffinity(pid, &from); err != nil {
		t.Fatal(err)
	}
	passes := 0
	err := repinTree(pid, &to, func() {
		passes++
		if passes == 1 {
			if err := unix.SchedSetaffinity(pid, &from); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var got unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &got); err != nil {
		t.Fatal(err)
	}
	if got != to {
		t.Errorf("after %d pass(es) the process is on CPUs %v, want %v", passes+1, setCPUs(got), setCPUs(to))
	}
	if passes != 2 {
		t.Errorf("%d passes moved a thread, want 2 (the first, and the one after the straggler)", passes)
	}
	// Nothing left to move: one pass, which moves nothing.
	passes = 0
	if err := repinTree(pid, &to, func() { passes++ }); err != nil || passes != 0 {
		t.Errorf("a tree already moved: %v, %d passes moved a thread, want none", err, passes)
	}
}

func setCPUs(s unix.CPUSet) []int {
	var out []int
	for c := 0; c < len(s)*64; c++ {
		if s.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}
