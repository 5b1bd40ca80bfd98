package host

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The private directories of unsandboxed agents of an arena that is gone
// are removed; this arena's, a live process's and other names stay.
func TestSweepPrivateDirsOfGoneArenas(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(p, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A pid above the kernel's limit is never running.
	gone := mk(privatePrefix + "4194305-123")
	mine := mk(privatePrefix + strconv.Itoa(os.Getpid()) + "-1")
	parent := mk(privatePrefix + strconv.Itoa(os.Getppid()) + "-2")
	old := mk(privatePrefix + "12345") // an earlier build's name, without a pid
	other := mk("something-else")
	if n := sweepPrivateDirs(tmp); n != 1 {
		t.Errorf("removed %d, want the gone arena's one", n)
	}
	for p, want := range map[string]bool{gone: false, mine: true, parent: true, old: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
