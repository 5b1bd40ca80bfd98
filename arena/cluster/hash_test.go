package cluster_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/games/all"
)

// A worker whose copy of an agent differs from the one the league
// recorded refuses the game, and the coordinator stops with an error that
// names the worker, the agent and both hashes: never a game played with
// another agent.
func TestWorkerRefusesAChangedAgentCopy(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := cluster.Serve("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	coord, err := cluster.Dial(ctx, srv.Coordinator(), testConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.lua"), []byte("-- the league's copy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "h.yaml")
	if err := os.WriteFile(file, []byte("name: h\ngame: bohnenspiel\ngames_per_pairing: 2\nagents:\n  - name: random\n    agent: random\n  - name: bot\n    agent: lua:bot.lua\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + filepath.Join(t.TempDir(), "out")}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	copies := t.TempDir()
	if err := os.WriteFile(filepath.Join(copies, "bot.lua"), []byte("-- another agent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	played := 0
	w := &cluster.Worker{Endpoint: join(t, srv, "odd"), Registry: all.Registry(), Launch: launcher(), Concurrency: 1, AgentDir: copies,
		Machine: cluster.ThisMachine("odd", 1), Config: testConfig}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	go w.Run(wctx)
	err = league.Run(ctx, s, league.RunOptions{Launch: launcher(), Remote: coord, OnGame: func(league.Progress) { played++ }})
	if err == nil {
		t.Fatal("league ran with a changed agent copy")
	}
	for _, want := range []string{"worker odd", "agent bot", "content hash", s.Leagues[0].Agents[1].Hash} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error lacks %q: %v", want, err)
		}
	}
	if played != 0 {
		t.Fatalf("%d game(s) stored", played)
	}
}
