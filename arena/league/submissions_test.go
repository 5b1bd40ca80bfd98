package league_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
)

// An agent added to agents: later plays only its own games: the stored
// ones are kept, no --force is needed, and the run says so first.
func TestAgentAddedLaterPlaysOnlyItsGames(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	out := filepath.Join(t.TempDir(), "late")
	body := "name: late\ngame: bohnenspiel\ngames_per_pairing: 2\noutput: " + out + "\nagents:\n  - name: greedy\n    agent: greedy\n  - name: random\n    agent: random\n"
	ctx := context.Background()
	run := func(body string) (string, int) {
		t.Helper()
		s, err := leaguefile.Load(leaguefiletest.Write(t, "late.yaml", body), leaguefiletest.Options())
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		played := 0
		err = league.Run(ctx, s, league.RunOptions{Launch: testLauncher(), Slots: ownSlots(t, s), Log: &log, OnGame: func(p league.Progress) {
			if p.Game != nil {
				played++
			}
		}})
		if err != nil {
			t.Fatalf("run: %v\n%s", err, log.String())
		}
		return log.String(), played
	}
	if _, n := run(body); n != 2 {
		t.Fatalf("first run played %d games, want 2", n)
	}
	log, n := run(body + "  - name: random2\n    agent: builtin:random\n")
	if n != 4 || !strings.Contains(log, "league late: 4 new game(s) for random2; 2 stored game(s) kept") {
		t.Fatalf("second run played %d games, want random2's 4:\n%s", n, log)
	}
	if got := len(storedGames(t, out, "late")); got != 6 {
		t.Fatalf("%d games stored, want 6", got)
	}
}
