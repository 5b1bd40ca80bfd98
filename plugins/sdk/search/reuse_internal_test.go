package search

import (
	"context"
	"testing"

	"arena/engine"
	"arena/games/hexcrossout"
)

func TestMCTSReusesTheSubtree(t *testing.T) {
	st, err := hexcrossout.Game{}.NewState(engine.Params{"free": "24", "seed": "3"})
	if err != nil {
		t.Fatal(err)
	}
	m := &MCTS{Seed: 5}
	r := m.Search(context.Background(), st, Limits{MaxNodes: 4000})
	// The opponent answers with the reply the tree explored most.
	var mine *node
	for _, c := range m.trees[0].root.children {
		if c.move == r.Move {
			mine = c
		}
	}
	var reply *node
	for _, c := range mine.children {
		if reply == nil || c.visits > reply.visits {
			reply = c
		}
	}
	if reply == nil || reply.visits < 2 {
		t.Fatalf("the reply was not explored")
	}
	kept := reply.visits
	next := st.Clone()
	next.Apply(r.Move)
	next.Apply(reply.move)
	r2 := m.Search(context.Background(), next, Limits{MaxNodes: 1000})
	if got := m.trees[0].root.visits; got != kept+float64(r2.Nodes) {
		t.Fatalf("root visits %v after %v playouts; the reused subtree had %v", got, r2.Nodes, kept)
	}
	// A position not in the tree starts afresh.
	other, _ := hexcrossout.Game{}.NewState(engine.Params{"free": "20", "seed": "9"})
	r3 := m.Search(context.Background(), other, Limits{MaxNodes: 500})
	if got := m.trees[0].root.visits; got != float64(r3.Nodes) {
		t.Fatalf("fresh root has %v visits after %v playouts", got, r3.Nodes)
	}
}
