package gobuild_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league/gobuild"
)

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An unchanged package is built once; an edit builds anew under another
// key; a library package is refused as not a program.
func TestPackageBuildsOncePerSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build twice")
	}
	ctx := context.Background()
	dir, cache := t.TempDir(), t.TempDir()
	write(t, dir, "go.mod", "module tiny\n\ngo 1.22\n")
	write(t, dir, "main.go", "package main\n\nfunc main() {}\n")
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
