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
//
// Two games per pairing give each kept process four games, so a state
// carried from one game into the next would change its second to fourth.
// The move limit is raised (patientMoves): at the course's 700 ms a
// loaded machine made a move late, the run played that game again
// (machine_replays) and so started two more processes. Plays, not games,
// are what start processes, so they are counted with the replays each
// record lists.
func TestReuseKeepsProcessesAndChangesNoGame(t *testing.T) {
	// Its own slots and counters; no verdict here is the clock's.
	t.Parallel()
	longRunning(t)
	file := leaguefiletest.Write(t, "reuse.yaml", `
name: reuse
game: bohnenspiel
games_per_pairing: 2
concurrency: 1
`+patientMoves+`
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
	run := func(noReuse bool) (started, plays int64, moves map[string]string, procs map[string][2]string) {
		out := filepath.Join(t.TempDir(), "league")
		opt := leaguefiletest.Options()
		opt.Sources.Sets = []string{"output=" + out}
		spec, err := leaguefile.Load(file, opt)
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		if err := league.Run(ctx, spec, league.RunOptions{Launch: countingLauncher(&n), NoReuse: noReuse, Slots: ownSlots(t, spec)}); err != nil {
			t.Fatal(err)
		}
		moves = map[string]string{}
		procs = map[string][2]string{}
		for _, g := range storedGames(t, out, "reuse") {
			plays += int64(1 + len(g.Record.Replays))
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
		return n.Load(), plays, moves, procs
	}
	freshN, freshPlays, freshMoves, freshProcs := run(true)
	keptN, _, keptMoves, keptProcs := run(false)
	games := len(freshMoves)
	if games != 6 || len(keptMoves) != games {
		t.Fatalf("games: %d without reuse, %d with; want 6", games, len(keptMoves))
	}
	if freshN != 2*freshPlays {
		t.Errorf("without reuse %d processes started for %d plays of %d games, want %d", freshN, freshPlays, games, 2*freshPlays)
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
// part of the league like any other. Two games tell the rules apart: kept
// processes would play both in two processes, fresh ones start four.
func TestProcessRuleOverrideStartsFreshProcesses(t *testing.T) {
	// Its own slots and counter; plays, not games, are counted.
	t.Parallel()
	longRunning(t)
	file := leaguefiletest.Write(t, "fresh.yaml", `
name: fresh
game: bohnenspiel
games_per_pairing: 2
concurrency: 1
overrides:
  processes: fresh
  move-limit: 20s
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
	if err := league.Run(ctx, spec, league.RunOptions{Launch: countingLauncher(&n), Slots: ownSlots(t, spec)}); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "fresh")
	// A game the machine spoilt is played again (machine_replays), by
	// processes of its own too.
	plays := int64(0)
	for _, g := range games {
		plays += int64(1 + len(g.Record.Replays))
	}
	if len(games) != 2 || n.Load() != 2*plays {
		t.Errorf("%d games, %d plays, %d processes started; want 2 games and two processes a play", len(games), plays, n.Load())
	}
	for _, g := range games {
		if p := [2]string{g.Record.Agents[0].Process, g.Record.Agents[1].Process}; p != [2]string{} {
			t.Errorf("game %s names kept processes %q", g.Match.ID, p)
		}
	}
}
