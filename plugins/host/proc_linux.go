package host

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times; 100 on every
// Linux configuration Go supports.
const clockTicks = 100

// cpuTime reads the user+system CPU time of pid and its live descendants
// (an adapter's interpreter or JVM counts as the agent's), each including
// its reaped children, from /proc.
func cpuTime(pid int) (time.Duration, error) {
	total, err := procCPU(pid)
	if err != nil {
		return 0, err
	}
	for _, c := range descendants(pid) {
		if t, err := procCPU(c); err == nil {
			total += t
		}
	}
	return total, nil
}

// descendants lists the live descendants of pid, from the children lists
// of every thread in /proc (a process's children hang off the thread that
// started them).
func descendants(pid int) []int {
	var out []int
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(p) + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range bytes.Fields(b) {
				if c, err := strconv.Atoi(string(f)); err == nil {
					out = append(out, c)
					todo = append(todo, c)
				}
			}
		}
	}
	return out
}

func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which may contain spaces, in parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14-17.
	if len(f) < 15 {
		return 0, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(f))
	}
	var ticks int64
	for _, k := range []int{11, 12, 13, 14} {
		v, err := strconv.ParseInt(string(f[k]), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// memory reads the resident set size and its peak (VmRSS, VmHWM) in bytes
// of pid and its live descendants, summed (shared pages count once per
// process, so the sum errs on the high side).
func memory(pid int) (rss, peak int64, err error) {
	rss, peak, err = procMemory(pid)
	if err != nil {
		return 0, 0, err
	}
	for _, c := range descendants(pid) {
		if r, p, err := procMemory(c); err == nil {
			rss += r
			peak += p
		}
	}
	return rss, peak, nil
}

func procMemory(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
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

// groupAlive reports whether any process of the group still exists.
func groupAlive(pgid int) bool {
	return killGroup(pgid, 0) == nil
}
