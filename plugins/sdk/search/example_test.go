package search_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/engine"
	"arena/games/hexcrossout"
	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// board4 is a hex cross-out board with four free cells in a row: the mover
// wins by crossing out three of them from one end, leaving the last cell
// to the opponent.
func board4() string {
	rows := make([]string, 12)
	for y := range rows {
		rows[y] = strings.Repeat("#", 12)
	}
	rows[5] = "####....####"
	return strings.Join(rows, "/")
}

// Iterative-deepening alpha-beta solves a small position exactly.
func ExampleAlphaBeta() {
	st, err := hexcrossout.NewFromBoard(board4())
	if err != nil {
		panic(err)
	}
	ab := &search.AlphaBeta{}
	// Bounded by depth, not by a deadline, so that a loaded machine gets
	// the same answer: every line of this position ends within four plies.
	r := ab.Search(context.Background(), st, search.Limits{MaxDepth: 8})
	after := st.Clone()
	after.Apply(r.Move)
	fmt.Println("proven:", r.Exact, "win:", r.Value > search.Win/2)
	fmt.Println("cells left for the opponent:", strings.Count(after.Text(), "."))
	// Output:
	// proven: true win: true
	// cells left for the opponent: 1
}

// MCTS with the solver proves the same win and stops early.
func ExampleMCTS() {
	st, err := hexcrossout.NewFromBoard(board4())
	if err != nil {
		panic(err)
	}
	m := &search.MCTS{C: 0.5, Solver: true, Seed: 1}
	// Bounded by playouts, not by a deadline: the proof comes long before.
	r := m.Search(context.Background(), st, search.Limits{MaxNodes: 100000})
	fmt.Println("proven:", r.Exact, "win:", r.Value == 1)
	// Output:
	// proven: true win: true
}

// ForTurn turns the referee's clock into search limits: an SDK agent calls
// it first thing in Move with the Turn it is given (sdk.Turn is
// agentapi.Turn; the sdk package's ExampleTurn_search is a whole agent
// that does).
func ExampleForTurn() {
	st, err := hexcrossout.NewFromBoard(board4())
	if err != nil {
		panic(err)
	}
	// A per-move limit of 2 s: the search stops at half of it.
	var turn agentapi.Turn
	turn.State = st
	turn.Game.Clock = agentapi.Clock{Model: string(engine.PerMove), MoveLimit: 2 * time.Second}
	turn.TimeLeft = 2 * time.Second
	turn.Deadline = time.Now().Add(turn.TimeLeft)
	lim := search.ForTurn(turn, search.Budget{})
	fmt.Println("stops a second early:", turn.Deadline.Sub(lim.Deadline) > 900*time.Millisecond)
	r := (&search.AlphaBeta{}).Search(context.Background(), turn.State, lim)
	fmt.Println("move found:", r.OK)
	// A whole-game CPU budget with 20 s left: 85 % of it over 20 moves.
	turn.Game.Clock = agentapi.Clock{Model: string(engine.CPUBudget), Budget: 30 * time.Second}
	turn.TimeLeft, turn.Deadline = 20*time.Second, time.Time{}
	fmt.Println("CPU for this move:", search.ForTurn(turn, search.Budget{}).CPU)
	// Output:
	// stops a second early: true
	// move found: true
	// CPU for this move: 850ms
}
