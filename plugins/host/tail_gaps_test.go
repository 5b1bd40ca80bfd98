package host_test

import (
	"fmt"
	"strings"
	"testing"

	"arena/plugins/host"
)

func TestTailCountsAndDefaults(t *testing.T) {
	// Nothing dropped: the bytes alone, no note.
	tl := host.NewTail(10)
	fmt.Fprint(tl, "abc")
	if got := tl.String(); got != "abc" {
		t.Fatalf("tail %q, want exactly abc", got)
	}
	// A write longer than the cap on top of kept bytes: the note counts
	// both the old bytes and the head of the write.
	fmt.Fprint(tl, "0123456789AB")
	if got := tl.String(); got != "[... 5 earlier bytes dropped]\n23456789AB" {
		t.Fatalf("tail %q", got)
	}
	// No cap given: the default of 8 KiB, not zero.
	tl = host.NewTail(0)
	fmt.Fprint(tl, strings.Repeat("x", 100))
	if got := tl.String(); got != strings.Repeat("x", 100) {
		t.Fatalf("default tail kept %q", got)
	}
	fmt.Fprint(tl, strings.Repeat("y", 8<<10))
	if got := tl.String(); got != "[... 100 earlier bytes dropped]\n"+strings.Repeat("y", 8<<10) {
		t.Fatalf("default cap: %d bytes kept", len(got))
	}
}

func TestTailAtTheCap(t *testing.T) {
	// A write of exactly the cap replaces what was kept.
	tl := host.NewTail(4)
	fmt.Fprint(tl, "ab")
	fmt.Fprint(tl, "wxyz")
	if got := tl.String(); got != "[... 2 earlier bytes dropped]\nwxyz" {
		t.Fatalf("tail %q", got)
	}
	// Filling up to the cap drops nothing; one byte more drops one.
	tl = host.NewTail(4)
	fmt.Fprint(tl, "ab")
	fmt.Fprint(tl, "cd")
	if got := tl.String(); got != "abcd" {
		t.Fatalf("tail %q, want abcd", got)
	}
	fmt.Fprint(tl, "e")
	if got := tl.String(); got != "[... 1 earlier bytes dropped]\nbcde" {
		t.Fatalf("tail %q", got)
	}
}
