// Package pidsweep removes what processes that are gone left behind:
// files and folders named by the pid of the process that made them (an
// arena or a worker killed before it could remove them).
package pidsweep

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Gone reports whether no process with pid runs. This process is never
// gone, and a pid the kernel does not deny (one that runs, or another
// user's) is not either: a recycled pid only delays a sweep.
func Gone(pid int) bool {
	return pid > 0 && pid != os.Getpid() && syscall.Kill(pid, 0) == syscall.ESRCH
}

// Pid is the pid in name, which must be prefix, the pid and then end
// (with the pid at the end of the name when end is "").
func Pid(name, prefix, end string) (int, bool) {
	digits, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	if end != "" {
		if digits, _, ok = strings.Cut(digits, end); !ok {
			return 0, false
		}
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// Dir removes the entries of dir named prefix, a pid and end (Pid) whose
// pid is Gone (only folders when dirsOnly), and returns how many it
// removed. What cannot be read or removed stays.
func Dir(dir, prefix, end string, dirsOnly bool) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, ok := Pid(e.Name(), prefix, end)
		if !ok || (dirsOnly && !e.IsDir()) || !Gone(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}
