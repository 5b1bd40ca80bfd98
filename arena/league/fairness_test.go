package league_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/slots"
)

// An agent that answers at 90% of its per-move limit, in a league at full
// slots while CPU hogs outside the arena keep every CPU busy: the run
// warns, before the first game, that the machine is busy, naming the
// load; the agent's replies are never judged late unless the record
// marks them possibly contention with the evidence (wall time, the
// agent's CPU time, the load) that shows it; and its pinned, full-time
// thinking is recorded near 90% of the limit.
func TestNinetyPercentAgentUnderOutsideLoad(t *testing.T) {
	longRunning(t)
	mach, err := slots.Detect(2)
	if err != nil {
		t.Fatal(err)
	}
	if mach.N < 2 {
		t.Skip("needs two CPUs")
	}
	// One hog more than the slots: the machine has more work than CPUs.
	var hogs []*exec.Cmd
	for range mach.N + 1 {
		c := exec.Command(os.Args[0], hogArg)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		hogs = append(hogs, c)
	}
	t.Cleanup(func() {
		for _, c := range hogs {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	})
	// Wait until the hogs are spinning.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if smp, ok := slots.Now(); ok && smp.Runnable > mach.N {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hogs never showed as running")
		}
		time.Sleep(20 * time.Millisecond)
	}

	file := leaguefiletest.Write(t, "ninety.yaml", `
name: ninety
game: bohnenspiel
games_per_pairing: 2
overrides:
  move-limit: 1s
  first-move-limit: 1s
agents:
  - name: ninety
    agent: ninety
  - name: random
    agent: random
`)
	s, out, pool := loadWithSlots(t, file)
	var mu sync.Mutex
	var warnings []string
	started := false
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	err = league.Run(ctx, s, league.RunOptions{
		Launch: testLauncher(), Slots: pool,
		Warn: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			if started {
				t.Errorf("warning after the first game started: %s", msg)
			}
			warnings = append(warnings, msg)
		},
		OnStart: func(int, int) { mu.Lock(); started = true; mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	busy := false
	for _, w := range warnings {
		busy = busy || (strings.Contains(w, "machine is busy") && strings.Contains(w, "load average"))
	}
	if !busy {
		t.Fatalf("no busy-machine warning naming the load; warnings: %q", warnings)
	}
	games := storedGames(t, out, "ninety")
	if len(games) != 2 {
		t.Fatalf("%d games stored", len(games))
	}
	thought := 0
	for _, g := range games {
		seat := 0
		if g.Record.Agents[1].Name == "ninety" {
			seat = 1
		}
		for _, e := range g.Record.Events {
			if e.Seat != seat {
				continue
			}
			ev := e.Evidence
			if ev == nil || !ev.PossiblyContention {
				t.Errorf("game %s ply %d: %s judged without contention evidence: %s (evidence %+v)", g.Record.ID, e.Ply, e.Kind, e.Detail, ev)
			}
		}
		for _, m := range g.Record.Moves {
			if m.Seat == seat && m.Source == "agent" && m.WallMS >= 850 {
				thought++
			}
		}
	}
	// Three moves at 90% per game, unless a late one was replaced.
	if thought < 3 {
		t.Fatalf("only %d moves of the ninety agent took 85%%+ of the limit", thought)
	}
}
