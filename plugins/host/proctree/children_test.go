package proctree

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// Children started from several OS threads are all found through the
// per-thread lists, in the order a scan of /proc gives; a zombie child is
// left out of both.
func TestChildrenFromEveryThreadMatchTheScan(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skipf("needs sleep: %v", err)
	}
	truth, err := exec.LookPath("true")
	if err != nil {
		t.Skipf("needs true: %v", err)
	}
	var (
		mu   sync.Mutex
		cmds []*exec.Cmd
		wg   sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			// Each start from its own OS thread: the kernel lists a child
			// under the thread that forked it.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c := exec.Command(sleep, "300")
			if err := c.Start(); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			cmds = append(cmds, c)
			mu.Unlock()
		})
	}
	wg.Wait()
	defer func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}()
	zombie := exec.Command(truth)
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	defer zombie.Wait()
	for deadline := time.Now().Add(30 * time.Second); ; {
		s, err := readStat(zombie.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if s.state == 'Z' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("true (%d) never ended", zombie.Process.Pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := ChildPids(os.Getpid()); err == errNoChildLists {
		t.Skip("this kernel keeps no per-thread children lists; Children scans /proc")
	}
	got, err := Children(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	all, err := allPids()
	if err != nil {
		t.Fatal(err)
	}
	scan, err := childrenAmong(os.Getpid(), all)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, scan) {
		t.Errorf("Children = %v, the scan of /proc = %v", got, scan)
	}
	for _, c := range cmds {
		if !slices.ContainsFunc(got, func(p Proc) bool { return p.Pid == c.Process.Pid }) {
			t.Errorf("sleep %d not among the children %v", c.Process.Pid, got)
		}
	}
	if slices.ContainsFunc(got, func(p Proc) bool { return p.Pid == zombie.Process.Pid }) {
		t.Errorf("the zombie %d is listed: %v", zombie.Process.Pid, got)
	}
	if len(got) != len(cmds) {
		t.Errorf("%d children listed, %d started and running: %v", len(got), len(cmds), got)
	}
}

// A process that is gone has no children, and no error.
func TestChildrenOfAGoneProcess(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skipf("needs true: %v", err)
	}
	got, err := Children(c.Process.Pid)
	if err != nil || len(got) != 0 {
		t.Errorf("Children of an ended process = %v, %v; want none, nil", got, err)
	}
}

// Tree through the children lists finds what the scan of /proc finds, in
// a tree three deep (sh, a subshell, two sleeps).
func TestTreeByListsMatchesTheScan(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skipf("needs sleep: %v", err)
	}
	cmd := exec.Command("sh", "-c", "(sleep 300 & wait) & sleep 300 & wait")
	if err := cmd.Start(); err != nil {
		t.Skipf("needs sh: %v", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sleeps := func(ps []Proc) int {
		n := 0
		for _, p := range ps {
			if p.Name == "sleep" {
				n++
			}
		}
		return n
	}
	var lists, scan []Proc
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var err error
		if lists, err = treeByLists(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
		if scan, err = treeByScan(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
		if len(lists) == 3+1 && sleeps(lists) == 2 && len(scan) == len(lists) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	byPid := func(a, b Proc) int { return a.Pid - b.Pid }
	slices.SortFunc(lists, byPid)
	slices.SortFunc(scan, byPid)
	if len(lists) != 4 || sleeps(lists) != 2 || !slices.Equal(lists, scan) {
		t.Fatalf("through the lists %v, by the scan %v; want sh, its subshell and two sleeps in both", lists, scan)
	}
	if tree, err := Tree(cmd.Process.Pid); err != nil || len(tree) != 4 || tree[0].Pid != cmd.Process.Pid {
		t.Fatalf("Tree %v (%v), want the four with the root first", tree, err)
	}
}
