package main

import (
	"testing"
	"time"
)

// TestTimings: the sections' wall times in the order they ran.
func TestTimings(t *testing.T) {
	var tm timings
	tm.add("build", 12400*time.Millisecond)
	tm.add("engine", 21*time.Second)
	if got, want := tm.String(), "build 12s, engine 21s"; got != want {
		t.Errorf("timings %q, want %q", got, want)
	}
}
