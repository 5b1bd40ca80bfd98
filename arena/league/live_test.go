package league_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/league/live"
	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// peeking is an agent handle that reads the league's live games before
// each of its moves past the first.
type peeking struct {
	referee.Handle
	dir  string
	mu   *sync.Mutex
	seen *[]live.Game
}

func (p peeking) Move(ctx context.Context, r protocol.MoveRequest) (string, error) {
	if r.Ply > 0 {
		gs, err := live.Read(p.dir)
		if err == nil {
			p.mu.Lock()
			*p.seen = append(*p.seen, gs...)
			p.mu.Unlock()
		}
	}
	return p.Handle.Move(ctx, r)
}

// While a league plays, its directory holds each game in progress with
// its moves so far; once it ends, none.
func TestLiveGamesWhileTheLeaguePlays(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	out := filepath.Join(t.TempDir(), "lv")
	file := leaguefiletest.Write(t, "lv.yaml", "name: lv\ngame: bohnenspiel\ngames_per_pairing: 2\noutput: "+out+"\n"+`
agents:
  - name: greedy
    agent: greedy
  - name: random
    agent: random
`)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	// A killed run's file is gone once the next run starts.
	if err := os.MkdirAll(filepath.Join(out, live.Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, live.Dir, "stale.json"), []byte(`{"league":"lv","record":{"id":"stale"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []live.Game
	launch := testLauncher()
	peek := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		h, err := launch(ctx, p, o)
		if err != nil {
			return nil, err
		}
		return peeking{Handle: h, dir: out, mu: &mu, seen: &seen}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := league.Run(ctx, spec, league.RunOptions{Launch: peek, Slots: ownSlots(t, spec)}); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, g := range seen {
		if g.Record.ID == "stale" {
			t.Fatal("a killed run's live game was shown during the next run")
		}
		if g.League != "lv" || len(g.Record.Moves) == 0 || g.Record.Agents[0].Name == "" || g.Record.Start == "" {
			t.Fatalf("live game %+v", g)
		}
		ids[g.Record.ID] = true
	}
	if len(ids) != 2 {
		t.Errorf("live games seen: %v, want both games of the league", ids)
	}
	if gs, err := live.Read(out); err != nil || len(gs) != 0 {
		t.Errorf("after the run: %d live games (%v)", len(gs), err)
	}
}
