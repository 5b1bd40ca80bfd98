package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// DefaultAgentsUnused is how long an agent stays in the cluster's object
// store without a coordinator shipping or referencing it: the time a
// worker keeps an unused copy (DefaultCacheUnused). A coordinator that
// resumes a league ships again whatever its agents lack, so an agent
// removed too early costs one upload, never a game.
const DefaultAgentsUnused = DefaultCacheUnused

// MaxAgentsUnused bounds Config.AgentsUnused: a server used for a term of
// resubmissions keeps at most a month of versions, whatever the flag.
const MaxAgentsUnused = 30 * 24 * time.Hour

// MinAgentsUnused is the shortest age accepted: several times referEvery,
// so an agent a running coordinator references is never old enough.
const MinAgentsUnused = 3 * referEvery

// referEvery is how often a running coordinator references its agents
// again, so that another coordinator starting on the same store (a league
// run with the same scope) keeps them.
const referEvery = time.Hour

// metaReferenced is the object metadata key holding when a coordinator
// last shipped or referenced the agent (RFC 3339, UTC).
const metaReferenced = "referenced"

// agentRefs are the agents this coordinator has shipped or referenced.
type agentRefs struct {
	mu     sync.Mutex
	hashes map[string]bool
	pruned bool // the store was pruned by this coordinator
}

func (r *agentRefs) add(hash string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hashes == nil {
		r.hashes = map[string]bool{}
	}
	r.hashes[hash] = true
}

func (r *agentRefs) has(hash string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hashes[hash]
}

func (r *agentRefs) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.hashes))
}

// firstPrune reports whether the store is still to be pruned, and notes
// that it is being pruned: once per coordinator.
func (r *agentRefs) firstPrune() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	first := !r.pruned
	r.pruned = true
	return first
}

// referencedMeta is meta with the reference time set to now; the rest of
// its metadata (the archive's entry and kind) is kept.
func referencedMeta(meta jetstream.ObjectMeta, now time.Time) jetstream.ObjectMeta {
	md := make(map[string]string, len(meta.Metadata)+1)
	maps.Copy(md, meta.Metadata)
	md[metaReferenced] = now.UTC().Format(time.RFC3339)
	meta.Metadata = md
	return meta
}

// referencedAt is when a coordinator last shipped or referenced the
// object: its metadata, or the time of its last metadata write for an
// object an earlier arena shipped without one.
func referencedAt(info *jetstream.ObjectInfo) time.Time {
	if t, err := time.Parse(time.RFC3339, info.Metadata[metaReferenced]); err == nil {
		return t
	}
	return info.ModTime
}

// refer writes down that the coordinator references the stored object
// info describes.
func (c *Coordinator) refer(ctx context.Context, obs jetstream.ObjectStore, info *jetstream.ObjectInfo) error {
	if err := obs.UpdateMeta(ctx, info.Name, referencedMeta(info.ObjectMeta, c.cfg.now())); err != nil {
		return fmt.Errorf("reference agent %s: %w", info.Name, err)
	}
	c.refs.add(info.Name)
	return nil
}

// referAll references again every agent this coordinator shipped.
func (c *Coordinator) referAll(ctx context.Context) error {
	hashes := c.refs.list()
	if len(hashes) == 0 {
		return nil
	}
	obs, err := agentStore(ctx, c.js, c.names, false)
	if err != nil {
		return err
	}
	var errs []error
	for _, h := range hashes {
		info, err := obs.GetInfo(ctx, h)
		if err == nil {
			err = c.refer(ctx, obs, info)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// referAgain references the coordinator's agents again: every
// referEvery while it runs.
func (c *Coordinator) referAgain() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.referAll(ctx); err != nil {
		c.logf("cluster: %v", err)
	}
}

// pruneAgents removes from the object store the agents no coordinator
// has shipped or referenced for longer than the configured age, except
// this coordinator's own, and says what it removed and how many bytes.
// It runs once, when the first league's agents are shipped, so the
// league about to play has just referenced its own. A failure is said
// and the league plays on: pruning is housekeeping.
func (c *Coordinator) pruneAgents(ctx context.Context, obs jetstream.ObjectStore) {
	unused := c.cfg.agentsUnused()
	infos, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return
	}
	if err != nil {
		c.logf("cluster: object store %s: %v", c.names.agents, err)
		return
	}
	now := c.cfg.now()
	var removed []string
	var bytes uint64
	for _, info := range infos {
		at := referencedAt(info)
		if c.refs.has(info.Name) || now.Sub(at) <= unused {
			continue
		}
		if err := obs.Delete(ctx, info.Name); err != nil {
			c.logf("cluster: object store %s: remove %s: %v", c.names.agents, info.Name, err)
			continue
		}
		bytes += info.Size
		removed = append(removed, fmt.Sprintf("%s (%s, %d bytes, last referenced %s)", info.Description, info.Name, info.Size, at.UTC().Format(time.DateOnly)))
	}
	if len(removed) > 0 {
		c.logf("cluster: object store %s: %d agent(s) unreferenced for over %v removed, %d bytes: %s", c.names.agents, len(removed), unused, bytes, strings.Join(removed, "; "))
	}
}
