package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"arena/internal/forksafe"
	"arena/internal/testprograms"
)

// builds gives each Go program the tests run once per test binary run,
// in one directory TestMain removes: the arena itself for the tests that
// run it as a command, the sandbox's init, and the agents under testdata.
// They come from internal/testprograms' cache, so a run links only the
// programs whose sources changed since the last run: linking was most of
// what those tests cost.
var builds = newGoBuilds()

type goBuilds struct {
	// src is the package's directory, which the packages' relative paths
	// are from: the working directory the test binary starts in, taken
	// before any test moves it (t.Chdir).
	src   string
	mu    sync.Mutex
	dir   string
	built map[string]*goBuild
}

func newGoBuilds() *goBuilds {
	src, err := os.Getwd()
	if err != nil {
		panic(fmt.Sprintf("the test's working directory: %v", err))
	}
	return &goBuilds{src: src, built: map[string]*goBuild{}}
}

// goBuild is one `go build` of one or more packages into its own folder.
type goBuild struct {
	once sync.Once
	dir  string
	err  error
}

// allPrograms are the packages (relative to this directory) the full run
// links besides the lean pair the in-process tests start: the arena with
// its init and lean agent host beside it, as the README's build leaves
// them, and the agents under testdata. One `go build` links them, loading
// the module once.
var allPrograms = []string{".", initPkg, leanHostPkg, "./testdata/sdkagent", "./testdata/checkfixture"}

// leanPrograms are what every in-process test starts: the sandbox's init
// and the lean agent host. They are linked on their own (a few seconds of
// CPU), so a test that needs only them does not wait for the arena's link.
var leanPrograms = []string{initPkg, leanHostPkg}

// binary is the program of the package at pkg (relative to this
// directory), built on first use.
func (b *goBuilds) binary(pkg string) (string, error) {
	pkgs := []string{pkg}
	switch {
	case slices.Contains(leanPrograms, pkg):
		pkgs = leanPrograms
	case slices.Contains(allPrograms, pkg):
		pkgs = allPrograms
	}
	dir, err := b.programs(pkgs...)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, filepath.Base(filepath.Join(b.src, pkg)))
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("go build %s: no program %s: %w", pkg, bin, err)
	}
	return bin, nil
}

// initPkg is the sandbox's init, which every in-process test starts.
const initPkg = "../arena-init"

// leanHostPkg is the lean agent host (cmd/arena-agent), which serves the
// in-process tests' built-in, Lua and course agents, as it does beside an
// installed arena.
const leanHostPkg = "../arena-agent"

// prefetch starts linking allPrograms in the background when the run is
// the whole package without -short: the serial tests, which run first and
// mostly wait on their agents, leave a core free for the link that the
// parallel tests then find done. The returned channel is closed when the
// link has ended.
func (b *goBuilds) prefetch() <-chan struct{} {
	done := make(chan struct{})
	if testing.Short() || flag.Lookup("test.run").Value.String() != "" {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		_, _ = b.programs(allPrograms...) // a failure is the first test's to report
	}()
	return done
}

// programs puts the programs of the packages at pkgs, built by one go
// command, into a folder of their own, each named as go build names it
// (the last element of its import path), and returns the folder. One call
// gives programs that must sit side by side (the arena and its init), and
// pays the go command's loading of the module once for all of them.
func (b *goBuilds) programs(pkgs ...string) (string, error) {
	key := strings.Join(pkgs, "\x00")
	b.mu.Lock()
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "arena-cmd-test-")
		if err != nil {
			b.mu.Unlock()
			return "", fmt.Errorf("a directory for built programs: %w", err)
		}
		b.dir = dir
	}
	g := b.built[key]
	if g == nil {
		g = &goBuild{dir: filepath.Join(b.dir, fmt.Sprint(len(b.built)))}
		b.built[key] = g
	}
	b.mu.Unlock()
	g.once.Do(func() {
		if err := os.MkdirAll(g.dir, 0o755); err != nil {
			g.err = err
			return
		}
		g.err = testprograms.Install(b.src, g.dir, []string{testprograms.NoDWARF}, pkgs...)
	})
	return g.dir, g.err
}

// remove deletes every program built.
func (b *goBuilds) remove() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

// builtCopy is a private copy of the package's program at path, for a test
// that names it (the check fixture's mode is its name) or changes its mode.
func builtCopy(t *testing.T, pkg, path string) {
	t.Helper()
	src, err := builds.binary(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if err := forksafe.Copy(src, path); err != nil {
		t.Fatal(err)
	}
}
