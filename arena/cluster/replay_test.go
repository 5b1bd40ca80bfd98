package cluster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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

// queuedHandle makes its agent's third move of a game late by wait, and
// reports that wait as time its threads spent waiting for a CPU: the
// verdict is the machine's, as a starved agent's would be.
type queuedHandle struct {
	referee.Handle
	wait  time.Duration
	spoil *atomic.Int64 // games still to spoil

	mu     sync.Mutex
	moves  int
	queued time.Duration
}

func (h *queuedHandle) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	h.mu.Lock()
	h.moves++
	late := h.moves == 3 && h.spoil.Add(-1) >= 0
	h.mu.Unlock()
	if late {
		select {
		case <-time.After(h.wait):
		case <-ctx.Done():
			return "", ctx.Err()
		}
		h.mu.Lock()
		h.queued += h.wait
		h.mu.Unlock()
	}
	return h.Handle.Move(ctx, req)
}

func (h *queuedHandle) Usage() (cpu, runQueue time.Duration, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return 0, h.queued, nil
}

// A verdict the machine caused on a worker is not published: the league
// withholds that play, the coordinator publishes the match again as a new
// job, and the stored record is the second play, naming the first.
func TestMachineCausedVerdictOnAWorkerIsPlayedAgain(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	var spoil atomic.Int64
	spoil.Store(1)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	w := &cluster.Worker{Endpoint: join(t, srv, "w"), Registry: all.Registry(), Concurrency: 1,
		Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
			h, err := inProcessLauncher(ctx, p, o)
			if err != nil || p.Name != "greedy" {
				return h, err
			}
			return &queuedHandle{Handle: h, wait: 700 * time.Millisecond, spoil: &spoil}, nil
		}, Machine: cluster.ThisMachine("w", 1), Config: testConfig}
	go w.Run(wctx)
	coord, err := cluster.Dial(ctx, srv.Coordinator(), testConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()

	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	file := filepath.Join(dir, "r.yaml")
	// 300 ms a move: the spoilt move is late, inside the 1 s cushion.
	body := "name: r\ngame: bohnenspiel\ngames_per_pairing: 2\nseed: 5\noverrides:\n  move-limit: 300ms\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if err := league.Run(ctx, s, league.RunOptions{Launch: inProcessLauncher, Remote: coord, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "withheld, to be played again") || !strings.Contains(log.String(), "playing again 1 game(s)") {
		t.Fatalf("the league's log does not name the replay:\n%s", log.String())
	}
	games := storedGames(t, out)
	if len(games) != 2 {
		t.Fatalf("%d games stored, want 2", len(games))
	}
	replayed := 0
	for _, g := range games {
		if g.Record.Contention(0)+g.Record.Contention(1) != 0 {
			t.Fatalf("game %s published with a verdict the machine caused: %+v", g.Match.ID, g.Record.Events)
		}
		if g.Record.Worker == nil || g.Record.Worker.Name != "w" {
			t.Fatalf("game %s: played by %+v, want worker w", g.Match.ID, g.Record.Worker)
		}
		switch r := g.Record.Replays; len(r) {
		case 0:
		case 1:
			replayed++
			if !strings.Contains(r[0].Reason, "greedy") || !strings.Contains(r[0].Reason, "waiting for a CPU") {
				t.Fatalf("game %s: withheld play %+v", g.Match.ID, r[0])
			}
		default:
			t.Fatalf("game %s withheld %d times, want at most once: %s", g.Match.ID, len(r), fmt.Sprint(r))
		}
	}
	if replayed != 1 {
		t.Fatalf("%d stored games name a withheld play, want 1", replayed)
	}
}
