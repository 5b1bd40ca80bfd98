package builtin

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/agentapi"
)

// Every house bot answers a legal move for every game, from the start and
// from positions later in random games, and stops thinking at its per-move
// limit. The limit is checked on the CPU time the move used, which a
// loaded machine does not inflate: a bot that keeps its deadline uses at
// most the limit on each of its threads, whatever the wall clock says; one
// that ignores it uses far more.
func TestHouseBotsPlayLegalMovesInTime(t *testing.T) {
	// Each move searches to its deadline; -short checks the first move
	// of every bot and game with shorter limits (the check is on CPU
	// time, so a short limit is no harder to keep on a busy machine), the
	// full suite those of sixty plies.
	limit, cachexLeft, plies := 200*time.Millisecond, 20*time.Second, 60
	if testing.Short() {
		limit, cachexLeft, plies = 50*time.Millisecond, 2*time.Second, 1
	}
	for name, impls := range House() {
		for game := range impls {
			g, err := all.Registry().Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]string{}
			if game == "cachex" {
				params["n"] = "5"
			}
			info := agentapi.Game{Game: game, Params: params, Seed: 3,
				Clock: agentapi.Clock{Model: "per-move", MoveLimit: limit, FirstMoveLimit: limit}}
			if game == "cachex" {
				info.Clock = agentapi.Clock{Model: "cpu-budget", Budget: 25 * time.Second}
			}
			a, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.(agentapi.Starter).Start(context.Background(), info); err != nil {
				t.Fatalf("%s %s: %v", name, game, err)
			}
			st, err := g.NewState(engine.Params(params))
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 1))
			for ply := 0; !st.Terminal() && ply < plies; ply++ {
				if ply%3 == 0 || st.ToMove() == 0 {
					turn := agentapi.Turn{Game: info, State: st.Clone()}
					turn.Ply = st.Ply()
					turn.Seat = st.ToMove()
					turn.TimeLeft = limit
					if game == "cachex" {
						turn.TimeLeft = cachexLeft
					}
					turn.Deadline = time.Now().Add(turn.TimeLeft)
					began := cpuTime(t)
					text, err := a.Move(context.Background(), turn)
					used := cpuTime(t) - began
					if err != nil {
						t.Fatalf("%s %s ply %d: %v", name, game, st.Ply(), err)
					}
					m, err := st.ParseMove(text)
					if err != nil {
						t.Fatalf("%s %s ply %d: %q: %v", name, game, st.Ply(), text, err)
					}
					if most := time.Duration(runtime.GOMAXPROCS(0))*limit + time.Second; game != "cachex" && used > most {
						t.Errorf("%s %s ply %d: %v of CPU time for a %v limit (at most %v on %d threads)", name, game, st.Ply(), used, limit, most, runtime.GOMAXPROCS(0))
					}
					st.Apply(m)
					continue
				}
				ms := st.LegalMoves(nil)
				st.Apply(ms[r.IntN(len(ms))])
			}
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestHouseOptions(t *testing.T) {
	if _, err := New("strong?time=0.3&threads=2"); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{
		"strong?depth=3": "unknown option",
		"strong?time=2":  "time",
		"random?x=1":     "takes no options",
		"baseline?%zz":   "options",
	} {
		err := CheckRef("builtin:" + ref)
		if err == nil {
			_, err = New(ref)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", ref, err, want)
		}
	}
	// Options of another game's method are accepted by the reference and
	// checked when the game starts.
	if err := CheckRef("builtin:baseline?depth=4"); err != nil {
		t.Fatal(err)
	}
	if err := CheckRef("builtin:baseline?depth=x"); err == nil {
		t.Fatal("a bad depth passed the preflight")
	}
}
