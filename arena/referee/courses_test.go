package referee_test

import (
	"context"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/plugins/host/proctree"
)

func playGame(t *testing.T, g engine.Game, params engine.Params, prof engine.Profile, a, b string) *record.Game {
	t.Helper()
	rec, _ := playGameProcs(t, g, params, prof, a, b)
	return rec
}

// playGameProcs is playGame that also returns every agent process seen
// during the game (all checked gone after it).
func playGameProcs(t *testing.T, g engine.Game, params engine.Params, prof engine.Profile, a, b string) (*record.Game, []proctree.Proc) {
	t.Helper()
	var ps procs
	r := &referee.Referee{Launch: ps.launcher(t)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rec, err := r.Play(ctx, referee.Match{
		ID: t.Name(), Game: g, Params: params, Profile: prof, Seed: 11,
		Players: [2]referee.Player{{Name: "A", Ref: a}, {Name: "B", Ref: b}},
	})
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	seen := ps.assertGone(t)
	return rec, seen
}

func cachexProfile(t *testing.T, params engine.Params) engine.Profile {
	p, err := cachex.Game{}.Profile(params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCachexCPUBudgetWithRealProcess(t *testing.T) {
	longRunning(t)
	t.Parallel()
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params)
	prof.Budget = 1500 * time.Millisecond // the burner spends 3 s of CPU on its second move
	rec := playGame(t, cachex.Game{}, params, prof, "builtin:random", "builtin:burner")
	if rec.Result.Winner != 0 || rec.Result.Reason != "player 2 exceeded available time" {
		t.Fatalf("result %+v events %+v", rec.Result, rec.Events)
	}
	for _, m := range rec.Moves {
		if m.Seat == 1 && m.Text == "STEAL" && m.Ply > 1 {
			t.Fatalf("the over-budget reply was applied: %+v", m)
		}
	}
}

func TestCachexMemoryLimitWithRealProcess(t *testing.T) {
	longRunning(t)
	t.Parallel()
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params) // 100 MiB; the hog holds 320 MiB
	rec := playGame(t, cachex.Game{}, params, prof, "builtin:hog", "builtin:random")
	if rec.Result.Winner != 1 || rec.Result.Reason != "player 1 exceeded space limit" {
		t.Fatalf("result %+v events %+v", rec.Result, rec.Events)
	}
}

func TestCachexIllegalActionLoses(t *testing.T) {
	t.Parallel()
	params := engine.Params{"n": "5"}
	rec := playGame(t, cachex.Game{}, params, cachexProfile(t, params), "builtin:random", "builtin:garbage")
	if rec.Result.Winner != 0 || rec.Result.Reason != "error: invalid action!" ||
		rec.Result.Detail != "Action does not exist or is not well formed. See the specification/game rules for details." {
		t.Fatalf("result %+v", rec.Result)
	}
}

func TestHexDeadAgentTurnsAreSkipped(t *testing.T) {
	longRunning(t)
	t.Parallel()
	prof, err := hexcrossout.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := playGame(t, hexcrossout.Game{}, engine.Params{"free": "33", "seed": "5"}, prof, "builtin:quitter", "builtin:random")
	if rec.Result.Forfeit != "" {
		t.Fatalf("result %+v", rec.Result)
	}
	skips := 0
	for _, m := range rec.Moves {
		if m.Source == record.SourceSkip {
			skips++
			if m.Seat != 0 {
				t.Fatalf("skipped the wrong seat: %+v", m)
			}
		}
	}
	if skips == 0 {
		t.Fatalf("no skipped turns after the agent died: %+v", rec.Moves)
	}
	// The survivor moves every turn after the death, so it takes the last
	// cell and loses (misère), as the course referee's rule implies.
	if rec.Result.Winner != 0 {
		t.Fatalf("the survivor should have crossed out the last cell: %+v", rec.Result)
	}
}

func TestDotsAgentPlaysFromItsView(t *testing.T) {
	longRunning(t)
	t.Parallel()
	prof, err := dotsboxes.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := playGame(t, dotsboxes.Game{}, nil, prof, "builtin:viewer", "builtin:random")
	if rec.Result.Forfeit != "" || len(rec.Events) != 0 {
		t.Fatalf("the view-driven agent was penalised: %+v %+v", rec.Result, rec.Events)
	}
	if len(rec.Moves) != 40 {
		t.Fatalf("%d moves, want all 40 lines drawn", len(rec.Moves))
	}
}
