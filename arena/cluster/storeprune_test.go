package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/games/all"
	"arena/plugins/host"
)

// luaSpec is a league of the Lua scripts dir/NAME/bot.lua (and the
// built-in random). Each script's one line names the built-in agent that
// plays for it, then the script's name.
func luaSpec(t *testing.T, dir, name string, agents ...string) *leaguefile.Spec {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\ngame: bohnenspiel\ngames_per_pairing: 2\nseed: 9\nagents:\n", name)
	for _, a := range agents {
		ref := "lua:" + a + "/bot.lua"
		if a == "random" {
			ref = a
		}
		fmt.Fprintf(&b, "  - {name: %s, agent: %q}\n", a, ref)
	}
	file := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + filepath.Join(t.TempDir(), "out")}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fetchedLua plays a fetched Lua script by the built-in agent its line
// names: the game is played only if the worker has the script's copy.
func fetchedLua(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
	path, ok := strings.CutPrefix(p.Ref, "lua:")
	if !ok {
		return nil, fmt.Errorf("%s is not a fetched Lua script", p.Ref)
	}
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p.Ref, _, _ = strings.Cut(strings.TrimSpace(strings.TrimPrefix(string(body), "--")), " ")
	return inProcessLauncher(ctx, p, o)
}

// storedAgents are the object store's agents by content hash.
func storedAgents(t *testing.T, ctx context.Context, srv *cluster.Server) map[string]*jetstream.ObjectInfo {
	t.Helper()
	nc, err := cluster.RawConn(ctx, srv.Coordinator())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := js.ObjectStore(ctx, cluster.AgentsBucket(cluster.DefaultScope))
	if err != nil {
		t.Fatal(err)
	}
	infos, err := obs.List(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		t.Fatal(err)
	}
	got := map[string]*jetstream.ObjectInfo{}
	for _, i := range infos {
		got[i.Name] = i
	}
	return got
}

// A starting coordinator removes from the object store the agents no
// coordinator has shipped or referenced for longer than the age, says
// which and how many bytes, and keeps an agent referenced recently and
// those of its league, even when they were first shipped long ago; the
// league plays with the kept agents fetched by a worker. A running
// coordinator references its agents again.
func TestObjectStoreIsPrunedOfUnreferencedAgents(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	dir := t.TempDir()
	for name, plays := range map[string]string{"alice": "random", "bob": "greedy", "old": "random", "recent": "greedy"} {
		writeAgent(t, dir, name, plays)
	}
	hashOf := func(s *leaguefile.Spec, name string) string {
		for _, a := range s.Leagues[0].Agents {
			if a.Name == name {
				return a.Hash
			}
		}
		t.Fatalf("no agent %s", name)
		return ""
	}
	now := time.Now()
	var clock atomic.Int64
	shipAt := func(at time.Time, s *leaguefile.Spec) {
		clock.Store(at.UnixNano())
		cfg := testConfig
		cfg.ReferenceScore, cfg.Now = 1, func() time.Time { return time.Unix(0, clock.Load()) }
		coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer coord.Close()
		if err := coord.Begin(ctx, s.Leagues[0], nil); err != nil {
			t.Fatal(err)
		}
	}
	// An hour ago a league of recent shipped it; ten days ago one of
	// alice, bob and old (an older coordinator's clock: nothing it sees
	// is old, the recent agent is in its future).
	recent := luaSpec(t, dir, "recent", "recent", "random")
	shipAt(now.Add(-time.Hour), recent)
	past := luaSpec(t, dir, "past", "alice", "bob", "old")
	shipAt(now.Add(-10*24*time.Hour), past)
	before := storedAgents(t, ctx, srv)
	oldHash := hashOf(past, "old")
	if len(before) != 4 || before[oldHash] == nil {
		t.Fatalf("%d agent(s) stored before the run, want 4 with old", len(before))
	}

	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	w := &cluster.Worker{Endpoint: join(t, srv, "w"), Registry: all.Registry(), Launch: fetchedLua, Concurrency: 1,
		CacheDir: t.TempDir(), Machine: cluster.ThisMachine("w", 1), Config: testConfig}
	go w.Run(wctx)
	var log syncBuffer
	cfg := testConfig
	cfg.Log, cfg.ReferenceScore = &log, 1
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	played := 0
	s := luaSpec(t, dir, "cl", "alice", "bob")
	if err := league.Run(ctx, s, league.RunOptions{Launch: inProcessLauncher, Remote: coord, OnGame: func(league.Progress) { played++ }}); err != nil {
		t.Fatal(err)
	}
	if played != 2 {
		t.Fatalf("%d game(s) played, want 2", played)
	}
	want := fmt.Sprintf("object store %s: 1 agent(s) unreferenced for over %v removed, %d bytes: lua:old/bot.lua (%s, ", cluster.AgentsBucket(cluster.DefaultScope), cluster.DefaultAgentsUnused, before[oldHash].Size, oldHash)
	if !strings.Contains(log.String(), want) {
		t.Fatalf("the coordinator's console does not say %q:\n%s", want, log.String())
	}
	after := storedAgents(t, ctx, srv)
	for _, keep := range []string{hashOf(s, "alice"), hashOf(s, "bob"), hashOf(recent, "recent")} {
		if after[keep] == nil {
			t.Fatalf("agent %s was removed", keep)
		}
	}
	if after[oldHash] != nil || len(after) != 3 {
		t.Fatalf("%d agent(s) kept, old among them: %v", len(after), after[oldHash] != nil)
	}
	alice := after[hashOf(s, "alice")]
	if at, err := time.Parse(time.RFC3339, alice.Metadata["referenced"]); err != nil || now.Sub(at) > time.Minute || alice.Metadata["entry"] != "bot.lua" {
		t.Fatalf("alice's metadata after the run: %v", alice.Metadata)
	}

	// A running coordinator's hourly reference moves the time on.
	clock.Store(now.Add(2 * time.Hour).UnixNano())
	cfg.Now = func() time.Time { return time.Unix(0, clock.Load()) }
	ticking, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ticking.Close()
	if err := ticking.Begin(ctx, s.Leagues[0], nil); err != nil {
		t.Fatal(err)
	}
	later := now.Add(3 * time.Hour)
	clock.Store(later.UnixNano())
	if err := ticking.ReferAll(ctx); err != nil {
		t.Fatal(err)
	}
	if got := storedAgents(t, ctx, srv)[hashOf(s, "bob")].Metadata["referenced"]; got != later.UTC().Format(time.RFC3339) {
		t.Fatalf("bob referenced at %s after ReferAll, want %s", got, later.UTC().Format(time.RFC3339))
	}
}

func writeAgent(t *testing.T, dir, name, plays string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, "bot.lua"), []byte("-- "+plays+" "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An age for the object store outside its bounds is refused.
func TestAgentsUnusedIsBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	for _, u := range []time.Duration{time.Minute, cluster.MaxAgentsUnused + time.Hour} {
		cfg := testConfig
		cfg.ReferenceScore, cfg.AgentsUnused = 1, u
		coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
		if err == nil {
			coord.Close()
			t.Fatalf("agents unused %v was accepted", u)
		}
		if !strings.Contains(err.Error(), "want between") {
			t.Fatalf("agents unused %v: %v", u, err)
		}
	}
}
