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
	var orig unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("pin agent to CPUs %v: %w", cpus, err)
	}
	set := cpuSet(cpus)
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

// cpuSet is the kernel's mask of cpus.
func cpuSet(cpus []int) unix.CPUSet {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return set
}

// Repin moves a running agent's whole tree — root, its descendants and
// every thread of each — onto cpus, for a kept process that plays its next
// game on another slot. A thread inherits its creator's mask, so one made
// while Repin runs by a thread not yet moved keeps the old mask: Repin
// therefore goes over the tree again until a pass finds every thread on
// cpus (a Go agent's runtime, a JVM, makes threads whenever it likes, not
// only when it is busy), at most repinPasses times.
func Repin(root int, cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	set := cpuSet(cpus)
	if err := repinTree(root, &set, nil); err != nil {
		return fmt.Errorf("repin agent %d to CPUs %v: %w", root, cpus, err)
	}
	return nil
}

// repinTree is Repin's passes; between, when not nil, runs after each
// pass that moved a thread, before the next (tests make a straggler there).
func repinTree(root int, set *unix.CPUSet, between func()) error {
	for pass := 0; pass < repinPasses; pass++ {
		pids, err := treePids(root)
		if err != nil {
			return err
		}
		if len(pids) == 0 {
			return errors.New("it is gone")
		}
		moved := 0
		for _, pid := range pids {
			n, err := pinThreads(pid, pid == root, set)
			if err != nil {
				return err
			}
			moved += n
		}
		if moved == 0 {
			return nil
		}
		if between != nil {
			between()
		}
	}
	return nil
}

// repinPasses bounds Repin's passes over a tree that keeps making threads:
// each pass moves every thread it finds, so what a last pass leaves behind
// is only a thread made during it by one not yet moved.
const repinPasses = 8

// pinThreads sets the affinity of every thread of pid not already on set
// and says how many it moved. A descendant that ended since the tree was
// listed has nothing left to pin; the root having ended is an error, the
// agent being gone.
func pinThreads(pid int, root bool, set *unix.CPUSet) (int, error) {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if errors.Is(err, fs.ErrNotExist) && !root {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		var cur unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &cur); err == nil && cur == *set {
			continue
		} else if errors.Is(err, unix.ESRCH) {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil {
			if errors.Is(err, unix.ESRCH) {
				continue
			}
			return moved, fmt.Errorf("thread %d: %w", tid, err)
		}
		moved++
	}
	return moved, nil
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
