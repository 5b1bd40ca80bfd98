package gobuild_test

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/arena/cacheage"
	"arena/arena/league/gobuild"
	"arena/internal/forksafe"
)

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tinyAgent skips in short mode (go build is slow) and returns the folder
// of a program that does nothing and an empty cache folder.
func tinyAgent(t *testing.T) (dir, cache string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go build")
	}
	dir, cache = t.TempDir(), t.TempDir()
	write(t, dir, "go.mod", "module tiny\n\ngo 1.22\n")
	write(t, dir, "main.go", "package main\n\nfunc main() {}\n")
	return dir, cache
}

// An unchanged package is built once, wherever its folder is; an edit
// builds anew under another key; a library package is refused as not a
// program.
func TestPackageBuildsOncePerSource(t *testing.T) {
	dir, cache := tinyAgent(t)
	ctx := context.Background()
	var log bytes.Buffer
	first, err := gobuild.Package(ctx, dir, cache, &log)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(first); err != nil || fi.Mode()&0o111 == 0 || !strings.Contains(log.String(), "building agent "+dir) {
		t.Fatalf("first build: %v, log %q", err, log.String())
	}
	log.Reset()
	again, err := gobuild.Package(ctx, dir, cache, &log)
	if err != nil || again != first || log.Len() != 0 {
		t.Fatalf("unchanged: %q (%v), log %q; want the cached binary without a build", again, err, log.String())
	}
	// The same sources in another folder: the same trimmed build.
	moved := t.TempDir()
	write(t, moved, "go.mod", "module tiny\n\ngo 1.22\n")
	write(t, moved, "main.go", "package main\n\nfunc main() {}\n")
	elsewhere, err := gobuild.Package(ctx, moved, cache, &log)
	if err != nil || elsewhere != first || log.Len() != 0 {
		t.Fatalf("moved: %q (%v), log %q; want the binary built from %s without a build", elsewhere, err, log.String(), dir)
	}
	if info, err := buildinfo.ReadFile(first); err != nil || !slices.ContainsFunc(info.Settings, func(s debug.BuildSetting) bool { return s.Key == "-trimpath" && s.Value == "true" }) {
		t.Fatalf("build settings of %s: %v (%v), want -trimpath", first, info, err)
	}
	if f, err := elf.Open(first); err != nil || f.Section(".debug_info") != nil {
		t.Fatalf("%s: %v; want no DWARF (-ldflags=-w)", first, err)
	} else {
		f.Close()
	}
	write(t, dir, "main.go", "package main\n\nfunc main() { println() }\n")
	edited, err := gobuild.Package(ctx, dir, cache, nil)
	if err != nil || edited == first {
		t.Fatalf("edited: %q (%v), want a new key", edited, err)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "*", "agent.tmp*")); len(left) != 0 {
		t.Errorf("temporary builds left: %v", left)
	}
	write(t, dir, "main.go", "package tiny\n\nfunc F() {}\n")
	_, err = gobuild.Package(ctx, dir, cache, nil)
	var nc *gobuild.NotCommandError
	if !errors.As(err, &nc) || nc.Package != "tiny" {
		t.Fatalf("a library package: %v, want NotCommandError", err)
	}
	write(t, dir, "main.go", "package main\n\nfunc main() { undefined() }\n")
	if _, err = gobuild.Package(ctx, dir, cache, nil); err == nil || !strings.Contains(err.Error(), "undefined") {
		t.Fatalf("a build error: %v, want go build's message", err)
	}
}

// mkEntry makes a cache entry name whose file mark was last changed at at.
func mkEntry(t *testing.T, cache, name, mark string, at time.Time) string {
	t.Helper()
	p := filepath.Join(cache, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, mark, "x")
	if err := os.Chtimes(filepath.Join(p, mark), at, at); err != nil {
		t.Fatal(err)
	}
	return p
}

// A new build removes the built agents unused for five days and nothing
// else (not the cluster's fetched agents beside them); a hit marks its
// binary used when the last mark is over an hour old, and only then.
func TestPackageAgesTheCache(t *testing.T) {
	dir, cache := tinyAgent(t)
	ctx := context.Background()
	now := time.Now()
	old := now.Add(-cacheage.DefaultUnused - time.Minute)
	unused := mkEntry(t, cache, strings.Repeat("a", 32), "agent", old)
	kept := []string{
		mkEntry(t, cache, strings.Repeat("b", 32), "agent", now.Add(-cacheage.DefaultUnused+time.Hour)),
		mkEntry(t, cache, strings.Repeat("c", 64), "entry", old),
		mkEntry(t, cache, "openings", "suite", old),
	}
	var log bytes.Buffer
	bin, err := gobuild.PackageAt(ctx, dir, cache, &log, now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "1 built agent(s) unused for 5 days removed") {
		t.Errorf("build log %q, want the removal reported", log.String())
	}
	if _, err := os.Stat(unused); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("unused built agent: %v, want removed", err)
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v, want kept", filepath.Base(p), err)
		}
	}
	later := now.Add(3 * time.Hour)
	for _, c := range []struct {
		last, want time.Time
	}{
		{later.Add(-2 * time.Hour), later},                           // marked
		{later.Add(-30 * time.Minute), later.Add(-30 * time.Minute)}, // marked less than an hour ago
	} {
		if err := os.Chtimes(bin, c.last, c.last); err != nil {
			t.Fatal(err)
		}
		log.Reset()
		got, err := gobuild.PackageAt(ctx, dir, cache, &log, later)
		if err != nil || got != bin || log.Len() != 0 {
			t.Fatalf("hit: %q (%v), log %q; want the cached binary", got, err, log.String())
		}
		if fi, err := os.Stat(bin); err != nil || !fi.ModTime().Equal(c.want) {
			t.Errorf("last marked %v: binary's time %v (%v), want %v", c.last, fi.ModTime(), err, c.want)
		}
	}
}

// What goes wrong in a prune is reported to the build's log, and a missing
// folder is nothing to report.
func TestPruneReportsErrors(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	gobuild.PruneBuilt(filepath.Join(dir, "missing"), &log, time.Now())
	if log.Len() != 0 {
		t.Errorf("a missing folder: log %q", log.String())
	}
	notDir := filepath.Join(dir, "file")
	write(t, dir, "file", "")
	gobuild.PruneBuilt(notDir, &log, time.Now())
	if !strings.Contains(log.String(), "agent cache "+notDir) {
		t.Errorf("a folder that is a file: log %q, want the error", log.String())
	}
}

// A Builder asks go env once for all its packages, and go list once per
// package; Package, a builder of its own each call, asks go env every time.
func TestBuilderAsksGoEnvOnce(t *testing.T) {
	dir, cache := tinyAgent(t)
	other := t.TempDir()
	write(t, other, "go.mod", "module other\n\ngo 1.22\n")
	write(t, other, "main.go", "package main\n\nfunc main() { println() }\n")
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	// A stand-in go on PATH that writes down each command and runs the
	// real one.
	bin := t.TempDir()
	calls := filepath.Join(bin, "calls")
	if err := forksafe.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\necho \"$1\" >> "+calls+"\nexec "+realGo+" \"$@\"\n")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	count := func() map[string]int {
		b, _ := os.ReadFile(calls)
		n := map[string]int{}
		for _, c := range strings.Fields(string(b)) {
			n[c]++
		}
		os.Remove(calls)
		return n
	}
	ctx := context.Background()
	b := &gobuild.Builder{CacheDir: cache}
	for _, d := range []string{dir, other, dir} {
		if _, err := b.Package(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(); n["env"] != 1 || n["list"] != 3 || n["build"] != 2 {
		t.Errorf("one builder, three packages (two distinct): go commands %v, want env 1, list 3, build 2", n)
	}
	for range 2 {
		if _, err := gobuild.Package(ctx, dir, cache, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(); n["env"] != 2 || n["list"] != 2 || n["build"] != 0 {
		t.Errorf("Package twice, built already: go commands %v, want env 2, list 2, build 0", n)
	}
}
