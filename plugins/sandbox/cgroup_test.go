package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOwnGroups(t *testing.T) {
	got := ownGroups([]byte("9:name=systemd:/\n4:memory:/process_api/x\n2:cpu,cpuacct:/a\n0::/b\n"))
	want := map[string]string{"name=systemd": "/", "memory": "/process_api/x", "cpu": "/a", "cpuacct": "/a", "": "/b"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

// Read while the main thread is in an agent's group (v1, JoinThread),
// /proc/self/cgroup names that group; the arena's own is above it.
func TestOwnGroupsLeaveAgentGroupsOut(t *testing.T) {
	got := ownGroups([]byte("4:pids:/arena-12-3\n3:memory:/jobs/arena-12-3\n2:cpuacct:/jobs/arena-x\n0::/arena-9-1/arena-9-2\n"))
	want := map[string]string{"pids": "/", "memory": "/jobs", "cpuacct": "/jobs/arena-x", "": "/"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

func TestParseCPU(t *testing.T) {
	if d, err := parseCPU(1, []byte("1500000123\n")); err != nil || d != 1500000123 {
		t.Errorf("v1: %v %v", d, err)
	}
	if d, err := parseCPU(2, []byte("usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n")); err != nil || d != 2500*time.Microsecond {
		t.Errorf("v2: %v %v", d, err)
	}
	if _, err := parseCPU(2, []byte("user_usec 1\n")); err == nil {
		t.Error("v2 without usage_usec was read")
	}
	if _, err := parseCPU(1, []byte("x")); err == nil {
		t.Error("a v1 count that is not one was read")
	}
}

func TestArenaPid(t *testing.T) {
	for name, want := range map[string]int{"arena-12-3": 12, "arena-x-3": 0, "other-12-3": 0, "arena-12": 0} {
		if pid, ok := arenaPid(name); pid != want || ok != (want > 0) {
			t.Errorf("%s: %d %v", name, pid, ok)
		}
	}
}

// fakeGroup lays out a group's files as the kernel shows them.
func fakeGroup(t *testing.T, version int, files map[string]string) *Group {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &Group{version: version, dirs: map[string]string{}}
	for _, c := range []string{"cpu", "cpuacct", "memory", "pids"} {
		g.dirs[c] = dir
	}
	f, err := os.Open(filepath.Join(dir, map[int]string{1: "cpuacct.usage", 2: "cpu.stat"}[version]))
	if err != nil {
		t.Fatal(err)
	}
	g.cpu = f
	t.Cleanup(func() { f.Close() })
	return g
}

// The readings and limits use each version's own files.
func TestGroupFiles(t *testing.T) {
	v1 := fakeGroup(t, 1, map[string]string{
		"cpuacct.usage": "42000000\n", "memory.max_usage_in_bytes": "1048576\n",
		"memory.oom_control":    "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n",
		"memory.limit_in_bytes": "", "pids.max": "", "cgroup.procs": "7\n9\n",
	})
	v2 := fakeGroup(t, 2, map[string]string{
		"cpu.stat": "usage_usec 42000\n", "memory.peak": "1048576\n",
		"memory.events": "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n",
		"memory.max":    "", "pids.max": "", "cgroup.procs": "7\n9\n",
	})
	for _, g := range []*Group{v1, v2} {
		if cpu, err := g.CPU(); err != nil || cpu != 42*time.Millisecond {
			t.Errorf("v%d CPU: %v %v", g.version, cpu, err)
		}
		if peak, kills, err := g.Memory(); err != nil || peak != 1<<20 || kills != 2 {
			t.Errorf("v%d memory: %d %d %v", g.version, peak, kills, err)
		}
		if err := g.SetLimits(64<<20, 100); err != nil {
			t.Fatal(err)
		}
		limit := map[int]string{1: "memory.limit_in_bytes", 2: "memory.max"}[g.version]
		if b, _ := os.ReadFile(filepath.Join(g.dirs["memory"], limit)); string(b) != "67108864" {
			t.Errorf("v%d %s: %q", g.version, limit, b)
		}
		if b, _ := os.ReadFile(filepath.Join(g.dirs["pids"], "pids.max")); string(b) != "100" {
			t.Errorf("v%d pids.max: %q", g.version, b)
		}
		if pids, err := g.Pids(); err != nil || len(pids) != 2 || pids[1] != 9 {
			t.Errorf("v%d pids: %v %v", g.version, pids, err)
		}
	}
}

// The memory files are kept open once read, and each read is of what the
// kernel shows then, not of what the first read found; a removed group
// reads as removed.
func TestGroupMemoryFilesReadAfresh(t *testing.T) {
	for _, version := range []int{1, 2} {
		peakFile := map[int]string{1: "memory.max_usage_in_bytes", 2: "memory.peak"}[version]
		eventsFile := map[int]string{1: "memory.oom_control", 2: "memory.events"}[version]
		g := fakeGroup(t, version, map[string]string{
			map[int]string{1: "cpuacct.usage", 2: "cpu.stat"}[version]: "", peakFile: "1048576\n", eventsFile: "oom_kill 0\n",
		})
		for i, want := range []int64{1 << 20, 3 << 20, 2 << 20} {
			if i > 0 {
				// Rewritten in place (os.WriteFile truncates the same
				// file), as the kernel's change under an open descriptor.
				if err := os.WriteFile(filepath.Join(g.dirs["memory"], peakFile), fmt.Appendf(nil, "%d\n", want), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(g.dirs["memory"], eventsFile), fmt.Appendf(nil, "under_oom 0\noom_kill %d\n", i), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			peak, kills, err := g.Memory()
			if err != nil || peak != want || kills != int64(i) {
				t.Errorf("v%d reading %d: peak %d kills %d (%v), want %d and %d", version, i, peak, kills, err, want, i)
			}
			if p, err := g.Peak(); err != nil || p != want {
				t.Errorf("v%d reading %d: Peak %d (%v), want %d", version, i, p, err, want)
			}
		}
		if len(g.kept) != 2 {
			t.Errorf("v%d: %d files kept, want the peak and the events", version, len(g.kept))
		}
		_ = g.Remove(0) // the fake's directory holds files: not removed
		if _, _, err := g.Memory(); err == nil || !strings.Contains(err.Error(), "removed") {
			t.Errorf("v%d after Remove: %v, want the group removed", version, err)
		}
		if g.kept != nil {
			t.Errorf("v%d: files still kept after Remove", version)
		}
	}
}

// Without the controllers the error says what is missing, for both
// versions.
func TestFindCgroupsSaysWhy(t *testing.T) {
	v2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(v2, "cgroup.subtree_control"), nil, 0o444); err != nil {
		t.Fatal(err)
	}
	hs := []Hierarchy{{Version: 2, Path: v2}, {Version: 1, Path: t.TempDir(), Controllers: []string{"cpuset"}}}
	_, err := FindCgroups(hs, []byte("0::/\n3:cpuset:/\n"))
	if err == nil || !strings.Contains(err.Error(), "no cpuacct hierarchy") || !strings.Contains(err.Error(), "cgroup v2") {
		t.Fatalf("err = %v", err)
	}
}

// machineRoot is this machine's cgroups, or a skip where they cannot be
// written (a container without delegation, a user other than root).
func machineRoot(t *testing.T) *CgroupRoot {
	t.Helper()
	r, err := MachineCgroupRoot()
	if err != nil {
		t.Skipf("no writable cgroups here: %v", err)
	}
	return r
}

// startIn starts cmd inside g, as the arena starts an agent.
func startIn(t *testing.T, g *Group, cmd *exec.Cmd) {
	t.Helper()
	if fd := g.IntoCgroup(); fd >= 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	leave, err := g.JoinThread()
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Start()
	if lerr := leave(); lerr != nil {
		t.Fatal(lerr)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// On a machine with writable cgroups, a process started in a group is
// counted whole (a child's CPU included), killed by the kernel over the
// memory limit (an OOM kill counted), held to its task limit, and the
// group is gone after Remove.
func TestMachineGroup(t *testing.T) {
	r := machineRoot(t)
	g, err := r.New()
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{}
	for _, d := range g.dirs {
		dirs = append(dirs, d)
	}
	if err := g.SetLimits(32<<20, 20); err != nil {
		t.Fatal(err)
	}
	// Read once before anything runs: the files read are kept open, and
	// the reading after the kill must come from them afresh.
	peak0, kills0, err := g.Memory()
	if err != nil || kills0 != 0 {
		t.Fatalf("memory of the empty group: peak %d, OOM kills %d, %v", peak0, kills0, err)
	}
	// A child burns CPU and ends; then the shell allocates past the limit
	// (a string doubled until the kernel kills it).
	cmd := exec.Command("/bin/sh", "-c", `sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'; x=xxxxxxxxxxxxxxxx; while :; do x=$x$x; done`)
	startIn(t, g, cmd)
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the shell over its memory limit ended with %v, not killed", err)
	}
	cpu, err := g.CPU()
	if err != nil || cpu <= 0 {
		t.Errorf("CPU of the group: %v %v", cpu, err)
	}
	peak, kills, err := g.Memory()
	if err != nil || kills < 1 || peak <= peak0 || len(g.kept) != 2 {
		t.Errorf("memory: peak %d (%d before), OOM kills %d, %v; %d files kept", peak, peak0, kills, err, len(g.kept))
	}
	// Twenty tasks at most: the twenty-first fork fails.
	outFile := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(outFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("/bin/sh", "-c", `n=0; while [ $n -lt 40 ]; do sleep 60 & n=$((n+1)); done; echo started`)
	cmd.Stdout, cmd.Stderr = f, f
	startIn(t, g, cmd)
	_ = cmd.Wait()
	f.Close()
	b, _ := os.ReadFile(outFile)
	out := string(b)
	if !strings.Contains(out, "fork") && !strings.Contains(out, "Resource temporarily unavailable") {
		t.Errorf("forty sleeps under a limit of twenty: %q", out)
	}
	g.Kill()
	if err := g.Remove(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s remains: %v", d, err)
		}
	}
}

// Groups of an arena that is gone are removed by the next; the running
// arena's own are kept.
func TestSweepGroups(t *testing.T) {
	r := machineRoot(t)
	mine, err := r.New()
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Remove(time.Second)
	// A pid that is surely not running: above the kernel's pid limit.
	var dead []string
	for _, parent := range r.parent {
		d := filepath.Join(parent, groupPrefix+"4194305-1")
		if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		// An arena that misread its own group made groups inside it.
		if err := os.Mkdir(filepath.Join(d, groupPrefix+"4194305-2"), 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		dead = append(dead, d)
	}
	start := time.Now()
	r.Sweep()
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the sweep took %v: it waited on groups it cannot remove", took)
	}
	for _, d := range dead {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("the dead arena's %s remains", d)
		}
	}
	for _, d := range mine.dirs {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("this arena's group %s was swept: %v", d, err)
		}
	}
}

// On v1 the arena's starting thread is in an agent's group until the
// agent's handshake, so the group's process list names the arena: a kill
// of the group then must not signal it (this test's process would die).
func TestGroupKillSparesTheArena(t *testing.T) {
	r := machineRoot(t)
	g, err := r.New()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove(time.Second)
	runtime.LockOSThread()
	leave, err := g.JoinThread()
	if err != nil {
		runtime.UnlockOSThread()
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "60")
	startErr := cmd.Start()
	if r.Version == 1 {
		pids, _ := g.Pids()
		if !slices.Contains(pids, os.Getpid()) {
			t.Errorf("with the thread in the group its process list %v does not name the arena (%d)", pids, os.Getpid())
		}
	}
	g.Kill() // the test's process survives it
	if err := leave(); err == nil {
		runtime.UnlockOSThread()
	}
	if startErr != nil {
		t.Fatal(startErr)
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("the group's other process was not killed: %v", err)
	}
}

// Every group is an agent's own: two roots of one process (two
// launchers) number their groups alike, and a group a killed arena with
// this pid left behind holds a name too; New passes over taken names and
// never hands out a group that exists already.
func TestNewNeverSharesAGroup(t *testing.T) {
	a, b := machineRoot(t), machineRoot(t)
	// A leftover with the name b would give its next group, in the last
	// controller only: New must remove what it made in the others.
	next := groupName(b.seq.Load() + 1)
	last := b.parent[b.names[len(b.names)-1]]
	stale := filepath.Join(last, next)
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(stale)
	seen := map[string]bool{stale: true}
	for range 3 {
		for _, r := range []*CgroupRoot{a, b} {
			g, err := r.New()
			if err != nil {
				t.Fatal(err)
			}
			defer g.Remove(time.Second)
			for _, d := range g.dirs {
				if seen[d] {
					t.Fatalf("group %s handed out twice", d)
				}
				seen[d] = true
			}
		}
	}
	if len(b.names) > 1 {
		for _, c := range b.names[:len(b.names)-1] {
			if d := filepath.Join(b.parent[c], next); d != stale {
				if _, err := os.Stat(d); !os.IsNotExist(err) {
					t.Errorf("%s, made while its name was taken elsewhere, remains: %v", d, err)
				}
			}
		}
	}
}

// BenchmarkGroupMemory times the memory reading the arena takes every
// 20 ms per sandboxed agent, through the kept files, against opening each
// file for its read (how it was read before; docs/security.md has both).
func BenchmarkGroupMemory(b *testing.B) {
	r, err := MachineCgroupRoot()
	if err != nil {
		b.Skipf("no writable cgroups here: %v", err)
	}
	g, err := r.New()
	if err != nil {
		b.Fatal(err)
	}
	defer g.Remove(time.Second)
	peak, events := g.peakFile(), g.eventsFile()
	b.Run("kept", func(b *testing.B) {
		for range b.N {
			if _, _, err := g.Memory(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("opened", func(b *testing.B) {
		for range b.N {
			for _, f := range []string{peak, events} {
				if _, err := os.ReadFile(filepath.Join(g.dirs["memory"], f)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
