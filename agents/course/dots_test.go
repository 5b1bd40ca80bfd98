package course_test

import (
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/engine"
)

const dab = "course:testdata/dab/"

// TestDotsBotPlaysFullGames: a calculate_move bot plays whole games from
// both seats; it raises if its globals were lost between calls or the
// view was not its own (its lines owned by player 0), so a clean game
// shows both held.
func TestDotsBotPlaysFullGames(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	for seat := range 2 {
		refs := [2]string{"builtin:random", "builtin:random"}
		refs[seat] = dab + "greedy.py"
		rec := play(t, match{game: "dots-and-boxes", refs: refs, seed: uint64(7 + seat)})
		if rec.Result.Forfeit != "" || len(rec.Events) > 0 {
			t.Fatalf("seat %d: a clean game was expected:\n%s", seat, events(rec))
		}
		if len(rec.Moves) != 40 {
			t.Fatalf("seat %d: %d moves, want all 40 lines of 5x5 dots", seat, len(rec.Moves))
		}
		if agentMoves(rec, seat) == 0 {
			t.Fatalf("seat %d: the bot made no move", seat)
		}
	}
}

// TestDotsBrokenBots: each failure mode gets the profile's verdict (every
// failure of a bot is a loss under aigaming-cs4386-2020).
func TestDotsBrokenBots(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	cases := []struct {
		file, kind, detail string
	}{
		{"raises.py", string(engine.FailError), "calculate_move raised: ValueError: the bot fails on its second move"},
		{"none.py", string(engine.FailError), "calculate_move returned None"},
		{"hangs.py", string(engine.FailTimeout), ""},
		{"exits.py", string(engine.FailDead), ""},
		// Cannot be imported, or no interpreter: the bot never opens its
		// game, a no-show.
		{"missing.py", string(engine.FailNoShow), "No module named 'notthere_arena_test_module'"},
		{"garbage.py", string(engine.FailUnparseable), ""},
		// No interpreter: the reason names the Debian packages.
		{"greedy.py?python=/no/such/python3", string(engine.FailNoShow), "Debian: apt-get install python3 python3-numpy"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			rec := play(t, match{game: "dots-and-boxes", refs: [2]string{dab + c.file, "builtin:random"}, seed: 3,
				tune: func(p *engine.Profile) { p.MoveLimit = 3 * time.Second }})
			ev := firstEvent(rec, 0)
			if ev == nil || ev.Kind != c.kind || ev.Penalty != string(engine.Loss) {
				t.Fatalf("want a %s loss, got:\n%s", c.kind, events(rec))
			}
			if rec.Result.Winner != 1 {
				t.Fatalf("winner %d, want the opponent", rec.Result.Winner)
			}
			if !strings.Contains(ev.Detail, c.detail) {
				t.Fatalf("detail %q, want it to contain %q", ev.Detail, c.detail)
			}
		})
	}
}

// TestDotsBotPrintsToStdout: what a bot prints never reaches the plugin
// channel; it lands in the stderr log and the game goes on.
func TestDotsBotPrintsToStdout(t *testing.T) {
	t.Parallel()
	needPython(t)
	rec := play(t, match{game: "dots-and-boxes", refs: [2]string{dab + "prints.py", "builtin:random"}, seed: 5})
	if len(rec.Events) > 0 || len(rec.Moves) != 40 {
		t.Fatalf("want a clean full game:\n%s", events(rec))
	}
	if !strings.Contains(rec.Stderr[0], "thinking about 40 lines") {
		t.Fatalf("the bot's print is not in its stderr log: %q", rec.Stderr[0])
	}
	if rec.Moves[0].Source != record.SourceAgent {
		t.Fatal("first move not the bot's")
	}
}
