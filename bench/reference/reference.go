// Package reference holds plain implementations of the five course games'
// rules, each what a competent engineer writes for that one game: flat
// arrays or bitboards as fits, the state a small value copied by
// assignment, moves as small integers, no interface and no allocation
// inside a playout. They are the yardstick the engine's speed is measured
// against (bench/enginespeed) and the second opinion its differential
// tests compare with; nothing in the arena plays on them.
//
// Each game has two playout loops on a value receiver (the receiver is
// the copy of the start): PlayoutListing lists the legal moves and draws
// one, PlayoutDraw draws a legal move uniformly without listing them
// (hex cross-out has none: its moves are cell sets, and counting them is
// listing them). The Game interface below serves the differential tests
// only, never a playout.
package reference

import "math/rand/v2"

// Game is one reference game in progress, as the differential tests see
// it. Moves are small integers private to each game; Legal lists them in
// the course framework's order, the same order as the engine's LegalMoves.
type Game interface {
	// Legal appends the legal moves to dst; empty once the game is over.
	Legal(dst []int) []int
	// Play applies a legal move.
	Play(m int)
	// Over reports whether the game has ended.
	Over() bool
	// Winner is the winning seat once over, or -1 for a draw.
	Winner() int
	// ToMove is the seat to move (meaningless once over).
	ToMove() int
	// Text is the engine's canonical board text of the position.
	Text() string
	// MoveText writes a legal move in the course notation.
	MoveText(m int) string
}

// Drawer is implemented by reference games with a direct uniform draw of
// a legal move, the shortcut a plain implementation takes in playouts.
type Drawer interface {
	// RandomMove returns a move drawn uniformly over Legal; the game must
	// not be over.
	RandomMove(r *rand.Rand) int
}
