package openings

import (
	"context"
	"slices"
	"strings"
	"testing"

	"arena/engine"
	"arena/games/all"
)

// The suite is the Count candidates nearest balance: no candidate left
// out scores below one kept, and none kept is decided.
func TestGenerateKeepsTheMostBalanced(t *testing.T) {
	ctx := context.Background()
	g, err := all.Registry().Lookup("bohnenspiel")
	if err != nil {
		t.Fatal(err)
	}
	r := Random{Plies: 6, Count: 5, Seed: 11, Depth: 2}
	s, err := Generate(ctx, g, engine.Params{}, r)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := walk(g, engine.Params{}, r)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]bool{}
	for _, o := range s.Openings {
		kept[strings.Join(o.Moves, ";")] = true
	}
	worstKept, bestLeft := -1.0, -1.0
	var order []int // the kept ones' positions among the candidates
	for i, c := range cands {
		score, open, err := balance(ctx, g, engine.Params{}, c.moves, r.Depth)
		if err != nil {
			t.Fatal(err)
		}
		in := kept[strings.Join(c.moves, ";")]
		switch {
		case in && !open:
			t.Errorf("decided position %q kept", c.moves)
		case in:
			worstKept = max(worstKept, score)
			order = append(order, i)
		case open && (bestLeft < 0 || score < bestLeft):
			bestLeft = score
		}
	}
	if len(order) != r.Count {
		t.Fatalf("%d kept openings among the candidates, want %d", len(order), r.Count)
	}
	if bestLeft >= 0 && bestLeft < worstKept {
		t.Errorf("a candidate scoring %v was left out while one scoring %v was kept", bestLeft, worstKept)
	}
	if !slices.IsSorted(order) {
		t.Errorf("kept openings out of the order they were drawn: %v", order)
	}
	if len(cands) != candidatesPer*r.Count {
		t.Errorf("%d candidates, want %d", len(cands), candidatesPer*r.Count)
	}
}
