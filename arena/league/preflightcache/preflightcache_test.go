package preflightcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A pass added and saved is found by the next run's Open; a key not added
// is not; a pass neither found nor added this run is dropped by Save.
func TestPassesOutliveTheRunThatFoundThem(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	jvm, lua, gone := Key("java", "h1"), Key("lua", "h2"), Key("old", "h3")
	if c.Passed(jvm) {
		t.Fatal("an empty cache found a pass")
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.Add(jvm, at)
	c.Add(gone, at)
	c = saveAndOpen(t, c, dir)
	if !c.Passed(jvm) || c.Passed(lua) {
		t.Fatalf("second run: java passed %v, lua passed %v; want true, false", c.Passed(jvm), c.Passed(lua))
	}
	c.Add(lua, at)
	c = saveAndOpen(t, c, dir)
	if !c.Passed(jvm) || !c.Passed(lua) || c.Passed(gone) {
		t.Fatalf("third run: java %v, lua %v, the agent no run asked for %v; want true, true, false",
			c.Passed(jvm), c.Passed(lua), c.Passed(gone))
	}
}

// open is Open failing the test on an error.
func open(t *testing.T, dir string) *Cache {
	t.Helper()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// saveAndOpen saves c and opens the directory's cache again, as the next
// run does.
func saveAndOpen(t *testing.T, c *Cache, dir string) *Cache {
	t.Helper()
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	return open(t, dir)
}

// Every part of the key counts, and parts do not run into each other.
func TestKeyTellsPartsApart(t *testing.T) {
	keys := map[string]string{}
	for name, parts := range map[string][]string{
		"base":        {"course:/a", "hash1", "bohnenspiel", "10s"},
		"other hash":  {"course:/a", "hash2", "bohnenspiel", "10s"},
		"other limit": {"course:/a", "hash1", "bohnenspiel", "2m0s"},
		"shifted":     {"course:/ah", "ash1", "bohnenspiel", "10s"},
		"fewer parts": {"course:/a", "hash1", "bohnenspiel"},
	} {
		k := Key(parts...)
		if other, dup := keys[k]; dup {
			t.Errorf("%s and %s share a key", name, other)
		}
		keys[k] = name
	}
	if Key("a", "b") != Key("a", "b") {
		t.Error("the same parts gave two keys")
	}
}

// A file that does not parse is an empty cache, not an error, and the
// next Save replaces it.
func TestUnreadableFileIsAnEmptyCache(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir)
	if err != nil {
		t.Fatalf("a corrupt cache: %v", err)
	}
	k := Key("x")
	if c.Passed(k) {
		t.Fatal("a corrupt cache found a pass")
	}
	c.Add(k, time.Now())
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if c, err = Open(dir); err != nil || !c.Passed(k) {
		t.Fatalf("after Save over a corrupt file: %v, passed %v", err, c != nil && c.Passed(k))
	}
}
