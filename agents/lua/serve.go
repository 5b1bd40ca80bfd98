package lua

import (
	"fmt"
	"os"
	"runtime/debug"

	"arena/plugins/sdk"
)

// Serve serves the Lua agent named by ref ("lua:PATH?k=v") as a plugin in
// this process, which then belongs to the script: its Go memory limit is
// set to the heap cap, so the collector works hard before the cap is
// reached, and a heap twice the cap (one library call that could not be
// stopped in time) ends the process with a message rather than let it
// grow. It does not return on success.
func Serve(ref string) error {
	r, err := ParseRef(ref)
	if err != nil {
		return err
	}
	debug.SetMemoryLimit(int64(r.MemoryMB) << 20)
	// The process's own stderr, taken before the plugin server replaces
	// os.Stderr with a stream that a dying process would not flush.
	stderr := os.Stderr
	a, err := New(r.Path, Options{
		Params:   r.Params,
		MemoryMB: r.MemoryMB,
		Stderr:   stderr,
		OnRunaway: func(heap, limit uint64) {
			fmt.Fprintf(stderr, "lua agent %s: memory limit exceeded: the heap reached %d MiB, over twice the %d MiB cap, inside one library call; ending the agent process\n",
				r.Path, heap>>20, limit>>20)
			os.Exit(3)
		},
	})
	if err != nil {
		return err
	}
	sdk.Serve(a)
	return nil
}
