// Package gobuild builds Go package agents with go build into a cache
// keyed by their sources, so an unchanged agent is built once.
package gobuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"arena/arena/cacheage"
	"arena/internal/childcmd"
	"arena/internal/pidsweep"
)

// NotCommandError refuses a Go package directory that is not a program.
type NotCommandError struct{ Dir, Package string }

func (e *NotCommandError) Error() string {
	return fmt.Sprintf("%s is package %s, not package main: an agent is a program (package main whose main calls sdk.Serve)", e.Dir, e.Package)
}

// builtAgentName is a built agent's folder: its source key, 32 hex digits
// (the cluster's fetched agents in the same folder have 64).
var builtAgentName = regexp.MustCompile(`^[0-9a-f]{32}$`)

// builtAgents is the cache of built agents in cacheDir: an entry's binary
// marks its use.
func builtAgents(cacheDir string) cacheage.Cache {
	return cacheage.Cache{Dir: cacheDir, Entry: builtAgentName, MarkFile: "agent"}
}

// Package builds the Go package in dir with `go build -trimpath -ldflags=-w`
// (no DWARF: a third less link, and nothing debugs a league's copy) into
// cacheDir/<key>/agent and returns the binary's path. The key hashes the
// source files of the package and of every non-standard package it
// imports (as `go list -deps` finds them), their go.mod and go.sum, and
// the Go version, so an unchanged agent is built once and any edit, here
// or in a dependency, builds anew. Files are named in the key by import
// path, not by where they lie: a trimmed build does not depend on it, so
// the same sources copied to another folder (a class's submissions
// unpacked again, a test's temporary directory) are the same build. A use
// of a built agent is marked on its binary; a new build removes the built
// agents unused for cacheage.DefaultUnused, since every edit leaves one
// behind.
func Package(ctx context.Context, dir, cacheDir string, log io.Writer) (string, error) {
	return (&Builder{CacheDir: cacheDir, Log: log}).Package(ctx, dir)
}

// Builder builds Go package agents into one cache, as Package does, and
// asks the go command for the toolchain's description (version, platform,
// module cache: part of every key) once, at its first package: a league's
// preparation builds all its Go entrants with one Builder, so a class of
// submissions pays one `go env`, not one per entrant. A Builder is for one
// goroutine and one preparation; a later one asks again, so a toolchain
// changed in between is seen.
type Builder struct {
	CacheDir string
	Log      io.Writer
	env      []byte
}

// Package builds the Go package in dir as the function Package does,
// into the builder's cache and writing to its log.
func (b *Builder) Package(ctx context.Context, dir string) (string, error) {
	return b.packageAt(ctx, dir, time.Now())
}

// toolchain is `go env`'s description of the toolchain, asked once.
func (b *Builder) toolchain(ctx context.Context) ([]byte, error) {
	if b.env == nil {
		env, err := childcmd.Command(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOMODCACHE").Output()
		if err != nil {
			return nil, fmt.Errorf("go env: %w", err)
		}
		b.env = env
	}
	return b.env, nil
}

// packageAt is Package at the time now.
func (b *Builder) packageAt(ctx context.Context, dir string, now time.Time) (string, error) {
	cacheDir, log := b.CacheDir, b.Log
	key, name, err := b.sourceKey(ctx, dir)
	if err != nil {
		return "", err
	}
	// go build of a library package writes an archive, not a program: it
	// would be entered and die in every game.
	if name != "main" {
		return "", &NotCommandError{Dir: dir, Package: name}
	}
	cache := builtAgents(cacheDir)
	bin := filepath.Join(cacheDir, key, "agent")
	if cached(cache, key, bin, now, log) {
		return bin, nil
	}
	// Reserved, the folder is fresh for a prune by another process for
	// as long as the build takes.
	if err := cache.Reserve(key, now); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	start := time.Now()
	logf(log, "building agent %s into %s…\n", dir, filepath.Dir(bin))
	// Build beside the final name and rename, so an interrupted build
	// never leaves a truncated binary under the key; a killed build's
	// files go at the next build (leftovers.go).
	pidsweep.Dir(filepath.Dir(bin), filepath.Base(bin)+".tmp-"+host()+"-", "", false)
	tmp := bin + tmpSuffix()
	work, err := newWorkDir(workRoot(cacheDir))
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	cmd := childcmd.Command(ctx, "go", "build", "-trimpath", "-ldflags=-w", "-o", tmp, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTMPDIR="+work)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build in %s: %v\n%s", dir, err, strings.TrimSpace(out.String()))
	}
	// The binary appears under the key already marked used.
	if err := os.Chtimes(tmp, now, now); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("agent cache: %w", err)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	logf(log, "built agent %s in %s\n", dir, time.Since(start).Round(100*time.Millisecond))
	prune(cache, log, now)
	return bin, nil
}

// cached says whether the binary bin of the entry key is built, and marks
// its use when the last mark is over cacheage.MarkEvery old: most hits
// cost one stat.
func cached(cache cacheage.Cache, key, bin string, now time.Time, log io.Writer) bool {
	fi, err := os.Stat(bin)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if now.Sub(fi.ModTime()) < cacheage.MarkEvery {
		return true
	}
	err = cache.MarkUsed(key, now)
	if errors.Is(err, fs.ErrNotExist) {
		return false // pruned by another process since the stat: built anew
	}
	if err != nil {
		logf(log, "agent cache %s: %v\n", cache.Dir, err)
	}
	return true
}

// prune removes the built agents unused for cacheage.DefaultUnused. It
// never fails a build: what goes wrong is only reported.
func prune(cache cacheage.Cache, log io.Writer, now time.Time) {
	n, err := cache.Prune(cacheage.DefaultUnused, now)
	if err != nil {
		logf(log, "agent cache %s: %v\n", cache.Dir, err)
	}
	if n > 0 {
		logf(log, "agent cache %s: %d built agent(s) unused for %d days removed\n", cache.Dir, n, cacheage.DefaultUnused/(24*time.Hour))
	}
}

// logf writes to log, if there is one.
func logf(log io.Writer, format string, args ...any) {
	if log != nil {
		fmt.Fprintf(log, format, args...)
	}
}

// sourceKey hashes what a build of the package in dir depends on, and
// names the package (go list -deps lists it last).
func (b *Builder) sourceKey(ctx context.Context, dir string) (key, name string, err error) {
	const format = `{{if not .Standard}}{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}}|{{join .CgoFiles ","}}|{{join .EmbedFiles ","}}|{{with .Module}}{{.Path}}|{{.GoMod}}{{else}}|{{end}}|{{.Name}}{{end}}`
	cmd := childcmd.Command(ctx, "go", "list", "-deps", "-f", format, ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go list in %s: %v\n%s", dir, err, strings.TrimSpace(stderr.String()))
	}
	env, err := b.toolchain(ctx)
	if err != nil {
		return "", "", err
	}
	envLines := strings.Split(strings.TrimSpace(string(env)), "\n")
	modCache := envLines[len(envLines)-1]
	h := sha256.New()
	h.Write(env)
	// Each file by the name a trimmed build knows it by, to its path here.
	files := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		parts := strings.Split(line, "|")
		if len(parts) != 8 {
			continue
		}
		importPath, pkgDir, modPath, gomod := parts[0], parts[1], parts[5], parts[6]
		name = parts[7]
		for _, list := range parts[2:5] {
			for _, f := range strings.Split(list, ",") {
				if f != "" {
					files[importPath+"/"+f] = filepath.Join(pkgDir, f)
				}
			}
		}
		if gomod != "" {
			files["module "+modPath+" go.mod"] = gomod
			files["module "+modPath+" go.sum"] = filepath.Join(filepath.Dir(gomod), "go.sum")
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := files[n]
		// The module cache is read-only and its paths carry versions.
		if modCache != "" && strings.HasPrefix(f, modCache+string(filepath.Separator)) {
			fmt.Fprintf(h, "%s\x00", strings.TrimPrefix(f, modCache))
			continue
		}
		body, err := os.ReadFile(f)
		if os.IsNotExist(err) && strings.HasSuffix(f, "go.sum") {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("hash agent source: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(body))
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], name, nil
}
