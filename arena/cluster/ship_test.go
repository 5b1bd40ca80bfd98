package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/agents/course/courseref"
	"arena/arena/league/leaguefile"
	"arena/games/all"
)

// shippingLeague is a league whose agents all live under dir: two Lua
// scripts both called bot.lua, a course script called bot.py with a
// helper module, a course repository and an executable.
func shippingLeague(t *testing.T, dir string) *leaguefile.League {
	t.Helper()
	writeFile(t, dir, "alice/bot.lua", "-- alice\n")
	writeFile(t, dir, "bob/bot.lua", "-- bob\n")
	writeFile(t, dir, "carol/bot.py", "import helper\ndef calculate_move(s):\n    return helper.K\n")
	writeFile(t, dir, "carol/helper.py", "K = 1\n")
	writeFile(t, dir, "dave/src/student_player/StudentPlayer.java", "class StudentPlayer {}\n")
	writeFile(t, dir, "dave/.git/HEAD", "ref: refs/heads/main\n")
	exe := writeFile(t, dir, "erin/agent", "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, dir, "ship.yaml", `name: ship
game: dots-and-boxes
agents:
  - {name: alice, agent: "lua:alice/bot.lua"}
  - {name: bob, agent: "lua:bob/bot.lua"}
  - {name: carol, agent: "course:carol/bot.py?python=/usr/bin/python3"}
  - {name: dave, agent: "course:dave"}
  - {name: erin, agent: erin/agent}
  - {name: random, agent: random}
`)
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + filepath.Join(t.TempDir(), "out")}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s.Leagues[0]
}

// The coordinator ships every agent that is not built in; a worker with
// none of the coordinator's files (they are gone) fetches each by its
// content hash into a folder of its own, checked, with the job's options
// kept; two agents with one file name never meet. Shipping again sends
// nothing. A stored copy whose content is not its hash is refused with
// both hashes.
func TestShippedAgentsAreFetchedByHash(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := Serve("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var log bytes.Buffer
	coord, err := Dial(ctx, srv.Coordinator(), Config{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	agentDir := t.TempDir()
	l := shippingLeague(t, agentDir)
	if err := coord.ship(ctx, l); err != nil {
		t.Fatal(err)
	}
	if err := coord.ship(ctx, l); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "5 agent(s) shipped") || !strings.Contains(log.String(), "0 agent(s) shipped to the cluster's object store (5 already there)") {
		t.Fatalf("coordinator log:\n%s", log.String())
	}
	if err := os.RemoveAll(agentDir); err != nil {
		t.Fatal(err)
	}

	w := newFetchingWorker(t, ctx, srv, t.TempDir())
	seen := map[string]bool{}
	for _, a := range l.Agents {
		job := Agent{Name: a.Name, Ref: a.Ref, Launch: a.Launch, Kind: a.Kind, Hash: a.Hash}
		got, err := w.localCopy(ctx, job, "dots-and-boxes")
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind == leaguefile.KindBuiltin {
			continue
		}
		prefix, path, query := launchParts(got)
		if wp, _, wq := launchParts(a.Launch); prefix != wp || query != wq || !strings.HasPrefix(path, w.CacheDir) {
			t.Fatalf("agent %s fetched as %s (launch %s)", a.Name, got, a.Launch)
		}
		if seen[path] {
			t.Fatalf("agents share %s", path)
		}
		seen[path] = true
		if h, err := ContentHash(a.Kind, path); err != nil || h != a.Hash {
			t.Fatalf("agent %s: fetched copy hashes %s (%v), want %s", a.Name, h, err, a.Hash)
		}
	}
	erin := filepath.Join(filepath.Dir(seenPath(seen, "agent")), "agent")
	if fi, err := os.Stat(erin); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("the executable lost its mode: %v %v", fi, err)
	}

	// Someone with the coordinator's rights replaces alice's copy.
	obs, err := agentStore(ctx, coord.js, coord.names, false)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := pack(leaguefile.KindLua, writeFile(t, t.TempDir(), "bot.lua", "-- mallory\n"), DefaultMaxAgentBytes)
	if err != nil {
		t.Fatal(err)
	}
	alice := l.Agents[0]
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: alice.Hash, Metadata: map[string]string{metaEntry: bad.entry}}, bytes.NewReader(bad.body)); err != nil {
		t.Fatal(err)
	}
	fresh := newFetchingWorker(t, ctx, srv, t.TempDir())
	_, err = fresh.localCopy(ctx, Agent{Name: alice.Name, Ref: alice.Ref, Launch: alice.Launch, Kind: alice.Kind, Hash: alice.Hash}, "dots-and-boxes")
	if err == nil || !strings.Contains(err.Error(), alice.Hash) || !strings.Contains(err.Error(), "has content hash sha256:") {
		t.Fatalf("a stored copy with another content was taken: %v", err)
	}
}

func seenPath(seen map[string]bool, base string) string {
	for p := range seen {
		if filepath.Base(p) == base {
			return p
		}
	}
	return ""
}

// newFetchingWorker is a worker connected with a worker's credential (so
// its permissions are the ones a real worker has), fetching into cache.
func newFetchingWorker(t *testing.T, ctx context.Context, srv *Server, cache string) *Worker {
	t.Helper()
	ep, err := srv.Join("w" + filepath.Base(cache))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := dial(ctx, ep, "test worker")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	w := &Worker{CacheDir: cache}
	w.cache = &agentCache{dir: cache, limit: DefaultMaxAgentBytes, js: js, names: namesOf(ep.scope()), checked: map[string]string{}}
	return w
}

// An agent over the size limit is refused when it is packed, with its
// size limit named; the course folder's version control is not shipped.
func TestPackBoundsAndSkipsVersionControl(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "repo/src/A.java", strings.Repeat("x", 2<<20))
	writeFile(t, dir, "repo/.git/objects/big", strings.Repeat("y", 4<<20))
	s, err := pack(leaguefile.KindCourse, filepath.Join(dir, "repo"), 3<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.body) > 3<<20 || s.entry != "repo" {
		t.Fatalf("packed %d bytes as %q: version control shipped?", len(s.body), s.entry)
	}
	_, err = pack(leaguefile.KindCourse, filepath.Join(dir, "repo"), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "over 1 MiB") {
		t.Fatalf("an agent over the limit was packed: %v", err)
	}
	h, _ := courseref.Hash(filepath.Join(dir, "repo"))
	out := t.TempDir()
	if err := untar(bytes.NewReader(s.body), out, 3<<20); err != nil {
		t.Fatal(err)
	}
	if got, _ := courseref.Hash(filepath.Join(out, "repo")); got != h {
		t.Fatalf("unpacked repository hashes %s, want %s", got, h)
	}
	if err := untar(bytes.NewReader(s.body), t.TempDir(), 1<<20); err == nil {
		t.Fatal("an archive over the limit was unpacked")
	}
}

// A fetched program is written to its place only while no fork can
// happen (forksafe.Copy): an agent process started meanwhile by another
// game must not hold it open for writing, or the program's own start
// fails with "text file busy". Its data files need no such care.
func TestUnpackedProgramWaitsForForks(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	body := bytes.Repeat([]byte("#!/bin/sh\n"), 1000)
	for _, f := range []struct {
		name string
		mode int64
	}{{"data.txt", 0o644}, {"agent", 0o755}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	stage := t.TempDir()
	out := filepath.Join(stage, "agent")
	syscall.ForkLock.Lock() // as a fork does
	done := make(chan error, 1)
	go func() { done <- untar(bytes.NewReader(buf.Bytes()), out, 1<<20) }()
	// An unpack that ignored the lock would create the program within this
	// wait; a slow machine can only make the check pass without proving it.
	time.Sleep(100 * time.Millisecond)
	_, statErr := os.Stat(filepath.Join(out, "agent"))
	syscall.ForkLock.Unlock()
	if statErr == nil {
		t.Fatal("the program was opened for writing while a fork held ForkLock")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"data.txt": 0o644, "agent": 0o755} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("%s holds %d bytes (%v), want %d", name, len(got), err, len(body))
		}
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Mode().Perm() != mode {
			t.Fatalf("%s mode %v (%v), want %v", name, fi.Mode().Perm(), err, mode)
		}
	}
	// The staging file is gone: the stage holds only the unpacked folder.
	if es, _ := os.ReadDir(stage); len(es) != 1 {
		t.Fatalf("the stage holds %d entries after the unpack, want 1 (the folder)", len(es))
	}
}
