package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/plugins/host"
)

// An agent the host program serves itself runs in its sandbox's init,
// which became the agent (one program start, not two): the sandbox holds
// that one process, and it holds what an agent started by the init would:
// an unprivileged id, no capability, no_new_privs, the seccomp filter,
// and no descriptor of the init's binary. That is so without cgroups and
// with v2's (the init starts in its group); with v1's, joined late, the
// init starts the agent (TestHostServedAgentUnderV1GroupsIsAChild).
func TestHostServedAgentIsItsSandboxsInit(t *testing.T) {
	l := launcher()
	if !l.Sandboxed() {
		t.Skip("no sandbox here")
	}
	if strings.HasPrefix(l.Accounting(), "cgroup v1") {
		l = launcher() // Accounting has set l up: NoCgroups counts before that
		l.NoCgroups = true
	}
	p, err := l.Launch(context.Background(), "echo", host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if pids := p.Pids(); len(pids) != 1 || pids[0] != p.Pid() || !p.InitIsAgent() {
		t.Fatalf("the sandbox runs %v (init is agent: %v), want only its init %d, which is the agent", pids, p.InitIsAgent(), p.Pid())
	}
	if !l.InitBecomesAgent() {
		t.Error("the launcher says its sandboxes' inits do not become the agent")
	}
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

// Under cgroup v1 the init joins the agent's groups only after its own
// start, so a host-served agent is the init's child, started in the groups
// from its first instruction, as any other agent.
func TestHostServedAgentUnderV1GroupsIsAChild(t *testing.T) {
	l := launcher()
	if !l.Sandboxed() || !strings.HasPrefix(l.Accounting(), "cgroup v1") {
		t.Skipf("needs a sandbox and cgroup v1 accounting: %s", l.Accounting())
	}
	p := launch(t, "echo", host.Options{})
	defer p.Kill()
	if pids := p.Pids(); len(pids) != 2 || p.InitIsAgent() {
		t.Fatalf("the sandbox runs %v (init is agent: %v), want the init %d and the agent", pids, p.InitIsAgent(), p.Pid())
	}
	if l.InitBecomesAgent() {
		t.Error("the launcher says its sandboxes' inits become the agent")
	}
}
