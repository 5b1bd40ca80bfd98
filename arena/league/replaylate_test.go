package league_test

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/league/standings"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
)

// A late move whose agent waited for a CPU all along (scripted run-queue
// readings, so that the machine's own load decides nothing) is marked
// possibly contention; the standings flag the agent; with automatic
// replays off, the game is published, and a ReplayLate run deletes exactly
// those games and plays them again (here without the wait, where the same
// late move is a plain late move), keeping the others, and the new plays'
// records name the deleted ones.
func TestReplayLateReplaysContendedGames(t *testing.T) {
	longRunning(t)
	file := leaguefiletest.Write(t, "late.yaml", `
name: late
game: bohnenspiel
games_per_pairing: 2
machine_replays: 0
overrides:
  move-limit: 500ms
agents:
  - name: dozy
    agent: dozy
  - name: greedy
    agent: greedy
  - name: random
    agent: random
`)
	s, out, pool := loadWithSlots(t, file)
	busy := func() (slots.Sample, bool) { return slots.Sample{Load: 9, Runnable: 9, CPUs: 2}, true }
	idle := func() (slots.Sample, bool) { return slots.Sample{Load: 0.1, Runnable: 0, CPUs: 2}, true }
	ctx := context.Background()
	var starve atomic.Int64
	starve.Store(1 << 30)
	if err := league.Run(ctx, s, league.RunOptions{Launch: starvedLauncher(testLauncher(), "dozy", &starve), Slots: pool, Sample: busy}); err != nil {
		t.Fatal(err)
	}
	before := storedGames(t, out, "late")
	contended := map[string]bool{}
	for _, g := range before {
		if g.Record.Contention(0)+g.Record.Contention(1) > 0 {
			contended[g.Match.ID] = true
		}
	}
	// dozy plays 4 games, each with one late move.
	if len(before) != 6 || len(contended) != 4 {
		t.Fatalf("%d games, %d marked possibly contention; want 6 and 4", len(before), len(contended))
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := standings.Report(ctx, st, "late")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		want := map[string]int{"dozy": 4}[r.Agent]
		if r.Contention != want {
			t.Fatalf("%s: %d possibly contention, want %d", r.Agent, r.Contention, want)
		}
	}
	if !strings.Contains(text.String(), "dozy: 4 of its 4 timeout(s) possibly contention") {
		t.Fatalf("standings do not flag dozy:\n%s", text.String())
	}

	var log bytes.Buffer
	starve.Store(0)
	if err := league.Run(ctx, s, league.RunOptions{Launch: starvedLauncher(testLauncher(), "dozy", &starve), Slots: pool, Sample: idle, ReplayLate: true, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "replaying 4 game(s)") {
		t.Fatalf("log does not name the replay:\n%s", log.String())
	}
	after := storedGames(t, out, "late")
	if len(after) != 6 {
		t.Fatalf("%d games after the replay", len(after))
	}
	for i, g := range after {
		if contended[g.Match.ID] {
			if g.Record.Contention(0)+g.Record.Contention(1) != 0 || len(g.Record.Events) == 0 {
				t.Fatalf("game %s after replay: events %+v", g.Match.ID, g.Record.Events)
			}
			if !g.Record.Started.After(before[i].Record.Started) {
				t.Fatalf("game %s was not played again", g.Match.ID)
			}
			if r := g.Record.Replays; len(r) != 1 || !r[0].Started.Equal(before[i].Record.Started) || !strings.Contains(r[0].Reason, "replay-late") || !strings.Contains(r[0].Reason, "waiting for a CPU") {
				t.Fatalf("game %s after replay lists its replays as %+v", g.Match.ID, r)
			}
		} else if !g.Record.Started.Equal(before[i].Record.Started) {
			t.Fatalf("game %s without contention was replayed", g.Match.ID)
		}
	}
}

// runDozy runs a Bohnenspiel league of dozy against random at a 500 ms
// move limit, with extra league-file lines, dozy's second moves starved
// while starve is above zero (starvedLauncher); it returns the stored
// games and the run's log.
func runDozy(t *testing.T, name, extra string, starve int64) ([]results.Game, string) {
	t.Helper()
	file := leaguefiletest.Write(t, name+".yaml", "name: "+name+`
game: bohnenspiel
games_per_pairing: 2
`+extra+`
overrides:
  move-limit: 500ms
agents:
  - name: dozy
    agent: dozy
  - name: random
    agent: random
`)
	s, out, pool := loadWithSlots(t, file)
	var left atomic.Int64
	left.Store(starve)
	var log bytes.Buffer
	if err := league.Run(context.Background(), s, league.RunOptions{Launch: starvedLauncher(testLauncher(), "dozy", &left), Slots: pool, Log: &log}); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, name)
	if len(games) != 2 {
		t.Fatalf("%d games stored, want 2", len(games))
	}
	return games, log.String()
}

// A game in which the machine caused a verdict is withheld and played
// again once, later in the same run; the published play is the second,
// and its record names the first and why it was not kept.
func TestMachineCausedGameIsPlayedAgainOnce(t *testing.T) {
	longRunning(t)
	games, log := runDozy(t, "again", "", 1) // dozy's first game only
	if !strings.Contains(log, "withheld, to be played again") || !strings.Contains(log, "playing again 1 game(s)") {
		t.Fatalf("log does not name the replay:\n%s", log)
	}
	replayed := 0
	for _, g := range games {
		if g.Record.Contention(0)+g.Record.Contention(1) != 0 {
			t.Fatalf("game %s published with a verdict the machine caused: %+v", g.Match.ID, g.Record.Events)
		}
		switch r := g.Record.Replays; len(r) {
		case 0:
		case 1:
			replayed++
			if !strings.Contains(r[0].Reason, "dozy") || !strings.Contains(r[0].Reason, "waiting for a CPU") || !r[0].Started.Before(g.Record.Started) {
				t.Fatalf("game %s: replay %+v", g.Match.ID, r[0])
			}
		default:
			t.Fatalf("game %s played %d times before", g.Match.ID, len(r))
		}
	}
	if replayed != 1 {
		t.Fatalf("%d games replayed, want 1", replayed)
	}
}

// The replays are bounded: a game the machine spoils at every play is
// withheld machine_replays times, then published with its verdict.
func TestMachineReplaysAreBounded(t *testing.T) {
	longRunning(t)
	games, _ := runDozy(t, "bounded", "machine_replays: 1", 1<<30)
	for _, g := range games {
		if g.Record.Contention(0)+g.Record.Contention(1) != 1 || len(g.Record.Replays) != 1 {
			t.Fatalf("game %s: %d replays, events %+v", g.Match.ID, len(g.Record.Replays), g.Record.Events)
		}
	}
}

// loadWithSlots loads a league file as loadLeague does, with a CPU slot
// pool of its own.
func loadWithSlots(t *testing.T, file string) (*leaguefile.Spec, string, *slots.Pool) {
	t.Helper()
	s, out := loadLeague(t, file)
	pool, err := slots.New(t.TempDir(), s.Machine)
	if err != nil {
		t.Fatal(err)
	}
	return s, out, pool
}
