// Package testexec copies programs that tests then run. A test binary runs
// its tests in parallel, and they fork: a child forked while a copy is
// still open for writing holds that descriptor until its own exec, and
// running the copy in that moment fails with "text file busy" (ETXTBSY).
// Every fork in the process takes syscall.ForkLock for writing, so a copy
// written under the lock for reading is closed before any child sees it.
package testexec

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Copy copies the program at src to dst, a new file (an existing one is an
// error) with mode 0755, with forks held off while dst is open for writing.
func Copy(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return out.Close()
}
