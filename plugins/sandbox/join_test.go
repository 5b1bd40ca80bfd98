package sandbox_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/plugins/sandbox"
)

// On cgroup v1 a sandbox's init joins the agent's groups by itself,
// through descriptors the arena opened (Config.Join): the agent is in
// every group from its first instruction, holds none of those
// descriptors, and no thread of the arena's is ever in the group.
func TestInitJoinsTheAgentsGroups(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	r, err := sandbox.MachineCgroupRoot()
	if err != nil {
		t.Skipf("no writable cgroups here: %v", err)
	}
	if r.Version != 1 {
		t.Skip("on cgroup v2 the init starts in the group (IntoCgroup)")
	}
	g, err := r.New()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Remove(10 * time.Second)
	join, err := g.ProcsFiles()
	if err != nil {
		t.Fatal(err)
	}
	// As the arena's launcher does: what this test's own parent left
	// open is none of the agent's.
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
	lease, dir := leasedDir(t, 301)
	cmd, files, err := sandbox.Command(sandbox.Config{
		Init: os.Args[0], Argv: []string{"/bin/sh", "-c", "cat /proc/self/cgroup; echo fds; ls /proc/self/fd"},
		Dir: dir, IDs: lease.IDs, Env: []string{"PATH=/usr/bin:/bin"}, Join: join,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Close()
	}
	if pids, _ := g.Pids(); slices.Contains(pids, os.Getpid()) {
		t.Errorf("the arena (%d) is in the agent's group: %v", os.Getpid(), pids)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	groups, fds, _ := strings.Cut(out.String(), "fds\n")
	mine := "/arena-" + strconv.Itoa(os.Getpid()) + "-"
	for _, c := range []string{"cpuacct", "memory", "pids"} {
		in := false
		for _, line := range strings.Split(groups, "\n") {
			f := strings.SplitN(line, ":", 3)
			in = in || len(f) == 3 && slices.Contains(strings.Split(f[1], ","), c) && strings.Contains(f[2], mine)
		}
		if !in {
			t.Errorf("the agent is in no %s group of this arena's:\n%s", c, groups)
		}
	}
	// 0-2, and 3 for the directory ls reads: a join descriptor would be more.
	for _, fd := range strings.Fields(fds) {
		if n, err := strconv.Atoi(fd); err != nil || n > 3 {
			t.Errorf("the agent holds descriptor %s: %q", fd, fds)
		}
	}
}
