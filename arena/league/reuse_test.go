package league_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/referee"
	"arena/engine"
	"arena/plugins/host"
)

// countingLauncher is the test launcher, counting the processes it starts.
func countingLauncher(n *atomic.Int64) referee.Launcher {
	l := testLauncher()
	return func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		n.Add(1)
		return l(ctx, p, o)
	}
}

// A league keeps built-in agents' processes across its games: far fewer
// processes start, the records name the process each game shared, and
// every game is move for move the game a fresh process plays (each game
// starts with a new agent, even one whose moves depend on its past).
func TestReuseKeepsProcessesAndChangesNoGame(t *testing.T) {
	longRunning(t)
	file := leaguefiletest.Write(t, "reuse.yaml", `
name: reuse
game: bohnenspiel
games_per_pairing: 4
concurrency: 1
agents:
  - name: counting
    agent: counting
  - name: random
    agent: random
  - name: greedy
    agent: greedy
`)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := func(noReuse bool) (int64, map[string]string, map[string][2]string) {
		out := filepath.Join(t.TempDir(), "league")
		opt := leaguefiletest.Options()
		opt.Sources.Sets = []string{"output=" + out}
		spec, err := leaguefile.Load(file, opt)
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		if err := league.Run(ctx, spec, league.RunOptions{Launch: countingLauncher(&n), NoReuse: noReuse}); err != nil {
			t.Fatal(err)
		}
		moves := map[string]string{}
		procs := map[string][2]string{}
		for _, g := range storedGames(t, out, "reuse") {
			if len(g.Record.Events) > 0 {
				t.Fatalf("game %s has events: %+v", g.Match.ID, g.Record.Events)
			}
			var texts []string
			for _, m := range g.Record.Moves {
				texts = append(texts, m.Text)
			}
			moves[g.Match.ID] = strings.Join(texts, " ")
			procs[g.Match.ID] = [2]string{g.Record.Agents[0].Process, g.Record.Agents[1].Process}
		}
		return n.Load(), moves, procs
	}
	freshN, freshMoves, freshProcs := run(true)
	keptN, keptMoves, keptProcs := run(false)
	games := len(freshMoves)
	if games != 12 || len(keptMoves) != games {
		t.Fatalf("games: %d without reuse, %d with; want 12", games, len(keptMoves))
	}
	if freshN != int64(2*games) {
		t.Errorf("without reuse %d processes started, want %d", freshN, 2*games)
	}
	if keptN != 3 {
		t.Errorf("with reuse %d processes started, want 3 (one per agent, one worker)", keptN)
	}
	for id, m := range freshMoves {
		if keptMoves[id] != m {
			t.Errorf("game %s differs with a kept process:\n fresh %s\n kept  %s", id, m, keptMoves[id])
		}
		if p := freshProcs[id]; p != [2]string{} {
			t.Errorf("game %s without reuse names processes %q", id, p)
		}
	}
	// Each game names, per seat, a process and its game number in it.
	for id, p := range keptProcs {
		for seat, s := range p {
			if pid, n, ok := strings.Cut(s, "/"); !ok || pid == "" || n == "" {
				t.Fatalf("game %s seat %d: process %q, want PID/N", id, seat, s)
			}
		}
	}
	pids := map[string]bool{}
	counts := map[string]int{}
	for _, p := range keptProcs {
		for _, s := range p {
			pid, _, _ := strings.Cut(s, "/")
			pids[pid] = true
			counts[s]++
		}
	}
	if len(pids) != 3 {
		t.Errorf("games name %d processes, want 3: %v", len(pids), keptProcs)
	}
	for s, c := range counts {
		if c != 1 {
			t.Errorf("process game %s named %d times", s, c)
		}
	}
}

func TestReusableFollowsTheProfilesProcessRule(t *testing.T) {
	kinds := []string{leaguefile.KindBuiltin, leaguefile.KindLua, leaguefile.KindBinary, leaguefile.KindGo, leaguefile.KindCourse}
	want := map[engine.Processes][]bool{
		"":                      {true, true, false, false, false},
		engine.ProcessesBuiltin: {true, true, false, false, false},
		engine.ProcessesAll:     {true, true, true, true, false},
		engine.ProcessesFresh:   {false, false, false, false, false},
	}
	for rule, w := range want {
		for i, k := range kinds {
			if got := league.Reusable(&leaguefile.Agent{Kind: k}, rule); got != w[i] {
				t.Errorf("rule %q, %s agent: reusable %v, want %v", rule, k, got, w[i])
			}
		}
	}
}

// A league whose profile says "processes: fresh" starts every agent anew
// for every game, without --fresh-processes; the override is printed and
// part of the league like any other.
func TestProcessRuleOverrideStartsFreshProcesses(t *testing.T) {
	longRunning(t)
	file := leaguefiletest.Write(t, "fresh.yaml", `
name: fresh
game: bohnenspiel
games_per_pairing: 4
concurrency: 1
overrides:
  processes: fresh
agents:
  - name: random
    agent: random
  - name: greedy
    agent: greedy
`)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	spec, out := loadLeague(t, file)
	if r := spec.Leagues[0].Profile.ProcessRule(); r != engine.ProcessesFresh {
		t.Fatalf("profile's process rule %q, want fresh", r)
	}
	var n atomic.Int64
	if err := league.Run(ctx, spec, league.RunOptions{Launch: countingLauncher(&n)}); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "fresh")
	if len(games) != 4 || n.Load() != 8 {
		t.Errorf("%d games, %d processes started; want 4 and 8", len(games), n.Load())
	}
	for _, g := range games {
		if p := [2]string{g.Record.Agents[0].Process, g.Record.Agents[1].Process}; p != [2]string{} {
			t.Errorf("game %s names kept processes %q", g.Match.ID, p)
		}
	}
}
