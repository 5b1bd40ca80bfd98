package cluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"arena/agents/course"
	"arena/agents/course/courseref"
	"arena/arena/league/leaguefile"
)

// ContentHash is the content hash the league records for an agent of a
// kind at path: course agents by agents/course/courseref.Hash (a folder, or a
// script with its sibling modules), scripts and binaries by the file's.
// Coordinator and workers hash with this one function.
func ContentHash(kind, path string) (string, error) {
	if kind == leaguefile.KindCourse {
		return courseref.Hash(path)
	}
	return leaguefile.FileHash(path)
}

// launchParts splits a launch reference into its prefix ("lua:",
// "course:" or none), path and "?options" suffix.
func launchParts(launch string) (prefix, path, query string) {
	for _, p := range []string{"lua:", course.Prefix} {
		if rest, ok := strings.CutPrefix(launch, p); ok {
			prefix, launch = p, rest
			break
		}
	}
	path, q, ok := strings.Cut(launch, "?")
	if ok && prefix != "" {
		query = "?" + q
	} else if ok {
		path = launch
	}
	return prefix, path, query
}

// agentIndex finds agent copies in a directory by content hash, never by
// name: two hundred submissions all called bot.py are two hundred
// different hashes. It looks at every file and folder up to two levels
// down (DIR/alice/bot.py, DIR/alice/repo), hashing each the ways an agent
// could be recorded, and is rebuilt when a hash is missing (copies added
// while the worker runs).
type agentIndex struct {
	dir    string
	mu     sync.Mutex
	byHash map[string]string
}

const indexDepth = 2

// find returns the path of the copy with content hash want.
func (x *agentIndex) find(kind, want string) (string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if p, ok := x.byHash[want]; ok {
		// Checked again: the file may have changed since it was indexed.
		if h, err := ContentHash(kind, p); err == nil && h == want {
			return p, nil
		}
	}
	idx, err := indexDir(x.dir)
	if err != nil {
		return "", err
	}
	x.byHash = idx
	if p, ok := idx[want]; ok {
		return p, nil
	}
	return "", fmt.Errorf("no copy with content hash %s in %s", want, x.dir)
}

// indexDir hashes every candidate under dir.
func indexDir(dir string) (map[string]string, error) {
	idx := map[string]string{}
	add := func(h, p string, err error) {
		if err == nil {
			if _, dup := idx[h]; !dup {
				idx[h] = p
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		depth := len(strings.Split(rel, string(filepath.Separator)))
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			h, err := courseref.Hash(p)
			add(h, p, err)
			if depth >= indexDepth {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		h, err := leaguefile.FileHash(p)
		add(h, p, err)
		if strings.HasSuffix(p, ".py") {
			h, err := courseref.Hash(p)
			add(h, p, err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("agent directory %s: %w", dir, err)
	}
	return idx, nil
}

// localCopy is the launch reference of this machine's copy of an agent,
// checked against the hash the league recorded: found by hash in the
// agent directory, else fetched from the coordinator's object store into
// the cache, else (a coordinator that shipped nothing) at the
// coordinator's path. A course agent is then prepared for the game, once.
func (w *Worker) localCopy(ctx context.Context, a Agent, game string) (string, error) {
	if a.Kind == leaguefile.KindBuiltin {
		return a.Launch, nil
	}
	if a.Hash == "" {
		return "", fmt.Errorf("agent %s (%s): the league recorded no content hash to check this machine's copy against", a.Name, a.Ref)
	}
	prefix, path, query := launchParts(a.Launch)
	p, err := w.copyPath(ctx, a, path)
	if err != nil {
		return "", fmt.Errorf("agent %s (%s): %w", a.Name, a.Ref, err)
	}
	launch := prefix + p + query
	if a.Kind == leaguefile.KindCourse && w.Prepare != nil {
		if err := w.prepare(ctx, a.Hash, launch, game); err != nil {
			return "", fmt.Errorf("agent %s (%s): prepare %s: %w", a.Name, a.Ref, p, err)
		}
	}
	return launch, nil
}

// copyPath finds or fetches the agent's files.
func (w *Worker) copyPath(ctx context.Context, a Agent, path string) (string, error) {
	if w.index != nil {
		if p, err := w.index.find(a.Kind, a.Hash); err == nil {
			return p, nil
		} else if w.cache == nil {
			return "", err
		}
	}
	if w.cache != nil {
		p, err := w.cache.path(ctx, a.Kind, a.Hash)
		if !errors.Is(err, errNotShipped) {
			return p, err
		}
	}
	h, err := ContentHash(a.Kind, path)
	if err != nil {
		return "", fmt.Errorf("not shipped by the coordinator, and no copy on this machine: %w", err)
	}
	if h != a.Hash {
		return "", fmt.Errorf("this machine's copy %s has content hash %s, the league recorded %s", path, h, a.Hash)
	}
	return path, nil
}

// prepare runs Prepare once per agent and game in this process.
func (w *Worker) prepare(ctx context.Context, hash, launch, game string) error {
	w.prepMu.Lock()
	defer w.prepMu.Unlock()
	key := hash + "\x00" + game
	if err, done := w.prepared[key]; done {
		return err
	}
	err := w.Prepare(ctx, launch, game)
	if ctx.Err() != nil {
		return err // cancelled, not judged: asked again next time
	}
	if w.prepared == nil {
		w.prepared = map[string]error{}
	}
	w.prepared[key] = err
	return err
}
