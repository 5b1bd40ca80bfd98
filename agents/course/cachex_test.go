package course_test

import (
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/engine"
)

const cx = "course:testdata/cachex/"

// TestCachexPackagePlaysFullGames: a player package keeping its own board
// from turn() notifications of both sides (STEAL included) plays whole
// games from both colours without an illegal action, so every action
// reached it, in order, as the course's tuples.
func TestCachexPackagePlaysFullGames(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	for seat := range 2 {
		for _, n := range []string{"5", "6"} {
			refs := [2]string{"builtin:random", "builtin:random"}
			refs[seat] = cx + "team_a"
			rec := play(t, match{game: "cachex", params: engine.Params{"n": n}, refs: refs, seed: uint64(11 + seat)})
			if rec.Result.Forfeit != "" || len(rec.Events) > 0 {
				t.Fatalf("seat %d n=%s: a clean game was expected:\n%s", seat, n, events(rec))
			}
			if rec.Result.Winner < 0 && !rec.Result.Draw {
				t.Fatalf("seat %d n=%s: no result: %+v", seat, n, rec.Result)
			}
			if agentMoves(rec, seat) < 2 {
				t.Fatalf("seat %d n=%s: the package made %d moves", seat, n, agentMoves(rec, seat))
			}
		}
	}
}

// cleanCachexGame plays the package pkg of testdata/cachex against the
// built-in random on a board of 5, and fails the test unless the game
// had no event.
func cleanCachexGame(t *testing.T, pkg string, seed uint64) *record.Game {
	t.Helper()
	rec := play(t, match{game: "cachex", params: engine.Params{"n": "5"}, refs: [2]string{cx + pkg, "builtin:random"}, seed: seed})
	if len(rec.Events) > 0 {
		t.Fatalf("want a clean game:\n%s", events(rec))
	}
	return rec
}

// TestCachexCPUCountsThePythonProcess: CPU the package burns in turn()
// (while the opponent is on move) is charged to it, as the course did.
func TestCachexCPUCountsThePythonProcess(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	rec := cleanCachexGame(t, "thinks", 2)
	// Before its reply at move i it was notified of the i earlier actions,
	// 20 ms of CPU each, all in the Python process.
	var checked bool
	for i, m := range rec.Moves {
		if m.Seat != 0 || i < 4 {
			continue
		}
		if want := 20 * float64(i) * 0.9; m.CPUMS < want {
			t.Fatalf("move %d: CPU charged %.0f ms, want at least %.0f ms", i, m.CPUMS, want)
		}
		checked = true
	}
	if !checked {
		t.Fatal("the game was too short to check")
	}
}

// TestCachexBrokenPackages: each failure mode gets the comp30024-2022
// verdict: a loss with the course's reason, memory held by the Python
// interpreter included.
func TestCachexBrokenPackages(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	cases := []struct {
		pkg, kind, reason, detail string
	}{
		{"raises", string(engine.FailError), "player 1 raised an error", "RuntimeError: no idea what to do"},
		{"returns_none", string(engine.FailUnparseable), "error: invalid action!", "Action does not exist or is not well formed."},
		{"numpy_ints", string(engine.FailUnparseable), "error: invalid action!", "Action does not exist or is not well formed."},
		{"hangs", string(engine.FailTimeout), "player 1 exceeded available time", ""},
		{"exits", string(engine.FailDead), "player 1 process died", ""},
		// A package that cannot be imported never opens its game: a no-show,
		// which forfeits under every profile.
		{"missing", string(engine.FailNoShow), "NO-SHOW: player 1", "No module named 'notthere_arena_test_module'"},
		// Space as the course referee measured it: the peak above the
		// size after the package's imports, checked after each call.
		{"hogs", string(engine.FailMemory), "player 1 exceeded space limit", "above the size after imports"},
		// The constructor is measured too: over the limit in __init__ is
		// a loss for space, as the course's referee gave it, not a no-show.
		{"hogs_init", string(engine.FailMemory), "player 1 exceeded space limit", "above the size after imports"},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			t.Parallel()
			// A short budget for the one that hangs, so it is killed
			// soon; the others keep the course's, so a loaded machine
			// cannot turn their verdict into a timeout.
			tune := func(p *engine.Profile) {
				if c.kind == string(engine.FailTimeout) {
					p.Budget, p.BudgetGrace = 2*time.Second, time.Second
				}
			}
			rec := play(t, match{game: "cachex", params: engine.Params{"n": "5"}, refs: [2]string{cx + c.pkg, "builtin:random"}, seed: 3, tune: tune})
			ev := firstEvent(rec, 0)
			if ev == nil || ev.Kind != c.kind || ev.Penalty != string(engine.Loss) {
				t.Fatalf("want a %s loss, got:\n%s", c.kind, events(rec))
			}
			if rec.Result.Winner != 1 || rec.Result.Reason != c.reason {
				t.Fatalf("result %+v, want blue to win with %q", rec.Result, c.reason)
			}
			if !strings.Contains(ev.Detail+" "+rec.Result.Detail, c.detail) {
				t.Fatalf("detail %q / %q, want %q", ev.Detail, rec.Result.Detail, c.detail)
			}
		})
	}
}

// A course Python agent holding memory where no resident size shows it (a
// memfd written and never mapped) is stopped by its group's backstop, twice
// its tree ceiling: with a 100 MiB ceiling it cannot hold 600 MiB, and dies
// for it, costing its own game only. Its group holds no other memory rule:
// the course's own rule is the space check.
func TestCachexMemoryOutsideTheResidentSizeIsBounded(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	// The backstop is a cgroup's limit: where agents' groups cannot hold
	// one (no writable cgroups), nothing bounds this memory (docs/security.md).
	if a := gameLauncher().Accounting(); !strings.Contains(a, "memory limit") {
		t.Skipf("agents' groups hold no memory limit here: %s", a)
	}
	tune := func(p *engine.Profile) { p.PythonCeilingMB = 100 }
	rec := play(t, match{game: "cachex", params: engine.Params{"n": "5"}, refs: [2]string{cx + "memfd", "builtin:random"}, seed: 3, tune: tune})
	if strings.Contains(rec.Stderr[0], "memfd: wrote 600 MiB") {
		t.Fatalf("the agent held 600 MiB outside its resident size under a 100 MiB ceiling:\n%s", events(rec))
	}
	if ev := firstEvent(rec, 0); ev == nil || ev.Kind != string(engine.FailDead) || ev.Penalty != string(engine.Loss) || rec.Result.Winner != 1 {
		t.Fatalf("want the memfd agent killed and its game lost, got %+v:\n%s", rec.Result, events(rec))
	}
}

// A package using multiprocessing's semaphores (POSIX named semaphores,
// made in /dev/shm) plays a clean game: the sandbox has a /dev/shm of its
// own, as the machine the course's referee ran on had.
func TestCachexMultiprocessingLock(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	cleanCachexGame(t, "semlock", 5)
}

// TestCachexPrintsStayOffTheChannel: a package printing on stdout plays a
// normal game; its prints are in the stderr log.
func TestCachexPrintsStayOffTheChannel(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	rec := cleanCachexGame(t, "prints", 4)
	if !strings.Contains(rec.Stderr[0], "my action: ('PLACE', ") {
		t.Fatalf("the print is not in the stderr log: %q", rec.Stderr[0])
	}
}

// TestCachexImportMemoryIsNotCounted: a package that builds a 150 MiB
// table at import and uses 60 MiB more per action plays clean games: the
// course referee's baseline was taken after the imports, and its limit is
// the peak above it. The resident rule of other agents is lowered to
// 50 MiB, far under what the interpreter holds, so the game shows the
// course's measure was applied and not that rule. The same package with a
// 40 MiB course limit loses for space, so the 60 MiB was measured.
func TestCachexImportMemoryIsNotCounted(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	rec := play(t, match{game: "cachex", params: engine.Params{"n": "5"}, refs: [2]string{cx + "imports_big", "builtin:random"}, seed: 6,
		tune: func(p *engine.Profile) { p.MemoryMB = 50 }})
	if len(rec.Events) > 0 || rec.Result.Forfeit != "" {
		t.Fatalf("want a clean game:\n%s", events(rec))
	}
	if agentMoves(rec, 0) < 3 {
		t.Fatalf("the package made %d moves", agentMoves(rec, 0))
	}
	rec = play(t, match{game: "cachex", params: engine.Params{"n": "5"}, refs: [2]string{cx + "imports_big", "builtin:random"}, seed: 6,
		tune: func(p *engine.Profile) { p.PythonPeakMB = 40 }})
	if ev := firstEvent(rec, 0); ev == nil || ev.Kind != string(engine.FailMemory) || rec.Result.Reason != "player 1 exceeded space limit" {
		t.Fatalf("want a space loss under a 40 MiB limit:\n%s", events(rec))
	}
}
