package pentagotwist

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/pentagotwist"
	"arena/plugins/agentapi"
)

func TestRunScore(t *testing.T) {
	// Three in a row on the top row: one run of 3 there (111), and each of
	// the three stones is a run of 1 in its column (1 each); (0,0) and
	// (0,1) also lie on a diagonal of length ≥ 5 (1 each), (0,2) on none.
	var stones uint64 = 1<<0 | 1<<1 | 1<<2
	if got := runScore(stones); got != 111+3+2 {
		t.Fatalf("runScore = %v, want 116", got)
	}
}

// Merging keeps one move per distinct result and loses no result.
func TestDedupKeepsEveryPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, anyCell := range []bool{false, true} {
		gen := dedup(anyCell)
		st := pentagotwist.NewState()
		for ply := 0; ply < 12 && !st.Terminal(); ply++ {
			kept := gen(st, nil)
			results := map[uint64]bool{}
			for _, m := range kept {
				c := st.Clone()
				c.Apply(m)
				results[c.Hash()] = true
			}
			if anyCell && len(results) != len(kept) {
				t.Fatalf("ply %d: %d moves kept for %d positions", ply, len(kept), len(results))
			}
			for _, m := range st.LegalMoves(nil) {
				c := st.Clone()
				c.Apply(m)
				if !results[c.Hash()] {
					t.Fatalf("ply %d: the result of %s was dropped", ply, st.FormatMove(m))
				}
			}
			if ply == 0 && len(kept) >= 288 {
				t.Fatalf("nothing merged on the empty board (%d moves)", len(kept))
			}
			ms := st.LegalMoves(nil)
			st.Apply(ms[r.IntN(len(ms))])
		}
	}
}

// The baseline's opening rule: its first stone goes on a quadrant centre.
func TestBaselineOpensOnACentre(t *testing.T) {
	a, err := Baseline(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := pentagotwist.NewState()
	turn := agentapi.Turn{Game: agentapi.Game{Game: "pentago-twist", Clock: agentapi.Clock{Model: "per-move", MoveLimit: 2 * time.Second}}, State: st}
	turn.TimeLeft = 2 * time.Second
	turn.Deadline = time.Now().Add(2 * time.Second)
	text, err := a.Move(context.Background(), turn)
	if err != nil {
		t.Fatal(err)
	}
	centre := false
	for _, c := range []string{"1 1 ", "1 4 ", "4 1 ", "4 4 "} {
		centre = centre || strings.HasPrefix(text, c)
	}
	if !centre {
		t.Fatalf("first move %q is not on a quadrant centre", text)
	}
	if _, err := st.ParseMove(text); err != nil {
		t.Fatal(err)
	}
}

var _ engine.State = (*pentagotwist.State)(nil)
