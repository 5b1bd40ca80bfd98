package league_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/league/standings"
	"arena/arena/results/resultsdb"
)

// A Swiss qualifier feeding a knockout, cancelled once inside the
// qualifier and once inside the knockout, resumes each time where it
// stopped: in the end every game the formats hand out is stored exactly
// once and was played exactly once.
func TestStagedLeagueCancelledAndResumed(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	file := leaguefiletest.Write(t, "cup.yaml", `
name: cup
game: bohnenspiel
format: knockout
qualifier: {format: swiss, rounds: 3, advance: 4}
games_per_pairing: 2
concurrency: 2
agents:
  - {name: g1, agent: greedy}
  - {name: r1, agent: random}
  - {name: g2, agent: greedy}
  - {name: r2, agent: random}
  - {name: r3, agent: random}
`)
	spec, out := loadLeague(t, file)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var starts atomic.Int64
	launch := playCounting(&starts)
	pool := ownSlots(t, spec)
	run := func(stopAfter int) error {
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		played := 0
		return league.Run(rctx, spec, league.RunOptions{
			Launch: launch,
			Slots:  pool,
			OnGame: func(league.Progress) {
				if played++; played == stopAfter {
					stop()
				}
			},
		})
	}
	// The qualifier is 3 rounds of 2 pairings of 2 games: 12 games.
	if err := run(5); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want cancelled", err)
	}
	if n := len(storedGames(t, out, "cup")); n < 5 || n >= 12 {
		t.Fatalf("%d games stored after cancelling inside the qualifier", n)
	}
	if err := run(12 - len(storedGames(t, out, "cup")) + 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("second run: %v, want cancelled", err)
	}
	if n := len(storedGames(t, out, "cup")); n <= 12 {
		t.Fatalf("%d games stored after cancelling inside the knockout, want more than the qualifier's 12", n)
	}
	if err := run(0); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "cup")
	pts := map[string]float64{}
	plays := 0
	for _, g := range games {
		plays += 1 + len(g.Record.Replays)
		if g.Record.ID != g.Match.ID {
			t.Errorf("record %s stored under match %s", g.Record.ID, g.Match.ID)
		}
		pts[g.Match.ID] = g.Record.Outcome(0)
	}
	res, next, err := spec.Leagues[0].Walk(pts)
	if err != nil {
		t.Fatal(err)
	}
	if next != nil || len(res) != len(games) {
		t.Fatalf("the formats hand out %d games and want %d more; %d stored", len(res), len(next), len(games))
	}
	// Games cut short by a cancel were started and were played again: at
	// most the two games in progress at each of the two cancels. Plays
	// count the games the machine spoilt and the run played again.
	if n := int(starts.Load()); n < 2*plays || n > 2*plays+2*2*2 {
		t.Errorf("agents started for %d games, %d plays of %d stored games: more than the two cancels' games in progress replayed", n/2, plays, len(games))
	}
	ko := 0
	for _, r := range res {
		if r.Stage == 1 {
			ko++
		}
	}
	if ko < 6 {
		t.Errorf("%d knockout games, want at least 3 matches of 2", ko)
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := standings.Report(ctx, st, "cup")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stages == nil || rep.Stages.Swiss == nil || rep.Stages.Bracket == nil {
		t.Fatalf("standings of a staged league without its tables: %+v", rep.Stages)
	}
	if sw := rep.Stages.Swiss; sw.Played != 3 || len(sw.Rows) != 5 || len(sw.Rows[0].Rounds) != 3 {
		t.Errorf("swiss table %+v", sw)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	champion := rep.Stages.Bracket.Rounds[len(rep.Stages.Bracket.Rounds)-1][0].Winner
	for _, want := range []string{"swiss, 3 of 3 rounds complete", "bye 2", "knockout (higher seed first):", "round 2:", "winner: " + champion} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("standings lack %q:\n%s", want, text.String())
		}
	}
}
