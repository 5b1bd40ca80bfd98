package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// builds links each Go program the tests run once per test binary run,
// into one directory TestMain removes: the arena itself for the tests that
// run it as a command, and the agents under testdata. Linking is most of
// what those tests cost, and every test runs the same program.
var builds = &goBuilds{built: map[string]*goBuild{}}

type goBuilds struct {
	mu    sync.Mutex
	dir   string
	built map[string]*goBuild
}

type goBuild struct {
	once sync.Once
	path string
	err  error
}

// binary is the program of the package at pkg (relative to this
// directory), built on first use.
func (b *goBuilds) binary(pkg string) (string, error) {
	b.mu.Lock()
	if b.dir == "" {
		dir, err := os.MkdirTemp("", "arena-cmd-test-")
		if err != nil {
			b.mu.Unlock()
			return "", fmt.Errorf("a directory for built programs: %w", err)
		}
		b.dir = dir
	}
	g := b.built[pkg]
	if g == nil {
		g = &goBuild{path: filepath.Join(b.dir, fmt.Sprint(len(b.built)), filepath.Base(filepath.Clean(pkg)))}
		b.built[pkg] = g
	}
	b.mu.Unlock()
	g.once.Do(func() {
		if err := os.MkdirAll(filepath.Dir(g.path), 0o755); err != nil {
			g.err = err
			return
		}
		if out, err := exec.Command("go", "build", "-o", g.path, pkg).CombinedOutput(); err != nil {
			g.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	return g.path, g.err
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
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatalf("copy %s to %s: %v", src, path, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
