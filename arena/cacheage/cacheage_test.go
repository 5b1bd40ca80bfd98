package cacheage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var hex8 = regexp.MustCompile(`^[0-9a-f]{8}$`)

// mkEntry makes the entry name in dir last used at used: its mark file's
// time, or with mark false an entry still being made (the folder's time).
func mkEntry(t *testing.T, dir, name string, used time.Time, mark bool) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	target := p
	if mark {
		target = filepath.Join(p, "bin")
		if err := os.WriteFile(target, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(target, used, used); err != nil {
		t.Fatal(err)
	}
	return p
}

// Entries unused for longer than the bound go, whether made or still
// being made; fresh, marked and reserved ones stay; names the pattern does
// not match and plain files stay however old.
func TestPruneRemovesOnlyUnusedEntries(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	old := now.Add(-DefaultUnused - time.Minute)
	c := Cache{Dir: dir, Entry: hex8, MarkFile: "bin"}
	gone := []string{
		mkEntry(t, dir, "0000000a", old, true),
		mkEntry(t, dir, "0000000b", old, false),
	}
	kept := []string{
		mkEntry(t, dir, "0000000c", now.Add(-time.Hour), true),
		mkEntry(t, dir, "0000000d", old, true),              // marked below
		mkEntry(t, dir, "0000000e", old, false),             // reserved below
		mkEntry(t, dir, strings.Repeat("f", 64), old, true), // another cache's
		mkEntry(t, dir, "openings", old, false),
		mkEntry(t, dir, "0000000G", old, true),
	}
	plain := filepath.Join(dir, "00000001")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(plain, old, old); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, plain)
	if err := c.MarkUsed("0000000d", now); err != nil {
		t.Fatal(err)
	}
	if err := c.Reserve("0000000e", now); err != nil {
		t.Fatal(err)
	}
	n, err := c.Prune(DefaultUnused, now)
	if err != nil || n != len(gone) {
		t.Fatalf("pruned %d (%v), want %d", n, err, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want removed", filepath.Base(p), err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v, want kept", filepath.Base(p), err)
		}
	}
	if at, err := c.UsedAt("0000000d"); err != nil || !at.Equal(now) {
		t.Errorf("marked entry used at %v (%v), want %v", at, err, now)
	}
}

// A missing folder holds nothing to prune; marking an entry that is gone
// says so, for its caller to make it anew.
func TestMissingFolderAndEntry(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	missing := Cache{Dir: filepath.Join(dir, "missing"), Entry: hex8, MarkFile: "bin"}
	if n, err := missing.Prune(DefaultUnused, now); n != 0 || err != nil {
		t.Errorf("a missing folder: %d %v", n, err)
	}
	if err := missing.MarkUsed("0000000a", now); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("mark in a missing folder: %v, want ErrNotExist", err)
	}
	c := Cache{Dir: dir, Entry: hex8, MarkFile: "bin"}
	if err := c.MarkUsed("0000000a", now); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("mark a missing entry: %v, want ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "0000000a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("marking made the entry: %v", err)
	}
}

// The removal reads the entry's time again under the lock: a use marked
// after Prune's first reading keeps the entry.
func TestRemoveRereadsTheMark(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-DefaultUnused - time.Hour)
	c := Cache{Dir: dir, Entry: hex8, MarkFile: "bin"}
	p := mkEntry(t, dir, "0000000a", old, true)
	if err := c.MarkUsed("0000000a", now); err != nil {
		t.Fatal(err)
	}
	if removed, err := c.removeUnused("0000000a", DefaultUnused, now); removed || err != nil {
		t.Fatalf("removed a just-used entry: %v %v", removed, err)
	}
	if removed, err := c.removeUnused("0000000b", DefaultUnused, now); removed || err != nil {
		t.Fatalf("an entry pruned by another process: %v %v, want nothing to do", removed, err)
	}
	if removed, err := c.removeUnused("0000000a", DefaultUnused, now.Add(DefaultUnused+time.Minute)); !removed || err != nil {
		t.Fatalf("still unused: %v %v, want removed", removed, err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("entry left: %v", err)
	}
}
