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
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"arena/arena/cacheage"
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
	return usedFolder("test-programs", key.Sum(nil))
}

// usedFolder is the folder named by the digest sum in the user's cache's
// arena/cache, marked used (made where it is new): use.
func usedFolder(cache string, sum []byte) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	c := folders(filepath.Join(base, "arena", cache))
	name := hex.EncodeToString(sum[:12])
	if err := use(c, name, time.Now()); err != nil {
		return "", err
	}
	return filepath.Join(c.Dir, name), nil
}

// Folder gives a test a folder in the user's cache that outlives its run,
// named by kind and key (a digest of what the test puts there), and holds
// the folder's lock until unlock, so two runs with the same content take
// turns. A student's copy of a generated agent, built and tested there
// with the go command, then costs a later run with the same content the
// go command's checks instead of two links: go build leaves a program
// whose build ID is current alone, and go test reports the pass it cached
// for the same test binary. Both are keyed by content, the sources of
// every dependency included, so an edit anywhere builds and tests anew.
// Folders no run has used for a week are removed, as program folders are.
// An error (no cache folder for this user) leaves the caller to use a
// temporary folder of its own.
func Folder(kind string, key []byte) (dir string, unlock func(), err error) {
	sum := sha256.New()
	sum.Write([]byte(kind + "\x00"))
	sum.Write(key)
	if dir, err = usedFolder("test-folders", sum.Sum(nil)); err != nil {
		return "", nil, err
	}
	if unlock, err = lock(dir); err != nil {
		return "", nil, err
	}
	return dir, unlock, nil
}

// folderName is a cache folder's name: 12 bytes of its key in hex.
var folderName = regexp.MustCompile(`^[0-9a-f]{24}$`)

// folders is the cache of program folders in root, each folder's last use
// the time of its lock file.
func folders(root string) cacheage.Cache {
	return cacheage.Cache{Dir: root, Entry: folderName, MarkFile: ".lock"}
}

// use marks the folder name used at now, making it where it is new (or
// was just removed by another run), and removes the folders no run has
// used for a week (a removed clone's, an old build's), keeping the cache
// from growing with every checkout tested. cacheage's lock keeps a
// folder being marked from being removed.
func use(c cacheage.Cache, name string, now time.Time) error {
	err := c.MarkUsed(name, now)
	if errors.Is(err, fs.ErrNotExist) {
		err = c.Reserve(name, now)
	}
	if err != nil {
		return err
	}
	_, _ = c.Prune(stale, now) // a folder left is only disk, and the next run's to remove
	return nil
}

// lock holds the folder's lock file: two runs of the same tests install
// one after the other, so neither links a program the other is still
// writing. The lock file's time, set by use, says when the folder was
// last used.
func lock(folder string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(folder, ".lock"), os.O_CREATE|os.O_RDWR|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("program cache %s: %w", folder, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("program cache %s: lock: %w", folder, err)
	}
	return func() { f.Close() }, nil
}
