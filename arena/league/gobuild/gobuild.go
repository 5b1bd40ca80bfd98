// Package gobuild builds Go package agents with go build into a cache
// keyed by their sources, so an unchanged agent is built once.
package gobuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// NotCommandError refuses a Go package directory that is not a program.
type NotCommandError struct{ Dir, Package string }

func (e *NotCommandError) Error() string {
	return fmt.Sprintf("%s is package %s, not package main: an agent is a program (package main whose main calls sdk.Serve)", e.Dir, e.Package)
}

// Package builds the Go package in dir with `go build` into
// cacheDir/<key>/agent and returns the binary's path. The key hashes the
// source files of the package and of every non-standard package it
// imports (as `go list -deps` finds them), their go.mod and go.sum, and
// the Go version, so an unchanged agent is built once and any edit, here
// or in a dependency, builds anew.
func Package(ctx context.Context, dir, cacheDir string, log io.Writer) (string, error) {
	key, name, err := sourceKey(ctx, dir)
	if err != nil {
		return "", err
	}
	// go build of a library package writes an archive, not a program: it
	// would be entered and die in every game.
	if name != "main" {
		return "", &NotCommandError{Dir: dir, Package: name}
	}
	bin := filepath.Join(cacheDir, key, "agent")
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	start := time.Now()
	if log != nil {
		fmt.Fprintf(log, "building agent %s into %s…\n", dir, filepath.Dir(bin))
	}
	// Build beside the final name and rename, so an interrupted build
	// never leaves a truncated binary under the key.
	tmp := bin + ".tmp" + fmt.Sprint(os.Getpid())
	cmd := exec.CommandContext(ctx, "go", "build", "-o", tmp, ".")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build in %s: %v\n%s", dir, err, strings.TrimSpace(out.String()))
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	if log != nil {
		fmt.Fprintf(log, "built agent %s in %s\n", dir, time.Since(start).Round(100*time.Millisecond))
	}
	return bin, nil
}

// sourceKey hashes what a build of the package in dir depends on, and
// names the package (go list -deps lists it last).
func sourceKey(ctx context.Context, dir string) (key, name string, err error) {
	const format = `{{if not .Standard}}{{.Dir}}|{{join .GoFiles ","}}|{{join .CgoFiles ","}}|{{join .EmbedFiles ","}}|{{with .Module}}{{.GoMod}}{{end}}|{{.Name}}{{end}}`
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", format, ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go list in %s: %v\n%s", dir, err, strings.TrimSpace(stderr.String()))
	}
	env, err := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOMODCACHE").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env: %w", err)
	}
	envLines := strings.Split(strings.TrimSpace(string(env)), "\n")
	modCache := envLines[len(envLines)-1]
	h := sha256.New()
	h.Write(env)
	files := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 6 {
			continue
		}
		name = parts[5]
		pkgDir := parts[0]
		for _, list := range parts[1:4] {
			for _, f := range strings.Split(list, ",") {
				if f != "" {
					files[filepath.Join(pkgDir, f)] = true
				}
			}
		}
		if gomod := parts[4]; gomod != "" {
			files[gomod] = true
			files[filepath.Join(filepath.Dir(gomod), "go.sum")] = true
		}
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		// The module cache is read-only and its paths carry versions.
		if modCache != "" && strings.HasPrefix(f, modCache+string(filepath.Separator)) {
			fmt.Fprintf(h, "%s\x00", f)
			continue
		}
		body, err := os.ReadFile(f)
		if os.IsNotExist(err) && strings.HasSuffix(f, "go.sum") {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("hash agent source: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(body))
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], name, nil
}
