package cluster

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cacheage"
	"arena/internal/forksafe"
)

// agentCache keeps the agents a worker fetched from the coordinator's
// object store, each in a folder named by its content hash
// (DIR/<hex>/agent/<entry>), so two submissions both called bot.py never
// meet. A copy is checked against its hash when it is fetched and again
// the first time this process uses it (another process may share the
// folder); one that fails is fetched again.
type agentCache struct {
	dir   string
	limit int64
	js    jetstream.JetStream
	names names
	obs   jetstream.ObjectStore // opened at the first fetch: the coordinator makes it

	mu      sync.Mutex
	checked map[string]string    // hash → local path, checked by this process
	marked  map[string]time.Time // hash → when its use was last written down
}

// used writes down, at most once per cacheage.MarkEvery, that the agent
// of hash want (its folder named key) was used; c.mu is held.
func (c *agentCache) used(want, key string) {
	now := time.Now()
	if now.Sub(c.marked[want]) < cacheage.MarkEvery {
		return
	}
	if c.marked == nil {
		c.marked = map[string]time.Time{}
	}
	if fetchedAgents(c.dir).MarkUsed(key, now) == nil {
		c.marked[want] = now
	}
}

var hexHash = regexp.MustCompile(`^sha256:([0-9a-f]{64})$`)

// errNotShipped says the store has no such agent (a coordinator that ships
// nothing): the worker then looks for its own copy.
var errNotShipped = errors.New("not in the cluster's object store")

// path returns the local path of the agent with content hash want,
// fetching it if this machine has no good copy.
func (c *agentCache) path(ctx context.Context, kind, want string) (string, error) {
	m := hexHash.FindStringSubmatch(want)
	if m == nil {
		return "", fmt.Errorf("content hash %q is not sha256:HEX", want)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	final := filepath.Join(c.dir, m[1])
	if p, ok := c.checked[want]; ok {
		c.used(want, m[1])
		return p, nil
	}
	if p, err := cachedEntry(final); err == nil {
		if h, err := ContentHash(kind, p); err == nil && h == want {
			c.checked[want] = p
			c.used(want, m[1])
			return p, nil
		}
		// A damaged copy: fetched again below.
		if err := os.RemoveAll(final); err != nil {
			return "", err
		}
	}
	p, err := c.fetch(ctx, kind, want, final)
	if err != nil {
		return "", err
	}
	c.checked[want] = p
	return p, nil
}

// cachedEntry is the agent's path in a cache folder.
func cachedEntry(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "entry"))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "agent", string(b)), nil
}

// fetch unpacks the stored agent into a private folder, checks its
// content hash and only then moves it to final.
func (c *agentCache) fetch(ctx context.Context, kind, want, final string) (string, error) {
	if c.obs == nil {
		obs, err := agentStore(ctx, c.js, c.names, false)
		if errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) {
			return "", errNotShipped
		}
		if err != nil {
			return "", err
		}
		c.obs = obs
	}
	obj, err := c.obs.Get(ctx, want)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return "", errNotShipped
	}
	if err != nil {
		return "", fmt.Errorf("fetch from the cluster's object store: %w", err)
	}
	defer obj.Close()
	info, err := obj.Info()
	if err != nil {
		return "", fmt.Errorf("fetch from the cluster's object store: %w", err)
	}
	if info.Size > uint64(c.limit) {
		return "", fmt.Errorf("the stored copy holds %d bytes, over this worker's limit of %d MiB (arena worker --max-agent-mb)", info.Size, c.limit>>20)
	}
	entry := info.Metadata[metaEntry]
	if entry == "" || !filepath.IsLocal(entry) || strings.ContainsRune(entry, '/') {
		return "", fmt.Errorf("the stored copy names no usable entry (%q)", entry)
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(c.dir, ".fetch-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	// Sandboxed agents run as another user: they must read their files.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if err := untar(io.LimitReader(obj, c.limit+1), filepath.Join(tmp, "agent"), c.limit); err != nil {
		return "", fmt.Errorf("unpack the stored copy: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "entry"), []byte(entry), 0o644); err != nil {
		return "", err
	}
	got, err := ContentHash(kind, filepath.Join(tmp, "agent", entry))
	if err != nil {
		return "", fmt.Errorf("the stored copy: %w", err)
	}
	if got != want {
		return "", fmt.Errorf("the copy in the cluster's object store has content hash %s, the league recorded %s", got, want)
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another process on this machine fetched it first.
		if p, err2 := cachedEntry(final); err2 == nil {
			if h, err3 := ContentHash(kind, p); err3 == nil && h == want {
				return p, nil
			}
		}
		return "", fmt.Errorf("cache %s: %w", final, err)
	}
	return filepath.Join(final, "agent", entry), nil
}

// untar unpacks regular files and folders into dir, refusing any name
// that would leave it and more than limit bytes in all.
func untar(r io.Reader, dir string, limit int64) error {
	tr := tar.NewReader(r)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if !filepath.IsLocal(h.Name) {
			return fmt.Errorf("entry %q leaves the agent's folder", h.Name)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("entry %q is neither a file nor a folder", h.Name)
		}
		if total += h.Size; total > limit {
			return fmt.Errorf("over %d MiB unpacked", limit>>20)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if h.Mode&0o111 != 0 {
			err = unpackProgram(tr, h.Size, p, filepath.Dir(dir))
		} else {
			err = unpackFile(tr, h.Size, p, 0o644)
		}
		if err != nil {
			return fmt.Errorf("entry %q: %w", h.Name, err)
		}
	}
}

// unpackFile writes the next size bytes of r to a new file p.
func unpackFile(r io.Reader, size int64, p string, mode os.FileMode) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, r, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// unpackProgram writes a file the worker may run: first to a staging file
// in stage, at the object store's pace, then copied to p with forks held
// off (forksafe.Copy), so that no agent process the worker starts in the
// meantime keeps p open for writing and the program's own start fails
// with "text file busy".
func unpackProgram(r io.Reader, size int64, p, stage string) error {
	part, err := os.CreateTemp(stage, ".part-")
	if err != nil {
		return err
	}
	defer os.Remove(part.Name())
	_, err = io.CopyN(part, r, size)
	if cerr := part.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return forksafe.Copy(part.Name(), p)
}
