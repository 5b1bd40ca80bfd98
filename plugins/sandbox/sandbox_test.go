package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/plugins/sandbox"
)

func TestReach(t *testing.T) {
	// t.TempDir's own parent is 0700: build the tree in a searchable one.
	top, err := os.MkdirTemp("", "reach-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(top)
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	hidden := filepath.Join(top, "hidden")
	if err := os.Mkdir(hidden, 0o700); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(hidden, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(open, "bot.lua")
	if err := os.WriteFile(script, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The first directory the agent cannot search is where the sandbox
	// rebuilds the path.
	cover, err := sandbox.Reach(script, false)
	if err != nil || cover != hidden {
		t.Fatalf("cover %q, %v; want %s", cover, err, hidden)
	}
	if cover, err := sandbox.Reach("/bin/sh", true); err != nil || cover != "" {
		t.Fatalf("/bin/sh: cover %q, %v", cover, err)
	}
	// A file unreadable by others cannot be made readable: the error
	// names it.
	private := filepath.Join(open, "secret.lua")
	if err := os.WriteFile(private, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.Reach(private, false); err == nil || !strings.Contains(err.Error(), private) || !strings.Contains(err.Error(), "0600") {
		t.Fatalf("unreadable file: %v", err)
	}
	if _, err := sandbox.Reach(script, true); err == nil || !strings.Contains(err.Error(), "executable") {
		t.Fatalf("non-executable program: %v", err)
	}
}

func TestLeasesAreDistinct(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("id leases live in a root-owned directory")
	}
	base, err := sandbox.Base()
	if err != nil {
		t.Fatal(err)
	}
	a, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int]bool{a.IDs.Root: true, a.IDs.Agent: true, b.IDs.Root: true, b.IDs.Agent: true}
	if len(ids) != 4 {
		t.Fatalf("leases share ids: %+v %+v", a.IDs, b.IDs)
	}
	a.Release()
	c, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.IDs == b.IDs {
		t.Fatalf("a held lease was handed out again: %+v", c.IDs)
	}
	b.Release()
	c.Release()
}

// A private directory whose lease lapsed (its arena was killed) is swept;
// one whose lease is held is kept.
func TestSweep(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("private directories are chowned to leased ids")
	}
	base, err := sandbox.Base()
	if err != nil {
		t.Fatal(err)
	}
	held, err := sandbox.Acquire(base, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	lapsed, err := sandbox.Acquire(base, 200)
	if err != nil {
		t.Fatal(err)
	}
	live, err := sandbox.PrivateDir(base, held)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(live)
	stale, err := sandbox.PrivateDir(base, lapsed)
	if err != nil {
		t.Fatal(err)
	}
	lapsed.Release()
	sandbox.Sweep(base)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale directory kept: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("live directory swept: %v", err)
	}
}
