package clitest

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

// The programs the command tests run, as paths from the module's root.
const (
	// ArenaPkg is the arena command itself.
	ArenaPkg = "./cmd/arena"
	// InitPkg is the sandbox's init, which every in-process test starts.
	InitPkg = "./cmd/arena-init"
	// LeanHostPkg is the lean agent host, which serves the in-process
	// tests' built-in, Lua and course agents, as it does beside an
	// installed arena.
	LeanHostPkg = "./cmd/arena-agent"
	// SDKAgentPkg is the smallest agent an author writes with the SDK.
	SDKAgentPkg = "./cmd/arena/internal/clitest/testdata/sdkagent"
	// CheckFixturePkg is an agent whose program name picks how it fails
	// a check.
	CheckFixturePkg = "./cmd/arena/internal/clitest/testdata/checkfixture"
)

// allPrograms are the packages the full run links besides the lean pair
// the in-process tests start: the arena with its init and lean agent host
// beside it, as the README's build leaves them, and the fixture agents.
// One `go build` links them, loading the module once.
var allPrograms = []string{ArenaPkg, InitPkg, LeanHostPkg, SDKAgentPkg, CheckFixturePkg}

// leanPrograms are what every in-process test starts: the sandbox's init
// and the lean agent host. They are linked on their own (a few seconds of
// CPU), so a test that needs only them does not wait for the arena's link.
var leanPrograms = []string{InitPkg, LeanHostPkg}

// builds gives each Go program the tests run once per test binary run, in
// one directory Main removes. They come from internal/testprograms'
// cache, so a run links only the programs whose sources changed since the
// last run: linking was most of what these tests cost.
var builds = &goBuilds{built: map[string]*goBuild{}}

type goBuilds struct {
	mu    sync.Mutex
	dir   string
	built map[string]*goBuild
}

// goBuild is one `go build` of one or more packages into its own folder.
type goBuild struct {
	once sync.Once
	dir  string
	err  error
}

// Root is the module's root directory, which the packages' paths and the
// tests' shared files (configs, games' vectors) are found from: the first
// directory up from the test's starting one with the arena's go.mod.
var Root = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(fmt.Sprintf("the test's working directory: %v", err))
	}
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.HasPrefix(string(b), "module arena\n") {
			return d
		}
		if filepath.Dir(d) == d {
			panic("no arena go.mod above " + dir)
		}
	}
})

// Path is a file of the module, given from its root.
func Path(rel string) string { return filepath.Join(Root(), rel) }

// Binary is the program of the package at pkg (one of the constants
// above, or a path from the module's root), built on first use.
func Binary(pkg string) (string, error) {
	pkgs := []string{pkg}
	switch {
	case slices.Contains(leanPrograms, pkg):
		pkgs = leanPrograms
	case slices.Contains(allPrograms, pkg):
		pkgs = allPrograms
	}
	dir, err := builds.programs(pkgs...)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("go build %s: no program %s: %w", pkg, bin, err)
	}
	return bin, nil
}

// LeanPrograms are the lean agent host and the sandbox's init, which
// every in-process test's agents start with (NewEnv's agentHost and init).
func LeanPrograms(t *testing.T) (agentHost, init string) {
	t.Helper()
	agentHost, err := Binary(LeanHostPkg)
	if err == nil {
		init, err = Binary(InitPkg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return agentHost, init
}

// BuildArena is the arena binary, with its init and lean agent host
// beside it; it skips the test under -short.
func BuildArena(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the arena binary")
	}
	bin, err := Binary(ArenaPkg)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuiltCopy is a private copy of the package's program at path, for a
// test that names it (the check fixture's mode is its name) or changes
// its mode.
func BuiltCopy(t *testing.T, pkg, path string) {
	t.Helper()
	src, err := Binary(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if err := forksafe.Copy(src, path); err != nil {
		t.Fatal(err)
	}
}

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
		g.err = testprograms.Install(Root(), g.dir, []string{testprograms.NoDWARF}, pkgs...)
	})
	return g.dir, g.err
}

// remove deletes every program built.
func (b *goBuilds) remove() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dir == "" {
		return nil
	}
	return os.RemoveAll(b.dir)
}
