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
