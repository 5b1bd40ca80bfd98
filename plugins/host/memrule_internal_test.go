package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/plugins/sandbox"
)

// Where an agent's memory limit lives, for every cgroup version, with and
// without a sandbox, by agent kind: its group holds the limit only where
// no arena thread is ever in the group (v2, or v1 with the sandbox's init
// joining it); a course agent's group holds only the backstop above its
// course's rule; without cgroups, or without a limit, no group holds one.
// A launcher is decided by hand here, so the answer for each machine is
// checked on any machine.
func TestMemoryLimitPlacement(t *testing.T) {
	decided := func(version int, sandboxed bool) *Launcher {
		var cg *sandbox.CgroupRoot
		if version > 0 {
			cg = &sandbox.CgroupRoot{Version: version}
		}
		l := decidedLauncher(&Launcher{}, cg)
		if !sandboxed {
			l.support.Unsupported = "isolation is off"
		}
		return l
	}
	native := Command{Kind: "builtin"}
	course := Command{Kind: "course"}
	opt := Options{MemoryMB: 100}
	cases := []struct {
		version   int // 0: no cgroups
		sandboxed bool
		// Whether a native agent's group holds its limit, and the limits
		// of a native and a course agent's groups.
		kernel         bool
		native, course int
	}{
		{2, true, true, 100, 200},
		{2, false, true, 100, 200},
		{1, true, true, 100, 200},
		{1, false, false, 0, 0},
		{0, true, false, 0, 0},
		{0, false, false, 0, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("v%d/sandboxed=%v", c.version, c.sandboxed), func(t *testing.T) {
			l := decided(c.version, c.sandboxed)
			if got := l.kernelMemory(native); got != c.kernel {
				t.Errorf("native agent's limit in its group: %v, want %v", got, c.kernel)
			}
			if l.kernelMemory(course) {
				t.Error("a course agent's limit in its group: its course's rule is read from /proc")
			}
			if got := l.groupMemoryMB(native, opt, l.kernelMemory(native)); got != c.native {
				t.Errorf("native agent's group limit %d MiB, want %d", got, c.native)
			}
			if got := l.groupMemoryMB(course, opt, l.kernelMemory(course)); got != c.course {
				t.Errorf("course agent's group limit %d MiB, want %d", got, c.course)
			}
			if got := l.groupMemoryMB(course, Options{}, false); got != 0 {
				t.Errorf("course agent without a limit: group limit %d MiB, want none", got)
			}
		})
	}
}

// An agent whose cgroup cannot be made is read through /proc, and the
// launcher says so, once: without its group the agent has no task limit.
func TestGroupThatCannotBeMadeIsTold(t *testing.T) {
	root, err := sandbox.MachineCgroupRoot()
	if err != nil {
		t.Skipf("no writable cgroups here: %v", err)
	}
	var notes []string
	// A task limit no kernel takes (pids.max stops at 4,194,304): the
	// group is made, its limits refused, and it is removed again.
	l := decidedLauncher(&Launcher{MaxTasks: 1 << 40, Notify: func(msg string) { notes = append(notes, msg) }}, root)
	for range 2 {
		if g := l.newGroup(100); g != nil {
			g.Remove(time.Second)
			t.Fatal("a group made with a task limit the kernel refuses")
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "could not be made") || !strings.Contains(notes[0], "pids") {
		t.Fatalf("notices %q, want one naming the failure", notes)
	}
}

// decidedLauncher is l with its machine decided by hand: agents' groups
// under cg (nil: none), sandboxed; prepare does nothing more.
func decidedLauncher(l *Launcher, cg *sandbox.CgroupRoot) *Launcher {
	l.once.Do(func() {})
	l.cg = cg
	return l
}
