package builtin

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// Every house bot answers a legal move for every game, from the start and
// from positions later in random games, within its per-move limit (with a
// generous allowance for a loaded machine).
func TestHouseBotsPlayLegalMovesInTime(t *testing.T) {
	const limit = 400 * time.Millisecond
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
			info := sdk.Game{Game: game, Params: params, Seed: 3,
				Clock: protocol.Clock{Model: "per-move", MoveLimit: limit, FirstMoveLimit: limit}}
			if game == "cachex" {
				info.Clock = protocol.Clock{Model: "cpu-budget", Budget: 25 * time.Second}
			}
			a, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.(sdk.Starter).Start(context.Background(), info); err != nil {
				t.Fatalf("%s %s: %v", name, game, err)
			}
			st, err := g.NewState(engine.Params(params))
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 1))
			for ply := 0; !st.Terminal() && ply < 60; ply++ {
				if ply%3 == 0 || st.ToMove() == 0 {
					turn := sdk.Turn{Game: info, State: st.Clone()}
					turn.Ply = st.Ply()
					turn.Seat = st.ToMove()
					turn.TimeLeft = limit
					if game == "cachex" {
						turn.TimeLeft = 20 * time.Second
					}
					turn.Deadline = time.Now().Add(turn.TimeLeft)
					began := time.Now()
					text, err := a.Move(context.Background(), turn)
					took := time.Since(began)
					if err != nil {
						t.Fatalf("%s %s ply %d: %v", name, game, st.Ply(), err)
					}
					m, err := st.ParseMove(text)
					if err != nil {
						t.Fatalf("%s %s ply %d: %q: %v", name, game, st.Ply(), text, err)
					}
					if game != "cachex" && took > limit+2*time.Second {
						t.Errorf("%s %s ply %d: %v for a %v limit", name, game, st.Ply(), took, limit)
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
