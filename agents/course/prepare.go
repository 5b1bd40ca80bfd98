package course

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"

	"arena/plugins/sandbox"
)

// Prepare readies a course agent before its process starts, in the arena
// (outside any sandbox): ref is "course:/abs/path?query" as the agent
// host will get it. It returns the reference to give the agent host and
// the folders the agent reads as its course's framework did, which the
// sandbox shows read-only at their own paths:
//
//   - a file (a hex cross-out script, a Dots-and-Boxes bot module): its
//     folder, where the script runs and finds the modules beside it;
//   - a package folder (Cachex, it holds __init__.py): its parent, which
//     the course referee had on the import path, so sibling packages
//     import as they did;
//   - any other folder (a COMP424 repository): the repository, where the
//     client runs. Its src/ is compiled here, into the shared cache (the
//     sandbox cannot write it), and the reference names that cache; only
//     this repository's entry of the cache is shown to the agent.
//
// Settings the agent host reads from the arena's environment
// (ARENA_PYTHON, ARENA_COURSE_CACHE), which a sandboxed agent does not
// inherit, become options of the reference. When sandboxed, an
// interpreter the agent's unprivileged id could not run (a pyenv shim
// under /root) is refused here, naming it.
func Prepare(ctx context.Context, ref string, sandboxed bool) (string, []string, error) {
	return prepare(ctx, ref, sandboxed, nil)
}

func prepare(ctx context.Context, ref string, sandboxed bool, progress io.Writer) (string, []string, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return "", nil, err
	}
	if !filepath.IsAbs(r.Path) {
		return "", nil, fmt.Errorf("agent %s: want an absolute path", ref)
	}
	fi, err := os.Stat(r.Path)
	if err != nil {
		return "", nil, fmt.Errorf("agent %s: %w", ref, err)
	}
	var trees []string
	switch {
	case !fi.IsDir():
		trees = append(trees, filepath.Dir(r.Path))
		if err := preparePython(&r, sandboxed); err != nil {
			return "", nil, err
		}
	case isFile(filepath.Join(r.Path, "__init__.py")):
		trees = append(trees, filepath.Dir(r.Path))
		if err := preparePython(&r, sandboxed); err != nil {
			return "", nil, err
		}
	default:
		trees = append(trees, r.Path)
		entry, err := prepareJava(ctx, &r, sandboxed, progress)
		if err != nil {
			return "", nil, err
		}
		if entry != "" {
			trees = append(trees, entry)
		}
	}
	return r.String(), trees, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// preparePython pins the interpreter the agent host will use.
func preparePython(r *Ref, sandboxed bool) error {
	if r.Params["python"] == "" {
		if p := os.Getenv("ARENA_PYTHON"); p != "" {
			r.Params["python"] = p
		}
	}
	py, err := python(*r)
	if err != nil {
		return err
	}
	if sandboxed {
		if err := runnableInside(py, "python interpreter", "?python=/usr/bin/python3 or ARENA_PYTHON=/usr/bin/python3"); err != nil {
			return err
		}
	}
	return nil
}

// prepareJava compiles a COMP424 repository into the cache and names the
// cache in r; it returns the cache entry the agent must read ("" when the
// repository runs from its committed bin/, or is not a course repository:
// the adapter then reports what is missing).
func prepareJava(ctx context.Context, r *Ref, sandboxed bool, progress io.Writer) (string, error) {
	if !isFile(filepath.Join(r.Path, "src", "boardgame", "Client.java")) {
		return "", nil
	}
	base, err := cacheDir(*r)
	if err != nil {
		return "", err
	}
	r.Params["cache"] = base
	b, err := buildJava(ctx, *r, or(r.Params["class"], defaultStudentClass), progress)
	if err != nil {
		return "", err
	}
	entry := filepath.Dir(b.Classpath)
	if fi, err := os.Stat(entry); err == nil && fi.Mode().Perm()&0o005 != 0o005 {
		// An entry compiled by an older arena, private to its user.
		if err := os.Chmod(entry, 0o755); err != nil {
			return "", fmt.Errorf("cache %s: %w", entry, err)
		}
	}
	if sandboxed {
		java, err := lookRuntime(or(r.Params["java"], "java"), aptJava)
		if err != nil {
			return "", err
		}
		if err := runnableInside(java, "java launcher", "?java=/usr/bin/java"); err != nil {
			return "", err
		}
	}
	return entry, nil
}

// runnableInside refuses a runtime the sandboxed agent's id cannot run:
// the sandbox shows the agent's own folders, not the runtime's.
func runnableInside(prog, what, fix string) error {
	abs, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, prog, err)
	}
	cover, err := sandbox.Reach(abs, true)
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, prog, err)
	}
	if cover != "" {
		name := prog
		if abs != prog {
			name += " (" + abs + ")"
		}
		return fmt.Errorf("%s %s lies under %s, which sandboxed agents (an unprivileged user) cannot enter; use a system one (e.g. %s; Debian: %s)",
			what, name, cover, fix, map[string]string{"python interpreter": aptPython, "java launcher": aptJava}[what])
	}
	return nil
}

// String writes the reference back as "course:PATH[?query]", options in
// name order.
func (r Ref) String() string {
	if len(r.Params) == 0 {
		return Prefix + r.Path
	}
	names := make([]string, 0, len(r.Params))
	for k := range r.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	q := url.Values{}
	for _, k := range names {
		q.Set(k, r.Params[k])
	}
	return Prefix + r.Path + "?" + q.Encode()
}
