package cluster_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// sleepy answers each move after 100 ms, so a game outlasts the ack wait.
type sleepy struct{ protocol.Agent }

func (s sleepy) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	time.Sleep(100 * time.Millisecond)
	return s.Agent.Move(ctx, req)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A game longer than the ack wait is not handed to a second worker: its
// worker reports progress while it plays.
func TestLongGameIsNotRedelivered(t *testing.T) {
	longRunning(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := cluster.Serve("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := cluster.Config{AckWait: 2 * time.Second}
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "long.yaml")
	if err := os.WriteFile(file, []byte("name: long\ngame: bohnenspiel\ngames_per_pairing: 2\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + filepath.Join(dir, "out")}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	slow := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		p.Ref = p.Name
		h, err := inProcessLauncher(ctx, p, o)
		if err != nil {
			return nil, err
		}
		return inProcess{sleepy{h.(inProcess).Agent}}, nil
	}
	var logs syncBuffer
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c"} {
		w := &cluster.Worker{Endpoint: join(t, srv, name), Registry: all.Registry(), Launch: slow, Concurrency: 1,
			Machine: cluster.ThisMachine(name, 1), Config: cfg, Log: &logs}
		wg.Add(1)
		go func() { defer wg.Done(); w.Run(wctx) }()
	}
	start := time.Now()
	if err := league.Run(ctx, s, league.RunOptions{Launch: slow, Remote: coord}); err != nil {
		t.Fatal(err)
	}
	wcancel()
	wg.Wait()
	// Two games, each longer than the ack wait.
	if took := time.Since(start); took < 4*time.Second {
		t.Fatalf("the games took %v, not longer than the ack wait", took)
	}
	// Each game was taken by one worker only: none was started a second
	// time (and abandoned when the league ended).
	for _, m := range s.Leagues[0].Schedule() {
		if n := strings.Count(logs.String(), m.ID); n != 1 {
			t.Fatalf("match %s taken %d times:\n%s", m.ID, n, logs.String())
		}
	}
}
