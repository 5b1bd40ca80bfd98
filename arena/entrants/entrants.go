// Package entrants turns a folder of submissions into agent references: one
// entrant per file or subfolder, named after it, its kind detected from
// what it holds or stated in a manifest file beside its code.
//
// A class's submissions arrive as a folder (one subfolder or file per
// student) or as files matching a pattern; staff should not have to write
// two hundred agent entries by hand, and a submission the arena cannot
// classify must be named with the fix, not guessed at.
package entrants

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ManifestName is the file in a submission's folder that states its kind
// when detection cannot (or should not) decide.
const ManifestName = "arena-entrant.yaml"

// Kinds of submission, as a manifest names them.
const (
	KindBinary = "binary" // an executable built with the arena SDK
	KindGo     = "go"     // a Go package directory (package main, the SDK)
	KindLua    = "lua"    // a Lua script
	KindCourse = "course" // a course agent: COMP424 repository, Cachex package, Python script or module
)

// Entrant is one submission.
type Entrant struct {
	// Name is the entrant's name in the league: the file or folder name
	// (a file without its extension), or the manifest's name.
	Name string
	// Source is the file or folder the entrant was found at.
	Source string
	// Kind is how it runs (KindBinary, KindGo, KindLua, KindCourse).
	Kind string
	// Ref is the agent reference a league entry takes: a path, lua:PATH
	// or course:PATH[?options].
	Ref string
	// Options are the manifest's options (passed in the reference for
	// course agents, as agent options for the others).
	Options map[string]string
	// Why says how the kind was decided, for the pre-flight report.
	Why string
}

// Refusal is a submission that cannot enter: what it is, why, and the fix.
type Refusal struct {
	// Name is the entrant's name where it has one (a submission refused
	// after it was classified); empty for one that could not be.
	Name   string
	Source string
	Reason string
	Fix    string
}

func (r Refusal) Error() string {
	return fmt.Sprintf("%s: %s (%s)", r.Source, r.Reason, r.Fix)
}

// Found is what a scan found: the entrants, and the submissions refused
// before any game (which a league reports and plays without).
type Found struct {
	Entrants []Entrant
	Refused  []Refusal
}

// FromDir scans dir: every subfolder and every file in it (hidden ones and
// the manifest excepted) is one entrant. Two that would get the same name
// are an error naming both; so is a folder that is not there.
func FromDir(dir string) (*Found, error) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("entrants: %w", err)
	}
	var paths []string
	for _, e := range list {
		if strings.HasPrefix(e.Name(), ".") || e.Name() == ManifestName {
			continue
		}
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	return classifyAll(paths, func(p string) string { return baseName(p) })
}

// FromGlob takes every path matching pattern (filepath.Match syntax) as one
// entrant, named after the path element the pattern's first wildcard
// matched: "subs/*/bot.py" names subs/alice/bot.py "alice", and "subs/*.lua"
// names subs/bob.lua "bob".
func FromGlob(pattern string) (*Found, error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("entrants: pattern %q: %w", pattern, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("entrants: pattern %q matches nothing", pattern)
	}
	depth := wildcardDepth(pattern)
	return classifyAll(paths, func(p string) string {
		parts := strings.Split(filepath.Clean(p), string(filepath.Separator))
		if filepath.IsAbs(p) {
			parts = parts[1:]
		}
		if depth < len(parts) {
			return trimExt(parts[depth])
		}
		return baseName(p)
	})
}

// wildcardDepth is the index of the pattern's first path element holding
// a wildcard.
func wildcardDepth(pattern string) int {
	parts := strings.Split(filepath.Clean(pattern), string(filepath.Separator))
	if filepath.IsAbs(pattern) {
		parts = parts[1:]
	}
	for i, p := range parts {
		if strings.ContainsAny(p, "*?[") {
			return i
		}
	}
	return len(parts) - 1
}

func classifyAll(paths []string, name func(string) string) (*Found, error) {
	sort.Strings(paths)
	found := &Found{}
	byName := map[string]string{}
	for _, p := range paths {
		e, err := Classify(p)
		var r *Refusal
		if errors.As(err, &r) {
			found.Refused = append(found.Refused, *r)
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Name == "" {
			e.Name = name(p)
		}
		if other, dup := byName[e.Name]; dup {
			return nil, fmt.Errorf("entrants: %s and %s would both be named %q: rename one, or give one a name in its %s", other, p, e.Name, ManifestName)
		}
		byName[e.Name] = p
		found.Entrants = append(found.Entrants, *e)
	}
	return found, nil
}

func baseName(p string) string {
	fi, err := os.Stat(p)
	if err == nil && fi.IsDir() {
		return filepath.Base(p)
	}
	return trimExt(filepath.Base(p))
}

func trimExt(s string) string {
	if ext := filepath.Ext(s); ext != "" && ext != s {
		return strings.TrimSuffix(s, ext)
	}
	return s
}
