package hexcrossout

import (
	"fmt"
	"time"

	"arena/engine"
)

const (
	defaultFree = 24
	defaultSeed = 1
)

// Game is hex cross-out (registry name "hex-crossout").
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game and its parameters.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:      "hex-crossout",
		Title:     "Hex cross-out",
		Course:    "NYCU Undergraduate AI Capstone, Spring 2023 (Programming Assignment #2)",
		Profile:   "nycu-aicap-2023",
		HasScores: true,
		Params: []engine.ParamInfo{
			{Name: "board", Default: "", Doc: "start board: 12 rows of 12 '#' (obstacle) or '.' (free) joined by '/', the free cells one connected region; excludes free and seed"},
			{Name: "free", Default: fmt.Sprint(defaultFree), Doc: "free cells of a generated board, 12..33 (used when board is not given)"},
			{Name: "seed", Default: fmt.Sprint(defaultSeed), Doc: "generator seed, any integer (used when board is not given)"},
		},
	}
}

// startBoard resolves the parameters to the start board's free cells.
func startBoard(p engine.Params) (mask, error) {
	if err := p.Check("hex-crossout", "board", "free", "seed"); err != nil {
		return mask{}, err
	}
	if b, ok := p["board"]; ok && b != "" {
		if p["free"] != "" || p["seed"] != "" {
			return mask{}, fmt.Errorf("parameter board: cannot be combined with free or seed")
		}
		return parseBoard(b)
	}
	n, err := p.Int("free", defaultFree)
	if err != nil {
		return mask{}, err
	}
	seed, err := p.Int("seed", defaultSeed)
	if err != nil {
		return mask{}, err
	}
	return generate(n, int64(seed))
}

// NewState returns the start position: the given or generated board, the
// first player (seat 0) to move.
func (Game) NewState(p engine.Params) (engine.State, error) {
	free, err := startBoard(p)
	if err != nil {
		return nil, err
	}
	return newState(free), nil
}

// NewFromBoard returns the start position of a canonical start board.
func NewFromBoard(text string) (*State, error) {
	free, err := parseBoard(text)
	if err != nil {
		return nil, err
	}
	return newState(free), nil
}

// Profile returns the nycu-aicap-2023 profile: 6 s wall clock per move with
// no cushion and no memory limit; a late or missing reply and an error
// report get the referee's random move, an illegal or unreadable reply
// loses, and a dead agent's turns are skipped.
func (Game) Profile(p engine.Params) (engine.Profile, error) {
	if _, err := startBoard(p); err != nil {
		return engine.Profile{}, err
	}
	return engine.Profile{
		Name:           "nycu-aicap-2023",
		Game:           "hex-crossout",
		Course:         "NYCU Undergraduate AI Capstone, Spring 2023",
		Time:           engine.PerMove,
		MoveLimit:      6 * time.Second,
		FirstMoveLimit: 6 * time.Second,
		Cushion:        0,
		MemoryMB:       0,
		// The course server gave an agent 6 s to connect.
		StartupTimeout: 6 * time.Second,
		// The course started every student agent afresh for each game.
		Processes: engine.ProcessesBuiltin,
		Penalties: map[engine.Failure]engine.Penalty{
			engine.FailTimeout:     engine.RandomMove,
			engine.FailLate:        engine.RandomMove,
			engine.FailUnparseable: engine.Loss,
			engine.FailIllegal:     engine.Loss,
			engine.FailError:       engine.RandomMove,
			engine.FailDead:        engine.SkipTurn,
			engine.FailMemory:      engine.AsDead,
		},
		// Illegal moves use MoveError.Reason; nothing else ends a game.
		Reasons: map[engine.Failure]string{},
	}, nil
}
