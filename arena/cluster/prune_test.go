package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Agents unused for longer than the bound go; recent ones, an unfinished
// fetch that is recent, and folders that are not a hash stay; a use moves
// an agent's time on; the built Go agents beside them are not the
// cluster's to remove.
func TestPruneCacheRemovesUnusedAgents(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	mk := func(name string, used time.Time, entry bool) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "agent"), 0o755); err != nil {
			t.Fatal(err)
		}
		if entry {
			if err := os.WriteFile(filepath.Join(p, "entry"), []byte("bot.py"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(filepath.Join(p, "entry"), used, used); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Chtimes(p, used, used); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := mk(strings.Repeat("a", 64), now.Add(-6*24*time.Hour), true)
	recent := mk(strings.Repeat("b", 64), now.Add(-time.Hour), true)
	oldPartial := mk(strings.Repeat("c", 64), now.Add(-6*24*time.Hour), false)
	other := mk("openings", now.Add(-60*24*time.Hour), false)
	built := mk(strings.Repeat("e", 32), now.Add(-60*24*time.Hour), false) // a built Go agent
	reused := mk(strings.Repeat("d", 64), now.Add(-6*24*time.Hour), true)
	if err := fetchedAgents(dir).MarkUsed(filepath.Base(reused), now); err != nil {
		t.Fatal(err)
	}
	n, err := pruneCache(dir, DefaultCacheUnused, now)
	if err != nil || n != 2 {
		t.Fatalf("pruned %d (%v), want the old agent and the old unfinished fetch", n, err)
	}
	for p, want := range map[string]bool{old: false, oldPartial: false, recent: true, other: true, built: true, reused: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	if n, err := pruneCache(filepath.Join(dir, "missing"), DefaultCacheUnused, now); n != 0 || err != nil {
		t.Errorf("a missing folder: %d %v", n, err)
	}
}
