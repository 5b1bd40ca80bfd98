package lua

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Prefix starts every Lua agent reference.
const Prefix = "lua:"

// DefaultMemoryMB is the heap cap of a Lua agent process when the
// reference sets no "mem" parameter. Several course profiles have no memory
// limit at all, so the host needs its own.
const DefaultMemoryMB = 512

// minMemoryMB keeps "mem" above what the host itself needs to run.
const minMemoryMB = 16

// Ref is a parsed Lua agent reference.
type Ref struct {
	Path     string            // the script file
	Params   map[string]string // the query parameters, "mem" included
	MemoryMB int               // the heap cap
}

// ParseRef reads "lua:PATH" or "lua:PATH?k=v&k2=v2". The path may not
// contain '?'.
func ParseRef(ref string) (Ref, error) {
	rest, ok := strings.CutPrefix(ref, Prefix)
	if !ok {
		return Ref{}, fmt.Errorf("agent %q is not a Lua reference (want %sPATH.lua)", ref, Prefix)
	}
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return Ref{}, fmt.Errorf("agent %q: no script path", ref)
	}
	r := Ref{Path: path, Params: map[string]string{}, MemoryMB: DefaultMemoryMB}
	if query != "" {
		q, err := url.ParseQuery(query)
		if err != nil {
			return Ref{}, fmt.Errorf("agent %q: parameters: %w", ref, err)
		}
		for k, vs := range q {
			if k == "" {
				return Ref{}, fmt.Errorf("agent %q: parameter with an empty name", ref)
			}
			r.Params[k] = vs[len(vs)-1]
		}
	}
	if v, ok := r.Params["mem"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < minMemoryMB {
			return Ref{}, fmt.Errorf("agent %q: mem=%q: want a whole number of MiB, at least %d", ref, v, minMemoryMB)
		}
		r.MemoryMB = n
	}
	return r, nil
}

// CheckRef is the arena's preflight for agent references: for a Lua
// reference it checks the parameters and compiles the script, reporting a
// syntax error as "file:line: message"; other references pass.
func CheckRef(ref string) error {
	if !strings.HasPrefix(ref, Prefix) {
		return nil
	}
	r, err := ParseRef(ref)
	if err != nil {
		return err
	}
	return Check(r.Path)
}
