package proctree_test

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/plugins/host/proctree"
)

func TestTreeFindsGrandchildAndWaitGoneSeesItDie(t *testing.T) {
	if err := proctree.Available(); err != nil {
		t.Skip(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("needs sh: %v", err)
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skipf("needs sleep: %v", err)
	}
	// sh starts sleep and waits: a tree of two, in its own group.
	cmd := exec.Command(sh, "-c", "sleep 300 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }()
	var tree []proctree.Proc
	deadline := time.Now().Add(10 * time.Second)
	// Until the forked child has exec'd sleep it is a second sh.
	for (len(tree) < 2 || !strings.Contains(tree[1].Name, "sleep")) && time.Now().Before(deadline) {
		if tree, err = proctree.Tree(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(tree) != 2 || tree[0].Pid != cmd.Process.Pid || !strings.Contains(tree[1].Name, "sleep") {
		t.Fatalf("tree %v, want sh then its sleep child", tree)
	}
	if alive, err := proctree.WaitGone(tree, 0); err != nil || len(alive) != 2 {
		t.Fatalf("both run, WaitGone says alive %v (err %v)", alive, err)
	}
	// The same pid with another start time is another process.
	if ok, _ := proctree.Alive(proctree.Proc{Pid: tree[1].Pid, Start: tree[1].Start + 1}); ok {
		t.Fatal("a pid with another start time counted as the same process")
	}
	// Killing only sh leaves the sleep child running: the check must say so.
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	alive, err := proctree.WaitGone(tree, 300*time.Millisecond)
	if err != nil || len(alive) != 1 || alive[0] != tree[1] {
		t.Fatalf("after killing sh only: alive %v (err %v), want the sleep child", alive, err)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if alive, err := proctree.WaitGone(tree, 10*time.Second); err != nil || len(alive) != 0 {
		t.Fatalf("after killing the group: alive %v (err %v)", alive, err)
	}
}

func TestWatchRemembersProcessesThatEnded(t *testing.T) {
	if err := proctree.Available(); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Skipf("needs sleep: %v", err)
	}
	w := proctree.NewWatch(5 * time.Millisecond)
	w.Add(cmd.Process.Pid)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	seen, err := w.Stop()
	if err != nil || len(seen) != 1 || seen[0].Pid != cmd.Process.Pid {
		t.Fatalf("seen %v (err %v), want the sleep process", seen, err)
	}
	if alive, _ := proctree.WaitGone(seen, 10*time.Second); len(alive) != 0 {
		t.Fatalf("a killed, reaped process counted as alive: %v", alive)
	}
}
