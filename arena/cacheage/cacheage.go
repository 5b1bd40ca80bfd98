// Package cacheage ages out the unused entries of a content-keyed cache
// folder: each entry a folder named by its key, its last use the time of
// one file in it. Several caches may share a folder (the cluster's fetched
// agents and the built Go agents do); each owns only the names its
// pattern matches.
//
// Why a use is never lost to a concurrent prune: every change of an
// entry's time (MarkUsed, Reserve) holds the folder's lock shared, and
// Prune removes an entry only under the lock held exclusively, after
// reading its time again. A mark therefore lands either before that
// second reading, which then finds the entry fresh and keeps it, or after
// the removal, when it fails with fs.ErrNotExist and its caller makes the
// entry anew. An entry being made is reserved first (its folder's time
// moved on) and appears in place by a rename with a fresh mark, so it is
// never old while it is being made.
package cacheage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"time"
)

// DefaultUnused is how long an entry stays without being used: the time
// the go command keeps its build cache's unused entries (five days).
const DefaultUnused = 5 * 24 * time.Hour

// MarkEvery bounds how often a use is written down: a use is a cheap stat
// and at most an hourly write.
const MarkEvery = time.Hour

// lockName is the folder's lock file, shared by every cache in it (its
// name matches no entry pattern).
const lockName = ".cacheage.lock"

// Cache is one kind of entry in a cache folder.
type Cache struct {
	Dir      string         // the cache folder
	Entry    *regexp.Regexp // the names of this cache's entries; others are left alone
	MarkFile string         // the file in an entry whose modification time is its last use
}

// entry is the path of the entry named key.
func (c Cache) entry(key string) string { return filepath.Join(c.Dir, key) }

// UsedAt is when the entry named key was last used: its mark file's time,
// or the folder's own for an entry still being made.
func (c Cache) UsedAt(key string) (time.Time, error) {
	fi, err := os.Stat(filepath.Join(c.entry(key), c.MarkFile))
	if errors.Is(err, fs.ErrNotExist) {
		fi, err = os.Stat(c.entry(key))
	}
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// MarkUsed notes that the entry named key was used at now. An error
// satisfying errors.Is(err, fs.ErrNotExist) says the entry is gone (pruned
// by another process, or never made): the caller makes it anew.
func (c Cache) MarkUsed(key string, now time.Time) error {
	unlock, err := c.lock(syscall.LOCK_SH)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Chtimes(filepath.Join(c.entry(key), c.MarkFile), now, now); err != nil {
		return fmt.Errorf("mark cache entry used: %w", err)
	}
	return nil
}

// Reserve makes the folder of the entry named key, if need be, and moves
// its time to now, so that a prune leaves it alone while the entry is
// being made in it.
func (c Cache) Reserve(key string, now time.Time) error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("cache folder: %w", err)
	}
	unlock, err := c.lock(syscall.LOCK_SH)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.MkdirAll(c.entry(key), 0o755); err != nil {
		return fmt.Errorf("cache entry: %w", err)
	}
	if err := os.Chtimes(c.entry(key), now, now); err != nil {
		return fmt.Errorf("reserve cache entry: %w", err)
	}
	return nil
}

// Prune removes this cache's entries unused for longer than unused at now
// and says how many it removed. A missing folder holds nothing to remove.
func (c Cache) Prune(unused time.Duration, now time.Time) (int, error) {
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune cache: %w", err)
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !c.Entry.MatchString(e.Name()) {
			continue
		}
		// A first reading without the lock: most entries are fresh.
		if at, err := c.UsedAt(e.Name()); err != nil || now.Sub(at) <= unused {
			continue
		}
		removed, err := c.removeUnused(e.Name(), unused, now)
		if err != nil {
			errs = append(errs, err)
		}
		if removed {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// removeUnused removes the entry named key if, read again under the
// folder's lock, it is still unused for longer than unused.
func (c Cache) removeUnused(key string, unused time.Duration, now time.Time) (bool, error) {
	unlock, err := c.lock(syscall.LOCK_EX)
	if err != nil {
		return false, err
	}
	defer unlock()
	at, err := c.UsedAt(key)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // another process pruned it first
	}
	if err != nil || now.Sub(at) <= unused {
		return false, err
	}
	if err := os.RemoveAll(c.entry(key)); err != nil {
		return false, fmt.Errorf("prune cache: %w", err)
	}
	return true, nil
}

// lock takes the folder's lock (syscall.LOCK_SH or LOCK_EX) and returns
// its release. Locks are held for a stat and a change of time or a
// removal, never for a build.
func (c Cache) lock(how int) (func(), error) {
	f, err := os.OpenFile(filepath.Join(c.Dir, lockName), os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cache lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cache lock %s: %w", f.Name(), err)
	}
	// Closing the file releases the lock.
	return func() { f.Close() }, nil
}
