package host

import (
	"fmt"
	"testing"

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
		l := &Launcher{}
		l.once.Do(func() {}) // decided: prepare does nothing more
		if version > 0 {
			l.cg = &sandbox.CgroupRoot{Version: version}
		}
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
