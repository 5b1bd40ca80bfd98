// Package forksafe writes programs that the same process then runs. A Go
// program forks from many goroutines at once (a league's games, a test
// binary's parallel tests): a child forked while a program file is still
// open for writing holds that descriptor until its own exec, and running
// the program in that moment fails with "text file busy" (ETXTBSY).
// Every fork in the process takes syscall.ForkLock for writing, so a file
// written under the lock for reading is closed before any child sees it.
package forksafe

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
