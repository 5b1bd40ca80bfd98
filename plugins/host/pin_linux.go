package host

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// pinThread restricts the calling OS thread to cpus and keeps the
// goroutine on it until the goroutine ends, when the runtime discards the
// thread. A process started from this thread (fork and exec run on it)
// inherits the mask from its first instruction, and so do its threads and
// children; pinning it after the start would miss threads it already made.
// The runtime never creates threads from a locked thread, so no other
// goroutine inherits the mask.
func pinThread(cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	runtime.LockOSThread()
	var set unix.CPUSet
	set.Zero()
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin agent to CPUs %v: %w", cpus, err)
	}
	return nil
}
