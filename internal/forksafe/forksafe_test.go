package forksafe_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"arena/internal/forksafe"
)

// Copy and WriteFile open nothing while a fork holds ForkLock; once the
// fork is done they make the program whole and executable, and they
// refuse an existing file.
func TestWritersWaitForForks(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	copied := bytes.Repeat([]byte("#!/bin/sh\n"), 1000)
	if err := os.WriteFile(src, copied, 0o644); err != nil {
		t.Fatal(err)
	}
	written := []byte("#!/bin/sh\nexit 0\n")
	for _, c := range []struct {
		name  string
		body  []byte
		write func(dst string) error
	}{
		{"Copy", copied, func(dst string) error { return forksafe.Copy(src, dst) }},
		{"WriteFile", written, func(dst string) error { return forksafe.WriteFile(dst, written) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "prog")
			syscall.ForkLock.Lock() // as a fork does
			done := make(chan error, 1)
			go func() { done <- c.write(dst) }()
			// A writer that ignored the lock would create dst within this
			// wait; a slow machine can only make the check pass without
			// proving it.
			time.Sleep(100 * time.Millisecond)
			_, statErr := os.Stat(dst)
			syscall.ForkLock.Unlock()
			if statErr == nil {
				t.Fatal("the program was opened while a fork held ForkLock")
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(dst)
			if err != nil || !bytes.Equal(got, c.body) {
				t.Fatalf("program holds %d bytes (%v), want %d", len(got), err, len(c.body))
			}
			if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o755 {
				t.Fatalf("program mode %v (%v), want 0755", fi.Mode().Perm(), err)
			}
			if err := c.write(dst); err == nil {
				t.Fatal("a program over an existing file was made")
			}
		})
	}
}
