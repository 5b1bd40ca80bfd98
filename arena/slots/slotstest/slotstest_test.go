package slotstest_test

import (
	"os"
	"testing"

	"arena/arena/slots"
	"arena/arena/slots/slotstest"
)

// Private makes a folder of its own, and leagues (DefaultDir) and the
// arena processes started after it (the environment) use it.
func TestPrivate(t *testing.T) {
	t.Setenv(slots.DirEnv, "")
	before := slots.DefaultDir()
	dir, err := slotstest.Private()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("slot folder %s: %v", dir, err)
	}
	if dir == before || slots.DefaultDir() != dir || os.Getenv(slots.DirEnv) != dir {
		t.Fatalf("DefaultDir %s, %s=%q, want the new folder %s (before: %s)", slots.DefaultDir(), slots.DirEnv, os.Getenv(slots.DirEnv), dir, before)
	}
	p, err := slots.New(slots.DefaultDir(), slots.Machine{CPUs: []int{0}, N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Dir() != dir || p.Free() != 1 {
		t.Fatalf("pool in %s with %d free, want %s with 1", p.Dir(), p.Free(), dir)
	}
}
