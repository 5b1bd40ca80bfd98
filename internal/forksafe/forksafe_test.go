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

// TestCopyWaitsForForks: while a fork holds ForkLock, the copy is not even
// opened; once the fork is done, it is made whole and executable.
func TestCopyWaitsForForks(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	body := bytes.Repeat([]byte("#!/bin/sh\n"), 1000)
	if err := os.WriteFile(src, body, 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "dst")
	syscall.ForkLock.Lock() // as a fork does
	done := make(chan error, 1)
	go func() { done <- forksafe.Copy(src, dst) }()
	// A copy that ignored the lock would create dst within this wait; a
	// slow machine can only make the check pass without proving it.
	time.Sleep(100 * time.Millisecond)
	_, statErr := os.Stat(dst)
	syscall.ForkLock.Unlock()
	if statErr == nil {
		t.Fatal("the copy was opened while a fork held ForkLock")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(dst)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("copy holds %d bytes (%v), want %d", len(got), err, len(body))
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("copy mode %v (%v), want 0755", fi.Mode().Perm(), err)
	}
	if err := forksafe.Copy(src, dst); err == nil {
		t.Fatal("a copy over an existing file was made")
	}
}

// TestWriteFileWaitsForForks: WriteFile, like Copy, opens nothing while a
// fork holds ForkLock, then writes the whole program executable, and
// refuses an existing file.
func TestWriteFileWaitsForForks(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "prog")
	body := []byte("#!/bin/sh\nexit 0\n")
	syscall.ForkLock.Lock() // as a fork does
	done := make(chan error, 1)
	go func() { done <- forksafe.WriteFile(dst, body) }()
	// As in TestCopyWaitsForForks: a slow machine can only make the check
	// pass without proving it.
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
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("program holds %q (%v), want %q", got, err, body)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("program mode %v (%v), want 0755", fi.Mode().Perm(), err)
	}
	if err := forksafe.WriteFile(dst, body); err == nil {
		t.Fatal("a program over an existing file was written")
	}
}
