package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go/jetstream"

	"arena/agents/course/courseref"
	"arena/arena/league/leaguefile"
)

// DefaultMaxAgentBytes bounds what one shipped agent may hold (its files
// together): a course repository with its libraries fits, a submission
// that carries a data set does not, and is refused with its size.
const DefaultMaxAgentBytes = 64 << 20

// Object metadata of a shipped agent.
const (
	metaEntry = "entry" // the agent's name inside the archive: its launch path's base
	metaKind  = "kind"
)

// shipment is one agent packed for the object store: a tar archive whose
// entry (a file, or a folder) is what the agent's launch path names.
type shipment struct {
	body  []byte
	entry string
}

// pack archives the files of an agent that make its content hash, so that
// unpacked anywhere they hash the same: a script or binary alone, a course
// script with the Python modules beside it, a course folder's files (no
// version control or caches). Modes are normalised (0644, 0755 for
// executables) and times zeroed, so one agent always packs to the same
// bytes.
func pack(kind, path string, limit int64) (*shipment, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	entry := filepath.Base(path)
	type file struct{ name, path string }
	files := []file{{entry, path}}
	switch {
	case kind == leaguefile.KindCourse && fi.IsDir():
		rels, err := courseref.Files(path)
		if err != nil {
			return nil, err
		}
		files = files[:0]
		for _, r := range rels {
			files = append(files, file{entry + "/" + r, filepath.Join(path, filepath.FromSlash(r))})
		}
	case kind == leaguefile.KindCourse:
		for _, s := range courseref.Siblings(path) {
			files = append(files, file{filepath.Base(s), s})
		}
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	var total int64
	for _, f := range files {
		fi, err := os.Stat(f.path)
		if err != nil {
			return nil, err
		}
		if total += fi.Size(); total > limit {
			return nil, fmt.Errorf("%s holds over %d MiB, the most a shipped agent may hold (league run --cluster-max-agent-mb)", path, limit>>20)
		}
		mode := int64(0o644)
		if fi.Mode()&0o111 != 0 {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: mode, Size: fi.Size(), Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if err := copyFile(tw, f.path, fi.Size()); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return &shipment{body: buf.Bytes(), entry: entry}, nil
}

// copyFile copies exactly size bytes of path: a file that grew while it
// was packed would break the archive.
func copyFile(w io.Writer, path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.CopyN(w, f, size); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// digest is the object store's digest of body.
func digest(body []byte) string {
	sum := sha256.Sum256(body)
	return "SHA-256=" + base64.URLEncoding.EncodeToString(sum[:])
}

// agentStore opens (creating it when create is set) the scope's object
// store of agents.
func agentStore(ctx context.Context, js jetstream.JetStream, n names, create bool) (jetstream.ObjectStore, error) {
	if create {
		obs, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: n.agents, Storage: jetstream.FileStorage,
			Description: "arena agents, named by content hash"})
		if err != nil {
			return nil, fmt.Errorf("object store %s: %w", n.agents, err)
		}
		return obs, nil
	}
	obs, err := js.ObjectStore(ctx, n.agents)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", n.agents, err)
	}
	return obs, nil
}

// ship puts every agent of the league that is not built in into the
// object store under its content hash, unless the object there already
// has the same bytes: workers fetch agents from there, so they need no
// copy of the coordinator's files. A Go package agent ships as the binary
// the coordinator built. Every agent shipped or already there is marked
// referenced now; the first league shipped then prunes the agents no
// coordinator has referenced for longer than Config.AgentsUnused.
func (c *Coordinator) ship(ctx context.Context, l *leaguefile.League) error {
	obs, err := agentStore(ctx, c.js, c.names, true)
	if err != nil {
		return err
	}
	shipped := 0
	for _, a := range l.Agents {
		if a.Kind == leaguefile.KindBuiltin {
			continue
		}
		_, path, _ := launchParts(a.Launch)
		s, err := pack(a.Kind, path, c.cfg.maxAgentBytes())
		if err != nil {
			return fmt.Errorf("ship agent %s (%s): %w", a.Name, a.Ref, err)
		}
		if info, err := obs.GetInfo(ctx, a.Hash); err == nil && info.Digest == digest(s.body) {
			// Already there: referenced now, so no coordinator prunes it.
			if err := c.refer(ctx, obs, info); err != nil {
				return fmt.Errorf("ship agent %s (%s): %w", a.Name, a.Ref, err)
			}
			continue
		} else if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return fmt.Errorf("ship agent %s (%s): %w", a.Name, a.Ref, err)
		}
		meta := jetstream.ObjectMeta{Name: a.Hash, Description: a.Ref, Metadata: map[string]string{metaEntry: s.entry, metaKind: a.Kind}}
		if _, err := obs.Put(ctx, referencedMeta(meta, c.cfg.now()), bytes.NewReader(s.body)); err != nil {
			return fmt.Errorf("ship agent %s (%s): %w", a.Name, a.Ref, err)
		}
		c.refs.add(a.Hash)
		shipped++
	}
	c.logf("league %s: %d agent(s) shipped to the cluster's object store (%d already there)", l.Name, shipped, countShippable(l)-shipped)
	if c.refs.firstPrune() {
		c.pruneAgents(ctx, obs)
	}
	return nil
}

func countShippable(l *leaguefile.League) int {
	n := 0
	for _, a := range l.Agents {
		if a.Kind != leaguefile.KindBuiltin {
			n++
		}
	}
	return n
}
