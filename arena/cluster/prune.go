package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// DefaultCacheUnused is how long a fetched agent stays in a worker's cache
// without being used: the time the go command keeps its build cache's
// unused entries (five days). A course's submissions come in versions; an
// old version a league no longer plays would otherwise stay for ever.
const DefaultCacheUnused = 5 * 24 * time.Hour

// markEvery bounds how often an agent's use is written down.
const markEvery = time.Hour

// cacheEntryName is a cached agent's folder: its content hash in hex.
var cacheEntryName = regexp.MustCompile(`^[0-9a-f]{64}$`)

// usedAt is when the cached agent in dir was last used: its entry file's
// time, which markUsed moves on (the folder's own time for a copy whose
// fetch never finished).
func usedAt(dir string) (time.Time, error) {
	fi, err := os.Stat(filepath.Join(dir, "entry"))
	if errors.Is(err, os.ErrNotExist) {
		fi, err = os.Stat(dir)
	}
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// markUsed notes that the cached agent in dir was used at now.
func markUsed(dir string, now time.Time) error {
	return os.Chtimes(filepath.Join(dir, "entry"), now, now)
}

// pruneCache removes the agents of the cache folder dir unused for longer
// than unused (folders named by a hash only: the folder may hold other
// things, such as the league's built Go agents) and says how many it
// removed. Another worker sharing the folder marks what it uses, so what
// it plays with is never old enough to go.
func pruneCache(dir string, unused time.Duration, now time.Time) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !cacheEntryName.MatchString(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		at, err := usedAt(p)
		if err != nil || now.Sub(at) <= unused {
			continue
		}
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
