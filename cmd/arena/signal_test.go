package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/plugins/host/proctree"
)

// children lists the pids whose parent is pid.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// startArena runs the CLI as a real process (this test binary standing in
// for the arena binary) and waits until it has agent processes.
func startArena(t *testing.T, args string) (*exec.Cmd, []int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ARENA_TEST_RUN_MAIN=1", "ARENA_TEST_ARGS="+args)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if kids := children(cmd.Process.Pid); len(kids) >= 2 {
			return cmd, kids
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	t.Fatalf("no agent processes appeared; stderr: %s", errb.String())
	return nil, nil
}

func assertNoOrphans(t *testing.T, groups []int, procs []proctree.Proc) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for _, g := range groups {
		for groupAlive(g) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if groupAlive(g) {
			t.Errorf("agent process group %d survived the arena", g)
			_ = syscall.Kill(-g, syscall.SIGKILL)
		}
	}
	// By pid as well: a group check passes when an agent is not a group
	// leader at all.
	alive, err := proctree.WaitGone(procs, time.Until(deadline))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range alive {
		t.Errorf("agent process %v survived the arena", p)
		_ = syscall.Kill(p.Pid, syscall.SIGKILL)
	}
}

// trees lists every process in the trees of pids, as they are now.
func trees(t *testing.T, pids []int) []proctree.Proc {
	t.Helper()
	var out []proctree.Proc
	for _, pid := range pids {
		tree, err := proctree.Tree(pid)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tree...)
	}
	return out
}

func TestSignalsLeaveNoOrphans(t *testing.T) {
	longRunning(t)
	if err := proctree.Available(); err != nil {
		t.Skip(err) // agent processes are found through /proc
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, kids := startArena(t, "play bohnenspiel random greedy --games 100000 --parallel 2")
			procs := trees(t, kids)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				// SIGKILL leaves no status of the arena's choosing.
				var ee *exec.ExitError
				if sig != syscall.SIGKILL && (!errors.As(err, &ee) || ee.ExitCode() != exitInterrupted) {
					t.Errorf("after %v: %v, want exit status %d", sig, err, exitInterrupted)
				}
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("arena did not exit after %v", sig)
			}
			// Agents started after the snapshot are children too; all of
			// them are gone once the parent is.
			assertNoOrphans(t, kids, procs)
		})
	}
}
