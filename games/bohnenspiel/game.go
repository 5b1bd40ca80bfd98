package bohnenspiel

import (
	"fmt"
	"time"

	"arena/engine"
)

const (
	name        = "bohnenspiel"
	profileName = "comp424-2017"
	course      = "McGill University COMP 424 Artificial Intelligence, Winter 2017"
)

// Game is Bohnenspiel under the comp424-2017 profile. It has no parameters.
type Game struct{}

var _ engine.Game = Game{}

// Info describes the game.
func (Game) Info() engine.Info {
	return engine.Info{
		Name:      name,
		Title:     "Bohnenspiel",
		Course:    course,
		Profile:   profileName,
		HasScores: true,
	}
}

// NewState returns the start position. Any parameter is an error, since the
// course game had none.
func (Game) NewState(p engine.Params) (engine.State, error) {
	if err := p.Check(name); err != nil {
		return nil, fmt.Errorf("new state: %w", err)
	}
	return New(), nil
}

// Profile returns the comp424-2017 referee profile (§9 of the rules).
func (Game) Profile(p engine.Params) (engine.Profile, error) {
	if err := p.Check(name); err != nil {
		return engine.Profile{}, fmt.Errorf("profile: %w", err)
	}
	const firstMove = 30 * time.Second
	return engine.Profile{
		Name:           profileName,
		Game:           name,
		Course:         course,
		Time:           engine.PerMove,
		MoveLimit:      700 * time.Millisecond,
		FirstMoveLimit: firstMove,
		Cushion:        time.Second,
		MemoryMB:       520,
		// The course's launch configurations gave each client JVM
		// -Xms520m -Xmx520m; the JVM's OutOfMemoryError was the only
		// memory failure (rules §8.4).
		JVMHeapMB:     520,
		JVMHeadroomMB: 1024,
		// The course gave agents no separate start-up allowance; their first
		// move's 30 s covered loading, so start-up gets the same.
		StartupTimeout: firstMove,
		// The course started every student agent afresh for each game.
		Processes: engine.ProcessesBuiltin,
		Penalties: map[engine.Failure]engine.Penalty{
			engine.FailTimeout:     engine.Loss,
			engine.FailLate:        engine.RandomMove,
			engine.FailUnparseable: engine.AsTimeout,
			engine.FailIllegal:     engine.Loss,
			engine.FailError:       engine.RandomMove,
			engine.FailDead:        engine.RandomMove,
			engine.FailMemory:      engine.AsDead,
		},
		// Only failures that end the game need a reason; illegal moves use
		// the MoveError's own "ILLEGAL MOVE: ..." text.
		Reasons: map[engine.Failure]string{
			engine.FailTimeout: "TIMEOUT",
		},
	}, nil
}
