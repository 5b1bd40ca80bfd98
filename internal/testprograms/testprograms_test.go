package testprograms

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// module writes a one-program module whose program prints word.
func module(t *testing.T, dir, word string) {
	t.Helper()
	files := map[string]string{
		"go.mod":         "module tp\n\ngo 1.22\n",
		"hello/main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"" + word + "\") }\n",
		"second/main.go": "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// privateCache gives the test a cache folder of its own while the go
// command keeps the build cache it has (a fresh one would compile the
// standard library).
func privateCache(t *testing.T) string {
	t.Helper()
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("GOWORK", "off")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	return cache
}

// links skips a test that links programs under -short.
func links(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("links programs: runs without -short")
	}
}

func output(t *testing.T, prog string) string {
	t.Helper()
	out, err := exec.Command(prog).Output()
	if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	return strings.TrimSpace(string(out))
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// An unchanged program is not linked again; an edited one is, and the
// program an earlier run was given stays as it was.
func TestInstallLinksOnlyWhatChanged(t *testing.T) {
	links(t)
	cache := privateCache(t)
	src := t.TempDir()
	module(t, src, "one")
	first, second := t.TempDir(), t.TempDir()
	if err := Install(src, first, []string{NoDWARF}, "./hello", "./second"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hello", "second"} {
		if _, err := os.Stat(filepath.Join(first, name)); err != nil {
			t.Fatalf("no %s: %v", name, err)
		}
	}
	if got := output(t, filepath.Join(first, "hello")); got != "one" {
		t.Fatalf("first program says %q", got)
	}
	installed, err := filepath.Glob(filepath.Join(cache, "arena", "test-programs", "*", "hello"))
	if err != nil || len(installed) != 1 {
		t.Fatalf("installed programs %v (%v), want one hello in the cache", installed, err)
	}
	before := inode(t, installed[0])

	if err := Install(src, second, []string{NoDWARF}, "./hello", "./second"); err != nil {
		t.Fatal(err)
	}
	if after := inode(t, installed[0]); after != before {
		t.Fatalf("an unchanged program was linked again (inode %d, was %d)", after, before)
	}

	module(t, src, "two")
	third := t.TempDir()
	if err := Install(src, third, []string{NoDWARF}, "./hello", "./second"); err != nil {
		t.Fatal(err)
	}
	if got := output(t, filepath.Join(third, "hello")); got != "two" {
		t.Fatalf("edited program says %q, want two", got)
	}
	if got := output(t, filepath.Join(first, "hello")); got != "one" {
		t.Fatalf("the first run's program changed under it: says %q", got)
	}
	// The unchanged program is dated with the relinked one, as programs
	// of one go build are: the arena judges a lean host by its age.
	h, err := os.Stat(filepath.Join(third, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.Stat(filepath.Join(third, "second"))
	if err != nil {
		t.Fatal(err)
	}
	if !h.ModTime().Equal(s.ModTime()) {
		t.Fatalf("programs of one install dated %v and %v", h.ModTime(), s.ModTime())
	}
}

// A package given as "." is named after its folder, as go build names it;
// other flags get a folder of their own.
func TestInstallNamesAndFlags(t *testing.T) {
	links(t)
	cache := privateCache(t)
	src := t.TempDir()
	module(t, src, "dot")
	into := t.TempDir()
	if err := Install(filepath.Join(src, "hello"), into, []string{"-buildvcs=false", NoDWARF}, "."); err != nil {
		t.Fatal(err)
	}
	if got := output(t, filepath.Join(into, "hello")); got != "dot" {
		t.Fatalf("program says %q", got)
	}
	if err := Install(src, t.TempDir(), []string{NoDWARF}, "./hello"); err != nil {
		t.Fatal(err)
	}
	// The folders, beside the cache's lock file.
	entries, err := os.ReadDir(filepath.Join(cache, "arena", "test-programs"))
	var folders []string
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	if err != nil || len(folders) != 2 {
		t.Fatalf("cache folders %v (%v), want one per set of flags and packages", folders, err)
	}
}

// Without a cache folder the programs are built where they are wanted.
func TestInstallWithoutACacheFolder(t *testing.T) {
	links(t)
	privateCache(t)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if _, err := os.UserCacheDir(); err == nil {
		t.Skip("the platform has a cache folder without HOME")
	}
	src := t.TempDir()
	module(t, src, "bare")
	into := t.TempDir()
	if err := Install(src, into, []string{NoDWARF}, "./hello"); err != nil {
		t.Fatal(err)
	}
	if got := output(t, filepath.Join(into, "hello")); got != "bare" {
		t.Fatalf("program says %q", got)
	}
}

// A build that fails says which packages and why.
func TestInstallFailureNamesThePackages(t *testing.T) {
	privateCache(t)
	src := t.TempDir()
	module(t, src, "x")
	if err := os.WriteFile(filepath.Join(src, "hello", "main.go"), []byte("package main\n\nfunc main() { missing() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Install(src, t.TempDir(), []string{NoDWARF}, "./hello")
	if err == nil || !strings.Contains(err.Error(), "go install ./hello") || !strings.Contains(err.Error(), "undefined: missing") {
		t.Fatalf("error %v, want the packages and the compiler's message", err)
	}
}

// Folders unused for a week go; recent ones and the one in use stay, as
// does a folder not named as the cache names its own.
func TestUseRemovesStaleFolders(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		l := filepath.Join(p, ".lock")
		if err := os.WriteFile(l, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(l, when, when); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const inUseName = "cccccccccccccccccccccccc"
	old, fresh, inUse := mk("aaaaaaaaaaaaaaaaaaaaaaaa", 8*24*time.Hour), mk("bbbbbbbbbbbbbbbbbbbbbbbb", time.Hour), mk(inUseName, 30*24*time.Hour)
	other := mk("not-a-key", 30*24*time.Hour)
	if err := use(folders(root), inUseName, time.Now()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{old: false, fresh: true, inUse: true, other: true} {
		_, err := os.Stat(p)
		if got := err == nil; got != want {
			t.Errorf("%s kept %v, want %v", filepath.Base(p), got, want)
		}
	}
	// A new folder is made.
	if err := use(folders(root), "dddddddddddddddddddddddd", time.Now()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "dddddddddddddddddddddddd")); err != nil || !fi.IsDir() {
		t.Errorf("new folder: %v", err)
	}
}

// Folder names a folder by kind and key, the same one for the same pair and
// another for a different kind or key, in the user's cache; a second
// holder of a folder waits until the first unlocks it; a folder left
// unused for a week is removed when another is taken.
func TestFolderKeyedAndLocked(t *testing.T) {
	cache := privateCache(t)
	dir, unlock, err := Folder("scaffold", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != filepath.Join(cache, "arena", "test-folders") {
		t.Errorf("folder %s, want one in %s", dir, filepath.Join(cache, "arena", "test-folders"))
	}
	if err := os.WriteFile(filepath.Join(dir, "kept"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, other := range []struct{ kind, key string }{{"scaffold", "two"}, {"other", "one"}} {
		d, u, err := Folder(other.kind, []byte(other.key))
		if err != nil {
			t.Fatal(err)
		}
		u()
		if d == dir {
			t.Errorf("%s/%s has the folder of scaffold/one", other.kind, other.key)
		}
	}

	second := make(chan string)
	go func() {
		d, u, err := Folder("scaffold", []byte("one"))
		if err != nil {
			t.Error(err)
			close(second)
			return
		}
		u()
		second <- d
	}()
	select {
	case <-second:
		t.Fatal("a second holder took the folder while the first held it")
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	select {
	case d := <-second:
		if d != dir {
			t.Errorf("second holder got %s, want %s", d, dir)
		}
	case <-time.After(time.Minute):
		t.Fatal("the second holder still waits after the unlock")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "kept")); err != nil || string(b) != "x" {
		t.Errorf("the folder's file: %q, %v", b, err)
	}

	// Unused for eight days: gone once another folder is taken.
	old := time.Now().Add(-8 * 24 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".lock"), old, old); err != nil {
		t.Fatal(err)
	}
	_, u, err := Folder("scaffold", []byte("three"))
	if err != nil {
		t.Fatal(err)
	}
	u()
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s unused for a week is still there", dir)
	}
}
