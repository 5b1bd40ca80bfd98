// Package preflightcache keeps, in a league directory, which agents passed
// league run's pre-flight check, by a key of everything the check's verdict
// depends on (the agent's content hash, its options, the game, the limits,
// the sandbox, the arena's build). A later run of an unchanged agent needs
// no second start: a course JVM or Python agent costs seconds of CPU each
// time, and a class's league is run again at every new submission.
package preflightcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"arena/arena/atomicfile"
)

// File is the cache's name in a league directory.
const File = "preflight.json"

// Cache is one league directory's pre-flight passes. Its methods may be
// called from several goroutines.
type Cache struct {
	path string
	mu   sync.Mutex
	// was is what the file held; now the passes of this run, kept or new,
	// which Save writes (so the file holds only the current agents').
	was, now map[string]time.Time
}

// fileBody is the file's content.
type fileBody struct {
	Passed map[string]time.Time `json:"passed"`
}

// Open reads the cache of the league directory dir. A missing file is an
// empty cache; so is one that does not parse (a cache only saves work, and
// the next Save replaces it).
func Open(dir string) (*Cache, error) {
	c := &Cache{path: filepath.Join(dir, File), was: map[string]time.Time{}, now: map[string]time.Time{}}
	b, err := os.ReadFile(c.path)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pre-flight cache: %w", err)
	}
	var body fileBody
	if json.Unmarshal(b, &body) == nil && body.Passed != nil {
		c.was = body.Passed
	}
	return c, nil
}

// Key is the cache key of a check from the parts its verdict depends on;
// their order matters.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\x00", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Passed tells whether a check of this key passed in an earlier run; a
// pass found is kept by the next Save.
func (c *Cache) Passed(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	at, ok := c.was[key]
	if ok {
		c.now[key] = at
	}
	return ok
}

// Add records a check of this key that passed now.
func (c *Cache) Add(key string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now[key] = at.UTC()
}

// Save writes this run's passes (those found by Passed and those added),
// replacing the file whole.
func (c *Cache) Save() error {
	c.mu.Lock()
	body := fileBody{Passed: maps.Clone(c.now)}
	c.mu.Unlock()
	err := atomicfile.Write(c.path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(body)
	})
	if err != nil {
		return fmt.Errorf("pre-flight cache: %w", err)
	}
	return nil
}
