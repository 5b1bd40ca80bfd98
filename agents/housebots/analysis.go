package housebots

import (
	"arena/engine"
	"arena/plugins/sdk/search"
)

// Analysis is a house bot's verdict on one position for the side to move,
// from a search bounded by nodes and depth rather than the clock, with one
// thread and no random tie-breaks: the same position and bounds give the
// same answer on any machine, so post-game analyses can be reproduced.
type Analysis struct {
	Move  string  // the best move found, in the course's move text ("" when none)
	Value float64 // for the side to move, in the searcher's units; ±search.Win and beyond for a won or lost game
	// Proven is set when Value is exact: every line was searched to the
	// end of the game, or a forced win or loss was found.
	Proven bool
	Depth  int   // the deepest completed iteration (alpha-beta)
	Nodes  int64 // nodes searched (or playouts)
}

// Outcome is a proven value's meaning for the side to move: 1 won, -1
// lost, 0 drawn. Meaningful only when Proven.
func (a Analysis) Outcome() int {
	switch {
	case a.Value > 0:
		return 1
	case a.Value < 0:
		return -1
	}
	return 0
}

// FromSearch turns a search result on st into an Analysis.
func FromSearch(st engine.State, r search.Result) Analysis {
	a := Analysis{Value: r.Value, Proven: r.Exact, Depth: r.Depth, Nodes: r.Nodes}
	if r.OK {
		a.Move = st.FormatMove(r.Move)
	}
	return a
}

// Bounds are what an analysis may spend on one position.
type Bounds struct {
	Nodes int64 // most nodes (alpha-beta) or solver nodes; 0: no bound
	Depth int   // most plies of iterative deepening; 0: the searcher's own cap
}

// Limits are the bounds as search limits: no clock at all.
func (b Bounds) Limits() search.Limits {
	return search.Limits{MaxNodes: b.Nodes, MaxDepth: b.Depth}
}
