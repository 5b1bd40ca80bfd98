package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
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
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	if err := proctree.Available(); err != nil {
		t.Skip(err) // agent processes are found through /proc
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel() // each signal's arena and agents are its own; the bounds are a minute
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
				if sig != syscall.SIGKILL && (!errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted) {
					t.Errorf("after %v: %v, want exit status %d", sig, err, ExitInterrupted)
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

// gameIDs lists the ids of the games in a league directory's journal
// and records files, as they are now: each game's first "id" field.
func gameIDs(dir string) []string {
	id := regexp.MustCompile(`"id":"([^"]+)"`)
	var out []string
	for _, f := range []string{"journal.jsonl", "records.jsonl"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		for _, line := range bytes.Split(b, []byte{'\n'}) {
			if m := id.FindSubmatch(line); m != nil {
				out = append(out, string(m[1]))
			}
		}
	}
	return out
}

// SIGTERM and SIGINT stop a running league within seconds, the games
// already stored kept: the league's store opens afterwards and holds
// every game recorded before the signal. The target is 2 s; the bound
// here is generous for a loaded machine. -short sends SIGTERM only: the
// two share their handling, and each run starts an arena and its agents.
func TestSignalStopsLeagueRun(t *testing.T) {
	if err := proctree.Available(); err != nil {
		t.Skip(err) // agent processes are found through /proc
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			if testing.Short() && sig != syscall.SIGTERM {
				t.Skip("-short sends SIGTERM only")
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "long.yaml")
			league := "game: bohnenspiel\nagents:\n  - name: greedy\n    agent: builtin:greedy\n  - name: random\n    agent: builtin:random\ngames_per_pairing: 10000\nconcurrency: 2\nseed: 1\n"
			if err := os.WriteFile(file, []byte(league), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			cmd, _ := startArena(t, "league run "+file+" --output "+out)
			deadline := time.Now().Add(2 * time.Minute)
			for len(gameIDs(out)) < 2 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			stored := gameIDs(out)
			if len(stored) < 2 {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("no game was stored: %s", cmd.Stderr.(*bytes.Buffer))
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			start := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				t.Logf("league run stopped %v after %v", time.Since(start).Round(time.Millisecond), sig)
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
					t.Errorf("after %v: %v, want exit status %d", sig, err, ExitInterrupted)
				}
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("league run still running 10 s after %v", sig)
			}
			e, stdout, _ := testEnv(t)
			if err := run(t, e, "league", "export", out, "--format", "json", "--table", "games"); err != nil {
				t.Fatalf("the store after %v: %v", sig, err)
			}
			var rows []struct{ ID string }
			if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
				t.Fatal(err)
			}
			have := map[string]bool{}
			for _, r := range rows {
				have[r.ID] = true
			}
			for _, id := range stored {
				if !have[id] {
					t.Errorf("game %s, recorded before %v, is not in the store after it (%d games there)", id, sig, len(rows))
				}
			}
		})
	}
}
