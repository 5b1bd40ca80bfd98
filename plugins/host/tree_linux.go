package host

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// usage is one sample of an agent's whole process tree.
type usage struct {
	CPU   time.Duration // user+system time of every process, reaped ones included
	RSS   int64         // resident memory summed over the live processes
	Peak  int64         // the largest single-process peak (VmHWM) seen by the kernel
	Procs int           // processes counted
}

// statTimes reads utime+stime and cutime+cstime from a /proc stat file.
func statTimes(path string) (own, children time.Duration, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	// Fields after the command name, which may contain spaces, in parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("parse %s", path)
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14-17.
	if len(f) < 15 {
		return 0, 0, fmt.Errorf("parse %s: %d fields", path, len(f))
	}
	var t [4]int64
	for j, k := range []int{11, 12, 13, 14} {
		v, err := strconv.ParseInt(string(f[k]), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("parse %s: %w", path, err)
		}
		t[j] = v
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / clockTicks }
	return tick(t[0] + t[1]), tick(t[2] + t[3]), nil
}

// statusMemory reads VmRSS and VmHWM in bytes from a /proc status file.
func statusMemory(path string) (rss, peak int64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		var dst *int64
		switch {
		case bytes.HasPrefix(line, []byte("VmRSS:")):
			dst = &rss
		case bytes.HasPrefix(line, []byte("VmHWM:")):
			dst = &peak
		default:
			continue
		}
		f := bytes.Fields(line)
		if len(f) >= 2 {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err == nil {
				*dst = kb << 10
			}
		}
	}
	return rss, peak, nil
}

// errNotNamespaceProc marks a sandbox whose own /proc is not mounted (yet).
var errNotNamespaceProc = errors.New("the sandbox's /proc is not mounted")

// sampleNamespace sums every process of a sandbox through the /proc the
// sandbox's init mounted, which lists the namespace's processes only: a
// few small reads instead of a scan of every process on the machine. The
// init itself (PID 1 there) is the arena's code: its own time and memory
// are not the agent's, but the time of the children it reaped is.
func sampleNamespace(initPid int) (usage, error) {
	root := "/proc/" + strconv.Itoa(initPid) + "/root/proc"
	// In the host's /proc "self" names the reader; in the namespace's it
	// names nothing, since the arena is not a process there.
	if _, err := os.Readlink(root + "/self"); err == nil {
		return usage{}, errNotNamespaceProc
	}
	d, err := os.Open(root)
	if err != nil {
		return usage{}, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return usage{}, err
	}
	var u usage
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		own, children, err := statTimes(root + "/" + n + "/stat")
		if err != nil {
			continue // ended since the listing
		}
		u.CPU += children
		if n == "1" {
			continue
		}
		u.CPU += own
		rss, peak, err := statusMemory(root + "/" + n + "/status")
		if err != nil {
			continue
		}
		u.RSS += rss
		u.Peak = max(u.Peak, peak)
		u.Procs++
	}
	if u.Procs == 0 && len(names) > 0 {
		// Only the init is left: the agent is gone.
		if _, err := os.Stat(root + "/1"); err != nil {
			return usage{}, err
		}
	}
	return u, nil
}

// sampleTree sums a process and its live descendants, found through the
// kernel's per-thread children lists: the accounting of agents that run
// without a sandbox. A descendant orphaned by its parent's exit is
// re-parented outside the tree and no longer counted. Without the
// children lists (a kernel built without them) it reads the process alone.
func sampleTree(pid int) (usage, error) {
	u, err := sampleProcess(pid)
	if err != nil {
		return usage{}, err
	}
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 && len(seen) < maxTree {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children(p) {
			if seen[c] {
				continue
			}
			seen[c] = true
			cu, err := sampleProcess(c)
			if err != nil {
				continue
			}
			u.CPU += cu.CPU
			u.RSS += cu.RSS
			u.Peak = max(u.Peak, cu.Peak)
			u.Procs++
			queue = append(queue, c)
		}
	}
	return u, nil
}

// maxTree bounds the processes one sample reads.
const maxTree = 4096

// children lists the child pids of every thread of pid.
func children(pid int) []int {
	task := "/proc/" + strconv.Itoa(pid) + "/task"
	d, err := os.Open(task)
	if err != nil {
		return nil
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, t := range tids {
		b, err := os.ReadFile(task + "/" + t + "/children")
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// sampleProcess reads one process (and the children it reaped).
func sampleProcess(pid int) (usage, error) {
	p := "/proc/" + strconv.Itoa(pid)
	own, children, err := statTimes(p + "/stat")
	if err != nil {
		return usage{}, err
	}
	rss, peak, err := statusMemory(p + "/status")
	if err != nil {
		return usage{}, err
	}
	return usage{CPU: own + children, RSS: rss, Peak: peak, Procs: 1}, nil
}

// namespacePids lists the host pids of every process in the PID namespace
// whose /proc/<pid>/ns/pid link is ns, by scanning the host's /proc.
func namespacePids(ns string) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if l, err := os.Readlink("/proc/" + n + "/ns/pid"); err == nil && l == ns {
			out = append(out, pid)
		}
	}
	return out
}

// groupPids lists the host pids of every process in process group pgid.
func groupPids(pgid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		// f[2] is field 5, pgrp.
		if len(f) > 2 && string(f[2]) == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}
