package host_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sandbox"
)

// requireCgroups skips where agents' trees cannot get cgroups of their
// own (no writable v1 or delegated v2 hierarchy), as on many CI
// containers; the /proc readings are tested there instead.
// cgroupVersion is the version of the cgroups agents are put in here.
func cgroupVersion(t *testing.T) int {
	t.Helper()
	root, err := sandbox.MachineCgroupRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root.Version
}

func requireCgroups(t *testing.T) {
	t.Helper()
	if a := launcher().Accounting(); !strings.HasPrefix(a, "cgroup") {
		t.Skipf("agents are not put in cgroups here: %s", a)
	}
}

// groupOf is the agent's cpuacct (v1) or unified (v2) group directory,
// read from /proc/PID/cgroup of its sandbox's init (or itself).
func groupOf(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) == 3 && strings.Contains(f[2], "/arena-") {
			if f[1] == "" {
				return "/sys/fs/cgroup" + f[2]
			}
			if strings.Contains(f[1], "cpuacct") {
				return "/sys/fs/cgroup/" + f[1] + f[2]
			}
		}
	}
	t.Fatalf("process %d is in no group of the arena's:\n%s", pid, b)
	return ""
}

// memoryLimit reads the memory limit of process pid's group: memory (v1)
// or unified (v2), read from /proc/PID/cgroup.
func memoryLimit(t *testing.T, pid int) int64 {
	t.Helper()
	return groupLimit(t, pid, "memory", "memory.limit_in_bytes", "memory.max")
}

// groupLimit reads a limit of process pid's group in controller ctl: its
// file v1 (cgroup v1) or v2 (unified), found from /proc/PID/cgroup.
func groupLimit(t *testing.T, pid int, ctl, v1, v2 string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	file := ""
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		switch {
		case len(f) != 3 || !strings.Contains(f[2], "/arena-"):
		case f[1] == "":
			file = filepath.Join("/sys/fs/cgroup", f[2], v2)
		case slices.Contains(strings.Split(f[1], ","), ctl):
			file = filepath.Join("/sys/fs/cgroup", f[1], f[2], v1)
		}
	}
	if file == "" {
		t.Fatalf("process %d is in no %s group of the arena's:\n%s", pid, ctl, b)
	}
	if b, err = os.ReadFile(file); err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return n
}

// Both ways of reading an agent measure the CPU its move burnt and kill
// it over its memory limit: its cgroup where the machine has them, /proc
// where it has not (NoCgroups stands for such a machine). The group is
// gone once the agent is. An unsandboxed agent in a group on cgroup v1
// has its memory read through /proc (the arena's starting thread was in
// its group), and is killed over its limit all the same. The ways run
// side by side: the verdicts are the agents' own CPU time and memory,
// which a busy CPU does not change. -short keeps the default way (a
// sandboxed agent in its cgroup): each way burns 400 ms of CPU and grows a
// hog to 100 MiB.
func TestAccountingCgroupAndProc(t *testing.T) {
	for _, way := range []struct {
		name               string
		noCgroups, unboxed bool
	}{{"cgroup", false, false}, {"proc", true, false}, {"cgroup-unsandboxed", false, true}} {
		noCgroups := way.noCgroups
		t.Run(way.name, func(t *testing.T) {
			if testing.Short() && way.name != "cgroup" {
				t.Skip("-short keeps the cgroup way")
			}
			t.Parallel()
			if !noCgroups {
				requireCgroups(t)
			}
			l := launcher()
			l.NoCgroups = noCgroups
			if way.unboxed {
				l.Isolation = host.IsolationOff
				l.Notify = func(string) {}
			}
			if a := l.Accounting(); strings.HasPrefix(a, "cgroup") == noCgroups {
				t.Fatalf("accounting %q with NoCgroups %v", a, noCgroups)
			}
			p, err := l.Launch(context.Background(), "burner", host.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dir := ""
			if !noCgroups {
				dir = groupOf(t, p.Pid())
				if got := groupLimit(t, p.Pid(), "pids", "pids.max", "pids.max"); got != host.DefaultMaxTasks {
					t.Errorf("the agent's group allows %d tasks, want %d", got, host.DefaultMaxTasks)
				}
			}
			before, _ := p.CPUTime()
			if _, err := p.Agent.Move(context.Background(), protocol.MoveRequest{}); err != nil {
				t.Fatal(err)
			}
			after, err := p.CPUTime()
			if err != nil || after-before < 380*time.Millisecond {
				t.Errorf("CPU over 400 ms of spinning: %v (%v)", after-before, err)
			}
			p.Kill()
			if dir != "" {
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("the agent's group %s remains after it: %v", dir, err)
				}
			}
			hog, err := l.Launch(context.Background(), "hog", host.Options{MemoryMB: 100})
			if err != nil {
				t.Fatal(err)
			}
			defer hog.Kill()
			switch {
			case noCgroups:
			case !way.unboxed || cgroupVersion(t) == 2:
				// The kernel holds the agent to its limit where no
				// thread of the arena's is ever in its group.
				if got := memoryLimit(t, hog.Pid()); got != 100<<20 {
					t.Errorf("the hog's group has memory limit %d, want %d", got, 100<<20)
				}
			default:
				if got := memoryLimit(t, hog.Pid()); got == 100<<20 {
					t.Error("an unsandboxed agent's v1 group holds its memory limit: the kernel could kill the arena's starting thread")
				}
			}
			go hog.Agent.Move(context.Background(), protocol.MoveRequest{})
			select {
			case <-hog.MemoryExceeded():
			case <-time.After(time.Minute):
				t.Fatal("memory limit never triggered")
			}
			if !hog.OverMemory() {
				t.Error("the verdict is not memory")
			}
		})
	}
}

// ARENA_CGROUPS=0 keeps agents out of cgroups, and says so; any other
// value leaves the choice to the machine.
func TestCgroupsEnvTurnsThemOff(t *testing.T) {
	t.Setenv(host.CgroupsEnv, "0")
	if a := launcher().Accounting(); !strings.Contains(a, "turned off by "+host.CgroupsEnv+"=0") {
		t.Errorf("with %s=0: %q", host.CgroupsEnv, a)
	}
	t.Setenv(host.CgroupsEnv, "1")
	if a := launcher().Accounting(); strings.Contains(a, "turned off") {
		t.Errorf("with %s=1: %q", host.CgroupsEnv, a)
	}
}

// A launcher's first look for cgroups removes the groups of an arena that
// is gone (killed in the middle of a league): nothing else would, and each
// holds a name and its accounting in the arena's parent group for good.
// The running arena's own groups stay.
func TestLauncherSweepsTheGroupsOfAGoneArena(t *testing.T) {
	requireCgroups(t)
	root, err := sandbox.MachineCgroupRoot()
	if err != nil {
		t.Fatal(err)
	}
	mine, err := root.New()
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Remove(time.Second)
	var dead []string
	for _, dir := range groupDirs(t, mine) {
		// Named as the sandbox names an arena's groups, for a pid above
		// the kernel's limit: that arena is surely gone.
		d := filepath.Join(filepath.Dir(dir), "arena-4194305-1")
		if err := os.Mkdir(d, 0o755); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		defer os.Remove(d)
		dead = append(dead, d)
	}
	if a := launcher().Accounting(); !strings.HasPrefix(a, "cgroup") {
		t.Fatalf("accounting: %s", a)
	}
	for _, d := range dead {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("the gone arena's group %s remains: %v", d, err)
		}
	}
	for _, d := range groupDirs(t, mine) {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("this arena's group %s was swept: %v", d, err)
		}
	}
}

// groupDirs are the folders of g: one per v1 controller, or its v2 folder.
func groupDirs(t *testing.T, g *sandbox.Group) []string {
	t.Helper()
	if g.Version() != 1 {
		dir, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(g.IntoCgroup()))
		if err != nil {
			t.Fatal(err)
		}
		return []string{dir}
	}
	files, err := g.ProcsFiles()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, f := range files {
		if dir := filepath.Dir(f.Name()); !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
		f.Close()
	}
	return dirs
}

// Without a sandbox, a setsid'ed child and a double-forked one escape the
// agent's process group; where the agent has a cgroup, its end takes them
// too.
func TestUnsandboxedGroupKillsEscapedChildren(t *testing.T) {
	requireCgroups(t)
	l := launcher()
	l.Isolation = host.IsolationOff
	l.Notify = func(string) {}
	l.Env = []string{"HOSTILE=children-at-start"}
	p, err := l.Launch(context.Background(), hostileAgent(t), host.Options{StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	var pids []int
	deadline := time.Now().Add(30 * time.Second)
	for len(pids) < 2 && time.Now().Before(deadline) {
		pids = spawnedPids(p.Stderr(), `\S+`)
		time.Sleep(20 * time.Millisecond)
	}
	if len(pids) < 2 {
		t.Fatalf("the agent did not report its children: %q", p.Stderr())
	}
	p.Kill()
	deadline = time.Now().Add(10 * time.Second)
	for len(running(pids)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := running(pids); len(left) > 0 {
		t.Fatalf("children %v outlived their agent", left)
	}
}

// The arena's cost of one CPU reading of a running sandboxed agent (the
// reading taken around every move): its cgroup's one kept file against
// the walk of its /proc. Run with a fixed count, e.g.
// go test -run '^$' -bench CPUReading -benchtime 2000x ./plugins/host
func BenchmarkCPUReading(b *testing.B) {
	for _, noCgroups := range []bool{false, true} {
		b.Run(map[bool]string{false: "cgroup", true: "proc"}[noCgroups], func(b *testing.B) {
			l := launcher()
			l.NoCgroups = noCgroups
			if !noCgroups && !strings.HasPrefix(l.Accounting(), "cgroup") {
				b.Skip(l.Accounting())
			}
			p, err := l.Launch(context.Background(), "echo", host.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Kill()
			// The arena's own CPU (getrusage), not the wall time a loaded
			// machine stretches.
			before := selfCPU()
			for b.Loop() {
				if _, err := p.CPUTime(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(selfCPU()-before)/float64(b.N), "cpu-ns/op")
		})
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
