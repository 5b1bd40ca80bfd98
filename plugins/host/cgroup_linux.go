package host

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"arena/plugins/sandbox"
)

// DefaultMaxTasks bounds the processes and threads of one agent's tree
// where cgroups are used (Launcher.MaxTasks): generous for a JVM's
// threads, fatal to a fork bomb.
const DefaultMaxTasks = 1024

// DefaultPrivateDirMB bounds what a sandboxed agent writes into its
// private directory (Launcher.PrivateDirMB): a tmpfs charged to the
// agent's own memory group, never the machine's disk. No course agent
// writes more than a few files there; a log of every move fits.
const DefaultPrivateDirMB = 64

// CgroupsEnv set to 0 keeps agents' trees out of cgroups of their own,
// reading them through /proc as on a machine without cgroups.
const CgroupsEnv = "ARENA_CGROUPS"

// findCgroups chooses, once, whether agents' trees get cgroups: wherever
// the machine allows (Launcher.Accounting says which), unless turned off.
func (l *Launcher) findCgroups() {
	if l.NoCgroups {
		l.cgErr = errors.New("turned off")
		return
	}
	if os.Getenv(CgroupsEnv) == "0" {
		l.cgErr = errors.New("turned off by " + CgroupsEnv + "=0")
		return
	}
	l.cg, l.cgErr = sandbox.MachineCgroupRoot()
	if l.cg != nil {
		l.cg.Sweep()
	}
}

// Accounting says how agents' CPU time and memory are measured and
// bounded here: in a cgroup per agent, or by readings of /proc and why.
func (l *Launcher) Accounting() string {
	l.prepare()
	switch {
	case l.cg != nil && l.cg.Version == 1 && l.Sandboxed():
		return l.cg.Describe() + ": each agent's tree in its own group (CPU time, memory limit, tasks)"
	case l.cg != nil && l.cg.Version == 1:
		return l.cg.Describe() + ": each agent's tree in its own group (CPU time, tasks; memory read from /proc, agents being unsandboxed)"
	case l.cg != nil:
		return l.cg.Describe() + ": each agent's tree in its own group (CPU time, memory limit, tasks)"
	}
	return "/proc readings (no cgroups: " + l.cgErr.Error() + ")"
}

// kernelMemory reports whether an agent of kind c has its memory limit
// and verdict from its cgroup. A course agent keeps the course's rules,
// read from /proc as before (a course JVM under a cgroup memory limit
// far above its heap failed to end on its own OutOfMemoryError, which
// the course's rule for it depends on). On cgroup v1 an unsandboxed agent
// does not either: the arena's starting thread is in its group until the
// handshake (startThread), and a memory limit there let the kernel's
// out-of-memory killer pick the arena itself, the largest process with a
// task in the group. A sandbox's init joins its groups by itself
// (sandbox.Config.Join), so no arena thread is ever in them.
func (l *Launcher) kernelMemory(c Command) bool {
	return c.Kind != "course" && l.groupsMayLimitMemory()
}

// groupsMayLimitMemory says whether an agent's group may hold a memory
// limit: there are groups, and no arena thread is ever in them (v2, or a
// sandbox's init joining them itself).
func (l *Launcher) groupsMayLimitMemory() bool {
	l.prepare()
	return l.cg != nil && (l.cg.Version == 2 || l.Sandboxed())
}

// backstopFactor is how far above a course agent's tree ceiling its
// group's memory limit sits (groupMemoryMB).
const backstopFactor = 2

// groupMemoryMB is the memory limit of an agent's group, in MiB (0: none).
// An agent whose group holds its memory rule (kernel) gets its limit. A
// course agent keeps its course's rule, read from /proc, and its group a
// backstop twice its tree ceiling: memory no resident size shows (a
// memfd written and never mapped, kernel buffers) is charged to the
// group, and without a limit there a course agent could hold the
// machine's memory unseen. The backstop is far above anything the
// course's rule lets the agent use, so the course's verdicts (a JVM's
// OutOfMemoryError, Python's space check) come first; only memory the
// rule cannot see meets it, and the kernel then kills the agent. Where
// the arena's own threads may be in the group (cgroup v1, unsandboxed)
// there is none, as for kernelMemory.
func (l *Launcher) groupMemoryMB(c Command, opt Options, kernel bool) int {
	switch {
	case kernel:
		return opt.MemoryMB
	case c.Kind == "course" && opt.MemoryMB > 0 && l.groupsMayLimitMemory():
		return backstopFactor * opt.MemoryMB
	}
	return 0 // no limit in the group: memory is read from /proc
}

// newGroup makes the cgroup of one agent with its limits, or returns nil
// where cgroups are not used or the group cannot be made: the agent is
// then read through /proc, as on a machine without cgroups, and the first
// such failure is told (Notify): the agent then has no task limit.
func (l *Launcher) newGroup(memoryMB int) *sandbox.Group {
	l.prepare()
	if l.cg == nil {
		return nil
	}
	g, err := l.cg.New()
	if err == nil {
		tasks := l.MaxTasks
		if tasks == 0 {
			tasks = DefaultMaxTasks
		}
		if err = g.SetLimits(int64(memoryMB)<<20, tasks); err != nil {
			_ = g.Remove(time.Second)
		}
	}
	if err != nil {
		l.cgWarn.Do(func() {
			l.notify("arena: an agent's cgroup could not be made, so agents without one are read through /proc, without its task limit: " + err.Error())
		})
		return nil
	}
	return g
}

// intoGroup makes the command start inside g on cgroup v2 (clone3 with
// CLONE_INTO_CGROUP); on v1 a sandbox's init joins g by itself
// (sandbox.Config.Join) and an unsandboxed agent's starting thread joins
// it (startThread).
func intoGroup(cmd *exec.Cmd, g *sandbox.Group) {
	if g == nil {
		return
	}
	if fd := g.IntoCgroup(); fd >= 0 {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	}
}

// startThread runs start on a locked OS thread that is pinned to cpus
// and, for an unsandboxed agent, in the agent's group g (cgroup v1), so
// the process it forks begins in both. The thread leaves the group and
// gets its mask back afterwards; where it cannot, it stays locked and the
// runtime ends it with the goroutine, which is safer than handing the
// runtime a thread that would put later processes in the agent's group or
// on its CPUs.
func startThread(g *sandbox.Group, sandboxed bool, cpus []int, start func() error) error {
	runtime.LockOSThread()
	leave := func() error { return nil }
	if g != nil && !sandboxed {
		var err error
		if leave, err = g.JoinThread(); err != nil {
			runtime.UnlockOSThread()
			return err
		}
	}
	restore, err := pinThread(cpus)
	if err != nil {
		if leave() == nil {
			runtime.UnlockOSThread()
		}
		return err
	}
	err = start()
	rerr, lerr := restore(), leave()
	if rerr == nil && lerr == nil {
		runtime.UnlockOSThread()
	}
	return errors.Join(err, rerr, lerr)
}

// groupUsage is a reading of the agent's cgroup: CPU time always (one
// read of a kept file); memory when r asks. A run-queue delay is read
// from /proc, cgroups having no per-tree count of it.
func (p *Process) groupUsage(r reading) (usage, error) {
	// A group outlives its processes; an agent that ended reads as gone,
	// as through /proc.
	if p.client.Exited() {
		return usage{}, fmt.Errorf("agent %s has ended", p.Cmd.Ref)
	}
	cpu, err := p.group.CPU()
	if err != nil {
		return usage{}, err
	}
	u := usage{CPU: cpu + p.preJoin.CPU}
	if r.mem && p.groupMem {
		peak, err := p.group.Peak()
		if err != nil {
			return usage{}, err
		}
		u.Peak = peak + p.preJoin.Peak
	} else if r.mem {
		m, err := p.procSample(reading{mem: true})
		if err != nil {
			return usage{}, err
		}
		u.RSS, u.Peak = m.RSS, m.Peak
	}
	if r.delay {
		if d, err := p.procSample(reading{delay: true}); err == nil {
			u.RunQueue = d.RunQueue
		}
	}
	return u, nil
}

// threadsRuntime is the CPU time every live thread of pid has run, in
// nanoseconds (the first field of each thread's schedstat): the
// sandbox's init, read once it is idle, whose own setup is the arena's
// work and not the agent's.
func threadsRuntime(pid int) time.Duration {
	task := "/proc/" + strconv.Itoa(pid) + "/task/"
	entries, err := os.ReadDir(task)
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, e := range entries {
		b, err := os.ReadFile(task + e.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if f := bytes.Fields(b); len(f) > 0 {
			if v, ok := decimal(f[0]); ok {
				sum += time.Duration(v)
			}
		}
	}
	return sum
}

// preJoinUsage is what the process pid, a sandbox's init that became the
// agent, used before it joined its v1 group g at the end of its setup: its
// CPU time and anonymous memory then (about 2 MB of pages of its own
// start, unless an exec freed them), which the group does not count, read
// as the process's totals less the group's, once, after the handshake,
// when the process is all the group holds. The group's file pages make
// the memory share smaller, never larger: readings never exceed the
// agent's own use.
func preJoinUsage(pid int, g *sandbox.Group) usage {
	var u usage
	// The process first, then its group: what it uses between the two
	// reads is then left out, never counted twice.
	threads := threadsRuntime(pid)
	if cpu, err := g.CPU(); err == nil {
		u.CPU = max(0, threads-cpu)
	}
	if anon, err := rssAnon(pid); err == nil {
		if peak, err := g.Peak(); err == nil {
			u.Peak = max(0, anon-peak)
		}
	}
	return u
}

// rssAnon reads RssAnon, the resident anonymous memory of pid, in bytes.
func rssAnon(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if n, ok := statusBytes(line, "RssAnon:"); ok {
			return n, nil
		}
	}
	return 0, fmt.Errorf("no RssAnon in /proc/%d/status", pid)
}

// groupMemory reads the kernel's verdict on the agent's memory: an OOM
// kill in its group, whose limit is the agent's. Two small kept files are
// read per tick (the peak and the kill count); the peak is kept for PeakRSS.
func (p *Process) groupMemory() (peak int64, over, stop bool) {
	peak, kills, err := p.group.Memory()
	if err != nil {
		return 0, false, true
	}
	over = p.limit > 0 && kills > 0
	return peak, over, !over && p.client.Exited()
}
