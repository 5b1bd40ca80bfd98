package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/plugins/host"
	"arena/plugins/sandbox"
)

// Every sandboxed agent runs in its sandbox's init, which became the
// agent: an agent the host program serves itself in the init's own
// program (one program start, not two), an SDK binary by exec. The
// sandbox holds that one process, and it holds what an agent started by
// the init would: an unprivileged id, no capability, no_new_privs, the
// seccomp filter, and no descriptor of the init's binary. So it is with
// the machine's cgroups (v1 here: the init joins the groups at the end of
// its setup, v2: it starts in them) and without cgroups.
func TestSandboxsInitBecomesTheAgent(t *testing.T) {
	if !launcher().Sandboxed() {
		t.Skip("no sandbox here")
	}
	agents := map[string]string{"host-served": "echo"}
	if !testing.Short() {
		agents["SDK binary"] = hostileAgent(t)
	}
	for kind, ref := range agents {
		for _, noCgroups := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, no cgroups %v", kind, noCgroups), func(t *testing.T) {
				l := launcher()
				l.NoCgroups = noCgroups
				p, err := l.Launch(context.Background(), ref, host.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Kill()
				if pids := p.Pids(); len(pids) != 1 || pids[0] != p.Pid() {
					t.Fatalf("the sandbox runs %v, want only its init %d, which is the agent", pids, p.Pid())
				}
				checkBecameAgent(t, p, ref)
			})
		}
	}
}

// checkBecameAgent checks every thread of an init that became the agent
// ref, its program and its descriptors.
func checkBecameAgent(t *testing.T, p *host.Process, ref string) {
	t.Helper()
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(p.Pid()) + "/task")
	if err != nil || len(tasks) == 0 {
		t.Fatalf("the agent's threads: %v %v", tasks, err)
	}
	// Every thread: credentials are a thread's own in Linux.
	for _, task := range tasks {
		checkUnprivileged(t, "/proc/"+strconv.Itoa(p.Pid())+"/task/"+task.Name()+"/status")
	}
	self, err := filepath.EvalSymlinks(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	want := self
	if filepath.IsAbs(ref) {
		want = ref // a program of its own, which the init execs
	}
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(p.Pid()) + "/exe"); err != nil || exe != want {
		t.Errorf("the agent runs %q (%v), want %s", exe, err, want)
	}
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(p.Pid()) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if target, _ := os.Readlink("/proc/" + strconv.Itoa(p.Pid()) + "/fd/" + fd.Name()); target == self {
			t.Errorf("the agent holds descriptor %s of the init's binary %s", fd.Name(), self)
		}
	}
}

// checkUnprivileged checks one thread's status file (/proc/…/status).
func checkUnprivileged(t *testing.T, file string) {
	t.Helper()
	status, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	field := func(name string) []string {
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, name+":"); ok {
				return strings.Fields(v)
			}
		}
		t.Fatalf("no %s in %s:\n%s", name, file, status)
		return nil
	}
	uid := field("Uid")
	if len(uid) != 4 || uid[0] == "0" || strings.Count(strings.Join(uid, " "), uid[0]) != 4 {
		t.Errorf("%s: ids (real, effective, saved, fs) %v: want one unprivileged id", file, uid)
	}
	if gid := field("Gid"); len(gid) != 4 || gid[0] == "0" || strings.Count(strings.Join(gid, " "), gid[0]) != 4 {
		t.Errorf("%s: group ids %v: want one unprivileged id", file, gid)
	}
	for _, c := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb"} {
		if v := field(c); len(v) != 1 || strings.Trim(v[0], "0") != "" {
			t.Errorf("%s: %s %v: want none", file, c, v)
		}
	}
	if v := field("NoNewPrivs"); len(v) != 1 || v[0] != "1" {
		t.Errorf("%s: NoNewPrivs %v, want 1", file, v)
	}
	if v := field("Seccomp"); len(v) != 1 || v[0] != "2" {
		t.Errorf("%s: Seccomp %v, want 2 (a filter)", file, v)
	}
}

// An init that becomes the agent is in the agent's groups before it does,
// whichever the cgroup version: in every hierarchy that holds the agent's
// limits and counts (v1: cpuacct, memory, pids; v2: the one), the agent's
// process is in a group of its own, not in the arena's.
func TestHostServedAgentIsInItsGroups(t *testing.T) {
	l, p := launchAgentInit(t, "cgroup")
	own := cgroupsOf(t, os.Getpid())
	agent := cgroupsOf(t, p.Pid())
	controllers := []string{"cpuacct", "memory", "pids"}
	if strings.HasPrefix(l.Accounting(), "cgroup v2") {
		controllers = []string{""}
	}
	for _, ctl := range controllers {
		at, ok := agent[ctl]
		if !ok || at == own[ctl] || !strings.HasPrefix(filepath.Base(at), "arena-") {
			t.Errorf("the agent %d is in %s group %q (the arena's: %q), want one of its own (arena-PID-N)", p.Pid(), ctl, at, own[ctl])
		}
	}
}

// launchAgentInit launches a host-served agent where the launcher is
// sandboxed and its accounting starts with accounting ("cgroup", "cgroup
// v1"), and checks that the sandbox's init became the agent; the agent is
// killed when the test ends.
func launchAgentInit(t *testing.T, accounting string) (*host.Launcher, *host.Process) {
	t.Helper()
	l := launcher()
	if !l.Sandboxed() || !strings.HasPrefix(l.Accounting(), accounting) {
		t.Skipf("needs a sandbox and %s accounting: %s", accounting, l.Accounting())
	}
	p := launch(t, "echo", host.Options{MemoryMB: 256})
	t.Cleanup(p.Kill)
	if pids := p.Pids(); len(pids) != 1 || pids[0] != p.Pid() {
		t.Fatalf("the sandbox runs %v: the init %d did not become the agent", pids, p.Pid())
	}
	return l, p
}

// cgroupsOf maps each controller of pid's cgroups (v1: one per controller
// of a hierarchy; v2: "") to its group's path.
func cgroupsOf(t *testing.T, pid int) map[string]string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			out[ctl] = parts[2]
		}
	}
	return out
}

// On cgroup v1 an init that becomes the agent joins its groups at the end
// of its setup: its CPU and anonymous memory before that are not in the
// groups' counts, yet they are the agent process's own. The agent's
// readings add them: its CPU time is its group's and more, and never more
// than the process's own threads have run; its peak is its group's and
// more, at least the anonymous memory the process held before joining.
func TestPreJoinUsageIsTheAgents(t *testing.T) {
	_, p := launchAgentInit(t, "cgroup v1")
	groups := cgroupsOf(t, p.Pid())
	dir := map[string]string{}
	for _, h := range sandbox.MachineCgroups() {
		for _, c := range h.Controllers {
			if _, ok := groups[c]; ok && h.Version == 1 {
				dir[c] = filepath.Join(h.Path, groups[c])
			}
		}
	}
	number := func(ctl, file string) int64 {
		b, err := os.ReadFile(filepath.Join(dir[ctl], file))
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	groupCPU := time.Duration(number("cpuacct", "cpuacct.usage"))
	cpu, err := p.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	own := threadsRan(t, p.Pid())
	// A Go program's start and the sandbox's setup take well over 100 µs.
	if cpu < groupCPU+100*time.Microsecond || cpu > own {
		t.Errorf("CPU time %v: want more than the group's %v (the setup before joining) and at most the %v the process's threads ran", cpu, groupCPU, own)
	}
	groupPeak := number("memory", "memory.max_usage_in_bytes")
	// The Go runtime's own start alone holds over 512 KiB of anonymous
	// pages (measured: 1.7 MB for this host before it joins).
	peak := p.PeakRSS()
	if peak < groupPeak+512<<10 {
		t.Errorf("peak %d bytes: want the group's %d and the anonymous memory of the init's start besides", peak, groupPeak)
	}
	// From above: the init's share is its anonymous memory less what the
	// group holds, so the whole is about the agent's anonymous memory now
	// (it is idle), not that and the group's peak again. Half the group's
	// peak is room for what the agent's runtime returned since.
	if anon := statusKB(t, p.Pid(), "RssAnon:") << 10; peak > anon+groupPeak/2 {
		t.Errorf("peak %d bytes: want about the agent's %d bytes of anonymous memory, not that and the group's %d again", peak, anon, groupPeak)
	}
}

// threadsRan sums the CPU time every live thread of pid has run
// (schedstat's first field, in nanoseconds).
func threadsRan(t *testing.T, pid int) time.Duration {
	t.Helper()
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		t.Fatal(err)
	}
	var sum time.Duration
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/schedstat")
		if err != nil {
			continue // the thread ended
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += time.Duration(n)
		}
	}
	return sum
}

// statusKB reads a field of /proc/PID/status given in kB.
func statusKB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
