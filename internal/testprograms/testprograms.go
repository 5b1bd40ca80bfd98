// Package testprograms gives tests the Go programs they run (the arena as
// a command, the sandbox's init, fixture agents) without linking them
// again on every run. The programs are installed with `go install` into a
// folder kept in the user's cache between runs: go install links only
// when the program's build ID, which covers its sources, its dependencies,
// the toolchain, the flags and the VCS stamp, differs from the installed
// program's. An unchanged program costs a go command's check (about
// 0.7 CPU seconds for the arena and four programs beside it) instead of
// its links (7 CPU seconds).
//
// The cache is keyed by content in that sense: an edit relinks what it
// touches, and nothing is ever taken from the cache that go install would
// build differently.
package testprograms

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"arena/internal/forksafe"
)

// NoDWARF is the flag most test programs are built with: nothing debugs
// them, and DWARF is a third of a link.
const NoDWARF = "-ldflags=-w"

// stale is how long a cache folder unused by any run is kept.
const stale = 7 * 24 * time.Hour

// Install builds the main packages at pkgs (paths relative to dir, or
// import paths) with the build flags given, in one go command, and puts
// each program in into, named as go build names it (the last element of
// its import path). into must exist; the programs put there are the test
// run's own: a later run that installs changed programs into the cache
// never touches them.
//
// Where the user has no cache folder, the programs are built into into
// directly, as `go build -o into/` would.
func Install(dir, into string, flags []string, pkgs ...string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	cache, err := folder(dir, flags, pkgs)
	if err != nil {
		return build(dir, into, flags, pkgs)
	}
	unlock, err := lock(cache)
	if err != nil {
		return err
	}
	defer unlock()
	cmd := exec.Command("go", append(append([]string{"install"}, flags...), pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOBIN="+cache)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go install %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	// The programs get one time, as programs linked by one go build have:
	// the arena takes a lean host much older than itself for one left by
	// an earlier build, and go install leaves an unchanged program's time
	// as it was. (A hard link shares the cache's file and its time; go
	// install goes by the build ID in the file, not by its time.)
	now := time.Now()
	for _, pkg := range pkgs {
		name := programName(dir, pkg)
		dst := filepath.Join(into, name)
		if err := place(filepath.Join(cache, name), dst); err != nil {
			return err
		}
		if err := os.Chtimes(dst, now, now); err != nil {
			return fmt.Errorf("program %s: %w", dst, err)
		}
	}
	return nil
}

// build is Install without a cache: one go build into into.
func build(dir, into string, flags, pkgs []string) error {
	args := append(append([]string{"build"}, flags...), "-o", into+string(filepath.Separator))
	cmd := exec.Command("go", append(args, pkgs...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return nil
}

// programName is the name go build gives the program of pkg; dir is
// absolute.
func programName(dir, pkg string) string {
	if strings.HasPrefix(pkg, ".") {
		return filepath.Base(filepath.Join(dir, pkg))
	}
	return filepath.Base(pkg)
}

// place puts the installed program at dst: a hard link where the cache
// and dst share a file system, so a later install (which replaces the
// cache's file, never rewrites it) leaves this run's program as it was;
// else a copy.
func place(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	if err := forksafe.Copy(src, dst); err != nil {
		return fmt.Errorf("program %s: %w", dst, err)
	}
	return nil
}

// folder is the cache folder of this set of packages and flags from this
// directory: two checkouts, or two sets of programs, never share one, so
// an install never replaces a program another set's folder holds.
func folder(dir string, flags, pkgs []string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	key := sha256.New()
	key.Write([]byte(dir))
	sorted := slices.Clone(pkgs)
	slices.Sort(sorted)
	for _, s := range sorted {
		key.Write([]byte("\x00" + s))
	}
	for _, s := range flags {
		key.Write([]byte("\x01" + s))
	}
	root := filepath.Join(base, "arena", "test-programs")
	f := filepath.Join(root, hex.EncodeToString(key.Sum(nil)[:12]))
	if err := os.MkdirAll(f, 0o755); err != nil {
		return "", err
	}
	sweep(root, f)
	return f, nil
}

// lock holds the folder's lock file: two runs of the same tests install
// one after the other, so neither links a program the other is still
// writing. The lock file's time says when the folder was last used.
func lock(folder string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(folder, ".lock"), os.O_CREATE|os.O_RDWR|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("program cache %s: %w", folder, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("program cache %s: lock: %w", folder, err)
	}
	now := time.Now()
	_ = os.Chtimes(f.Name(), now, now)
	return func() { f.Close() }, nil
}

// sweep removes the folders of checkouts no run has used for a week (a
// removed clone's, an old build's), keeping the cache from growing with
// every checkout tested.
func sweep(root, keep string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		if p == keep || !e.IsDir() {
			continue
		}
		fi, err := os.Stat(filepath.Join(p, ".lock"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && time.Since(fi.ModTime()) < stale {
			continue
		}
		if err != nil {
			// No lock file: a folder being made this moment, or one
			// left half made; only an old one goes.
			if di, derr := os.Stat(p); derr != nil || time.Since(di.ModTime()) < stale {
				continue
			}
		}
		_ = os.RemoveAll(p)
	}
}
