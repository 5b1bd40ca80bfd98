package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"

	"arena/plugins/host/proctree"
)

// pinThread restricts the calling OS thread to cpus, with the goroutine
// locked to it, until the returned restore is called. A process started
// from this thread in between (fork and exec run on it) inherits the mask
// from its first instruction, and so do its threads and children; pinning
// it after the start would miss threads it already made. The runtime
// never creates threads from a locked thread, so no other goroutine
// inherits the mask. restore puts the thread's own mask back rather than
// letting the runtime discard the thread: the agent's parent-death signal
// is tied to the thread that started it, and would kill it.
func pinThread(cpus []int) (restore func() error, err error) {
	if len(cpus) == 0 {
		return func() error { return nil }, nil
	}
	runtime.LockOSThread()
	var orig, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("pin agent to CPUs %v: %w", cpus, err)
	}
	set.Zero()
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("pin agent to CPUs %v: %w", cpus, err)
	}
	return func() error {
		if err := unix.SchedSetaffinity(0, &orig); err != nil {
			// The thread stays locked and dies with the goroutine, taking
			// the agent with it: the launch fails rather than leave a
			// pinned thread to the runtime.
			return fmt.Errorf("unpin the launching thread: %w", err)
		}
		runtime.UnlockOSThread()
		return nil
	}, nil
}

// Repin moves a running agent's whole tree — root, its descendants and
// every thread of each — onto cpus, for a kept process that plays its next
// game on another slot. It is meant for an idle agent (between games): a
// thread it creates while Repin runs could keep the old mask.
func Repin(root int, cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	var set unix.CPUSet
	set.Zero()
	for _, c := range cpus {
		set.Set(c)
	}
	pids, err := treePids(root)
	if err != nil {
		return fmt.Errorf("repin agent %d: %w", root, err)
	}
	if len(pids) == 0 {
		return fmt.Errorf("repin agent %d: it is gone", root)
	}
	for _, pid := range pids {
		if err := pinThreads(pid, pid == root, &set); err != nil {
			return fmt.Errorf("repin agent %d to CPUs %v: %w", root, cpus, err)
		}
	}
	return nil
}

// pinThreads sets the affinity of every thread of pid. A descendant that
// ended since the tree was listed has nothing left to pin; the root
// having ended is an error, the agent being gone.
func pinThreads(pid int, root bool, set *unix.CPUSet) error {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if errors.Is(err, fs.ErrNotExist) && !root {
		return nil
	}
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("thread %d: %w", tid, err)
		}
	}
	return nil
}

// treePids lists root and its live descendants through the kernel's
// per-thread children lists (a few reads per process of the tree, where a
// scan of /proc reads every process of the machine); without those lists
// (a kernel built without them) it scans /proc.
func treePids(root int) ([]int, error) {
	if !hasChildLists(root) {
		if _, serr := os.Stat("/proc/" + strconv.Itoa(root)); serr != nil {
			return nil, nil // gone
		}
		procs, err := proctree.Tree(root)
		if err != nil {
			return nil, err
		}
		pids := make([]int, len(procs))
		for i, p := range procs {
			pids[i] = p.Pid
		}
		return pids, nil
	}
	return descendants(root), nil
}
