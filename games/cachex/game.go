package cachex

import (
	"fmt"
	"time"

	"arena/engine"
)

const (
	minN     = 3
	maxN     = 15
	defaultN = 9
	maxCells = maxN * maxN

	// maxActions is the turn limit: the game is drawn once t reaches it.
	maxActions = 343
	// repeatLimit is the occurrence of one board that draws the game.
	repeatLimit = 7
)

// Result texts of the course referee, verbatim. The repetition text has 17
// spaces because a line continuation in the original source put the
// indentation into the string.
const (
	ReasonRedWins    = "winner: red"
	ReasonBlueWins   = "winner: blue"
	ReasonRepetition = "draw: same game state occurred" + "                 " + "7 times"
	ReasonTurnLimit  = "draw: maximum number of turns reached"
	// ReasonInvalid is the result reason of every illegal or malformed action.
	ReasonInvalid = "error: invalid action!"
)

// Game is Cachex (registry name "cachex").
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game and its single parameter n.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:      "cachex",
		Title:     "Cachex",
		Course:    "University of Melbourne COMP30024 Artificial Intelligence, 2022 (Project Part B)",
		Profile:   "comp30024-2022",
		HasScores: false,
		Params: []engine.ParamInfo{{
			Name:    "n",
			Default: fmt.Sprint(defaultN),
			Doc:     "board size: an n×n rhombus of hexagons, 3 ≤ n ≤ 15",
		}},
	}
}

// size reads and validates n.
func size(p engine.Params) (int, error) {
	if err := p.Check("cachex", "n"); err != nil {
		return 0, err
	}
	n, err := p.Int("n", defaultN)
	if err != nil {
		return 0, err
	}
	if n < minN || n > maxN {
		return 0, fmt.Errorf("parameter n=%d: board size must be in %d..%d", n, minN, maxN)
	}
	return n, nil
}

// NewState returns the empty n×n board with Red to move.
func (Game) NewState(p engine.Params) (engine.State, error) {
	n, err := size(p)
	if err != nil {
		return nil, err
	}
	return New(n), nil
}

// Profile returns the comp30024-2022 profile: an n² second CPU budget per
// player, 100 MiB resident memory, and a loss for every failure.
func (Game) Profile(p engine.Params) (engine.Profile, error) {
	n, err := size(p)
	if err != nil {
		return engine.Profile{}, err
	}
	fails := engine.Failures()
	pen := make(map[engine.Failure]engine.Penalty, len(fails))
	for _, f := range fails {
		pen[f] = engine.Loss
	}
	return engine.Profile{
		Name:        "comp30024-2022",
		Game:        "cachex",
		Course:      "University of Melbourne COMP30024 Artificial Intelligence, 2022",
		Time:        engine.CPUBudget,
		Budget:      time.Duration(n*n) * time.Second,
		BudgetGrace: 5 * time.Second,
		MemoryMB:    100,
		// The referee measured VmPeak above the size after imports
		// against 2 × 100 MB shared by both players: one player alone
		// could use all of it (rules §8.4, docs/games/cachex.md).
		PythonPeakMB:    200,
		PythonCeilingMB: 2048,
		// Start-up CPU counts against the budget; this is only a hang guard.
		StartupTimeout: 30 * time.Second,
		// The course started every student agent afresh for each game.
		Processes: engine.ProcessesBuiltin,
		// The course referee told both players of every action.
		NotifyMoves: true,
		Penalties:   pen,
		Reasons: map[engine.Failure]string{
			engine.FailTimeout: "player {player} exceeded available time",
			engine.FailMemory:  "player {player} exceeded space limit",
			engine.FailError:   "player {player} raised an error",
			engine.FailDead:    "player {player} process died",
		},
	}, nil
}
