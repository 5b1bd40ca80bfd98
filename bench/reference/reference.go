// Package reference holds plain implementations of the five course games'
// rules: boards as ordinary arrays, moves listed by scanning, results and
// captures recomputed from the board, written for clarity as the course
// frameworks were. They are the yardstick the engine's speed is measured
// against (bench/enginespeed) and the second opinion its differential
// tests compare with; nothing in the arena plays on them.
package reference

// Game is one reference game in progress. Moves are small integers private
// to each game; Legal lists them in the course framework's order, the same
// order as the engine's LegalMoves.
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
	// Copy returns an independent copy.
	Copy() Game
}
