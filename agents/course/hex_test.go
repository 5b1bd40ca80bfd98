package course_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"arena/arena/record"
	"arena/engine"
)

const hx = "course:testdata/hex/"

// slowStart replaces the course's 6 s connect limit with a generous one: a
// loaded test machine starting several interpreters at once may need more.
func slowStart(p *engine.Profile) { p.StartupTimeout = time.Minute }

// TestHexScriptsPlayFullGamesSideBySide: TA-protocol scripts, every one
// hard-wired to 127.0.0.1:8888, play whole games at the same time (each
// in its own network namespace). The script checks mapStat against
// gameStat and raises on a mismatch, so a clean game shows the boards it
// was sent were consistent.
func TestHexScriptsPlayFullGamesSideBySide(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	var wg sync.WaitGroup
	recs := make([]*record.Game, 4)
	for i := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			refs := [2]string{hx + "agent.py", "builtin:random"}
			if i%2 == 1 {
				refs = [2]string{"builtin:random", hx + "agent.py"}
			}
			if i == 3 {
				refs = [2]string{hx + "agent.py", hx + "agent.py"}
			}
			recs[i] = play(t, match{game: "hex-crossout", params: engine.Params{"free": "20", "seed": "5"}, refs: refs, seed: uint64(i), tune: slowStart})
		}()
	}
	wg.Wait()
	for i, rec := range recs {
		if len(rec.Events) > 0 || rec.Result.Winner < 0 {
			t.Fatalf("game %d: want a clean game with a winner:\n%s", i, events(rec))
		}
		for seat := range 2 {
			if strings.HasPrefix(rec.Agents[seat].Ref, "course:") && agentMoves(rec, seat) == 0 {
				t.Fatalf("game %d: the script in seat %d made no move", i, seat)
			}
		}
	}
}

// TestHexBrokenScripts: each failure mode gets the nycu-aicap-2023
// verdict: a dead script's turns are skipped, one that never connects
// is a no-show and forfeits, a late one gets a random
// move and plays on, an illegal move loses.
func TestHexBrokenScripts(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	cases := []struct {
		file, kind, penalty, detail string
	}{
		{"raises.py", string(engine.FailDead), "skip-turn", ""},
		{"returns_none.py", string(engine.FailDead), "skip-turn", ""},
		{"exits.py", string(engine.FailDead), "skip-turn", ""},
		{"missing.py", string(engine.FailNoShow), "loss", "notthere_arena_test_module"}, // never connects: a no-show
		{"hangs.py", string(engine.FailTimeout), "random-move", ""},
		{"illegal.py", string(engine.FailIllegal), "loss", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			rec := play(t, match{game: "hex-crossout", params: engine.Params{"free": "24", "seed": "2"}, refs: [2]string{hx + c.file, "builtin:random"}, seed: 1,
				tune: func(p *engine.Profile) {
					slowStart(p)
					p.MoveLimit, p.FirstMoveLimit = 2*time.Second, 2*time.Second
					if c.file == "hangs.py" {
						// Every move after its first is one it never
						// returns from: a short limit only shortens the
						// waits for their random moves.
						p.MoveLimit = 500 * time.Millisecond
					}
				}})
			ev := firstEvent(rec, 0)
			if ev == nil || ev.Kind != c.kind || ev.Penalty != c.penalty {
				t.Fatalf("want %s/%s, got:\n%s", c.kind, c.penalty, events(rec))
			}
			if !strings.Contains(ev.Detail+rec.Stderr[0], c.detail) {
				t.Fatalf("want %q in the detail or stderr log:\n%s", c.detail, events(rec))
			}
			switch c.penalty {
			case "skip-turn":
				// Dead for good: every later turn of the script is skipped.
				after := false
				for _, m := range rec.Moves {
					if m.Seat == 0 && m.Source == record.SourceSkip {
						after = true
					} else if m.Seat == 0 && after {
						t.Fatalf("the dead script moved again at ply %d", m.Ply)
					}
				}
			case "random-move":
				if rec.Result.Winner < 0 || rec.Result.Forfeit != "" {
					t.Fatalf("the game should have gone on to a normal end: %+v", rec.Result)
				}
			case "loss":
				want := `ILLEGAL MOVE: player 1 played "12,0,1,1"`
				if c.kind == string(engine.FailNoShow) {
					want = "NO-SHOW: player 1"
				}
				if rec.Result.Winner != 1 || !strings.HasPrefix(rec.Result.Reason, want) {
					t.Fatalf("result %+v", rec.Result)
				}
			}
		})
	}
}

// TestHexScriptPrints: a script's prints go to its stderr log.
func TestHexScriptPrints(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	rec := play(t, match{game: "hex-crossout", refs: [2]string{hx + "prints.py", "builtin:random"}, seed: 2, tune: slowStart})
	if len(rec.Events) > 0 {
		t.Fatalf("want a clean game:\n%s", events(rec))
	}
	if !strings.Contains(rec.Stderr[0], "free cells: 24") {
		t.Fatalf("the print is not in the stderr log: %q", rec.Stderr[0])
	}
}
