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
	return create(dst, func(out io.Writer) error {
		if _, err := io.Copy(out, in); err != nil {
			return fmt.Errorf("copy %s to %s: %w", src, dst, err)
		}
		return nil
	})
}

// WriteFile writes a program of the given content to dst, a new file (an
// existing one is an error) with mode 0755, with forks held off while dst
// is open for writing: a test's shell script that a fork of a parallel
// test would otherwise leave "text file busy".
func WriteFile(dst string, data []byte) error {
	return create(dst, func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	})
}

// create makes dst with mode 0755 and fills it with fill, holding
// ForkLock for reading from the open to the close.
func create(dst string, fill func(io.Writer) error) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if err := fill(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
