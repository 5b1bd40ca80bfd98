package search_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/games/hexcrossout"
	"arena/plugins/sdk"
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
	r := ab.Search(context.Background(), st, search.Limits{Deadline: time.Now().Add(time.Second)})
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
	r := m.Search(context.Background(), st, search.Limits{Deadline: time.Now().Add(time.Second)})
	fmt.Println("proven:", r.Exact, "win:", r.Value == 1)
	// Output:
	// proven: true win: true
}

// bot is a complete SDK agent: it searches within the time the referee
// gives for each move and keeps its searcher (and its transposition
// table) between moves.
type bot struct{ ab search.AlphaBeta }

func (b *bot) Move(ctx context.Context, t sdk.Turn) (string, error) {
	lim := search.ForTurn(t, search.Budget{})
	r := b.ab.Search(ctx, t.State, lim)
	if !r.OK {
		return "", fmt.Errorf("no legal move")
	}
	return t.State.FormatMove(r.Move), nil
}

// ForTurn turns the referee's clock into search limits; an agent's main
// would call sdk.Serve(&bot{}).
func ExampleForTurn() {
	var _ sdk.Agent = &bot{}
	fmt.Println("ok")
	// Output: ok
}
