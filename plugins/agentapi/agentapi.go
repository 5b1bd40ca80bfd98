// Package agentapi is the agent protocol's messages and the SDK's agent
// interface, without their gRPC binding: what an agent implements and
// receives (Turn, Agent), and what the arena and an agent tell each other
// (StartInfo, MoveRequest, EndInfo, Description). Package protocol binds
// them to go-plugin and package sdk serves an Agent; both name these types
// as their own. A searcher, a house bot or a tool that only plays positions
// imports this package and links no plugin transport.
package agentapi

import (
	"context"
	"time"

	"arena/engine"
)

// Clock tells an agent how it is timed.
type Clock struct {
	Model          string // "per-move" or "cpu-budget"
	MoveLimit      time.Duration
	FirstMoveLimit time.Duration
	Cushion        time.Duration
	Budget         time.Duration
}

// StartInfo opens a game for an agent.
type StartInfo struct {
	GameID   string
	Game     string
	Params   map[string]string
	Seat     int
	Profile  string
	Clock    Clock
	Opponent string
	Options  map[string]string
	Seed     uint64
}

// MoveRequest asks the side to move for a move.
type MoveRequest struct {
	History  []string // moves so far in course notation; "" marks a skipped turn
	Board    string   // canonical board text
	Seat     int
	Ply      int
	TimeLeft time.Duration // for this move (per-move) or the whole game (cpu-budget)
	Deadline time.Time
	View     []byte // the course's seat-relative view (JSON), where it had one
}

// EndInfo closes a game.
type EndInfo struct {
	Winner int // -1 for none
	Draw   bool
	Reason string
	Scores []int
}

// Description says what an agent is.
type Description struct {
	Name        string
	Description string
	Games       []string // empty: any game
}

// Game is what an agent learns when a game starts: the game's registry
// name and parameters, its seat, the course profile and its clock, the
// opponent's display name, options from the league file, and a seed.
type Game = StartInfo

// Turn is one request for a move (history, board text, seat, ply, time
// left, deadline, view), with the position rebuilt for the agent.
type Turn struct {
	MoveRequest
	Game  Game
	State engine.State // the current position, the agent's own copy
	Legal []string     // the legal moves in course notation, in course order
}

// Agent is the one method an agent must have. A returned error is reported
// to the referee as "no move", which the course profile penalises.
type Agent interface {
	Move(ctx context.Context, t Turn) (string, error)
}

// Optional interfaces an Agent may implement.
type (
	// Starter is told about the game before the first move request.
	Starter interface {
		Start(ctx context.Context, g Game) error
	}
	// Observer is told about every move played.
	Observer interface {
		Observe(ctx context.Context, seat int, move string, ply int) error
	}
	// Ender is told how the game ended.
	Ender interface {
		End(ctx context.Context, r EndInfo) error
	}
	// Describer names the agent.
	Describer interface {
		Describe() Description
	}
)
