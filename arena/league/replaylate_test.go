package league_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"arena/arena/league"
	"arena/arena/results"
	"arena/arena/slots"
)

// A late move on a loaded machine, by an agent that used no CPU, is marked
// possibly contention; the standings flag the agent; a ReplayLate run
// deletes exactly those games and plays them again (here on an idle
// machine, where the same late move is a plain late move), keeping the
// others.
func TestReplayLateReplaysContendedGames(t *testing.T) {
	file := writeFile(t, "late.yaml", `
name: late
game: bohnenspiel
games_per_pairing: 2
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
	s, out := loadLeague(t, file)
	pool, err := slots.New(t.TempDir(), s.Machine)
	if err != nil {
		t.Fatal(err)
	}
	busy := func() (slots.Sample, bool) { return slots.Sample{Load: 9, Runnable: 9, CPUs: 2}, true }
	idle := func() (slots.Sample, bool) { return slots.Sample{Load: 0.1, Runnable: 0, CPUs: 2}, true }
	ctx := context.Background()
	if err := league.Run(ctx, s, league.RunOptions{Launch: testLauncher(), Slots: pool, Sample: busy}); err != nil {
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
	st, err := results.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := league.Report(ctx, st, "late")
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
	if err := league.Run(ctx, s, league.RunOptions{Launch: testLauncher(), Slots: pool, Sample: idle, ReplayLate: true, Log: &log}); err != nil {
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
		} else if !g.Record.Started.Equal(before[i].Record.Started) {
			t.Fatalf("game %s without contention was replayed", g.Match.ID)
		}
	}
}
