package host

import (
	"os"
	"slices"
	"testing"
)

// A /proc listing from the kernel's first process entry has the processes
// and none of the fixed entries; the full listing has both. The sampler's
// shortcut relies on the first, and falls back to the second.
func TestProcListingFromFirstProcessEntry(t *testing.T) {
	d, err := os.Open("/proc")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	defer d.Close()
	s := &nsSampler{dir: d, dents: make([]byte, 8192)}
	short, err := s.listFrom(firstProcessEntry)
	if err != nil {
		t.Fatal(err)
	}
	full, err := s.listFrom(0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(short, "1") || slices.Contains(short, "meminfo") {
		t.Errorf("listing from %d: %d entries, \"1\" %v, \"meminfo\" %v; want the processes only",
			firstProcessEntry, len(short), slices.Contains(short, "1"), slices.Contains(short, "meminfo"))
	}
	if !slices.Contains(full, "1") || !slices.Contains(full, "meminfo") {
		t.Errorf("full listing lacks \"1\" or \"meminfo\"")
	}
	// list itself: the processes, by either way.
	names, err := s.list()
	if err != nil || !slices.Contains(names, "1") {
		t.Errorf("list: %d names, %v", len(names), err)
	}
}
