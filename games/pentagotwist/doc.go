// Package pentagotwist implements Pentago-Twist (registry name
// "pentago-twist") as refereed in McGill University's COMP 424, Winter
// 2021, with the course profile "comp424-2021". The rules document is
// rules/pentago-twist.md; section numbers below refer to it.
//
// # Rules
//
// Two players, White (seat 0, first) and Black (seat 1), share a 6×6 board
// of four 3×3 quadrants: 0 top-left, 1 top-right, 2 bottom-left, 3
// bottom-right. Cell (x, y) is row x from the top, column y from the left.
// A move places a stone on an empty cell and then, mandatorily, transforms
// any quadrant a: b = 0 rotates it a quarter turn clockwise, b = 1 mirrors
// it left↔right. Only the board after the transformation is judged: if both
// colours have five (or six) in a row the game is drawn, if only the mover
// has, the mover wins, if only the opponent has, the opponent wins; after
// Black's 18th move (ply 36, full board) with no five it is a draw.
//
// Every empty cell gives 8 legal tuples, listed in the framework's order
// x 0..5, y 0..5, a 0..3, b 0..1; LegalCount is 8 per empty cell.
//
// # Notation
//
// Move text is `x y a b p` (p = the mover's id), five decimal integers
// separated by single spaces. ParseMove reproduces the Java parser:
// String.split(" ") then Integer.parseInt on the first five pieces. So a
// trailing space and extra pieces are accepted and an explicit sign is
// accepted; a leading space, two spaces in a row among the first five
// pieces, tabs, letters, an empty text, fewer than five pieces, or a value
// outside the 32-bit range are unparseable (engine.Unparseable, no
// reason: the profile handles it as a timeout). As with Integer.parseInt,
// Unicode decimal digits of the Basic Multilingual Plane count as digits.
// The text is one reply line: as Java's readLine, anything from the first
// CR or LF on is ignored. A parseable move is illegal (engine.Illegal) when
// x or y is outside 0..5, a outside 0..3, b outside 0..1, p is not the
// player to move, or the cell is occupied; its reason is the server's
// `ILLEGAL MOVE: Player p, Move: (x, y), R/F: (a, b)` with the values as
// written. FormatMove writes the canonical form without signs or extras.
//
// Moves carry the player id, so FormatMove needs no position.
//
// The canonical board text (§7) is 36 characters, row-major, `w` White,
// `b` Black, `.` empty. States also report the framework's turn_number
// (completed Black moves) through engine.PlyFielder.
//
// # Profile comp424-2021
//
// Wall clock per move: 30 s for each side's first move (plies 0 and 1),
// 2 s afterwards (the shipped server's 20 s is the documented alternative),
// 1 s cushion. A reply inside the cushion is discarded and a uniformly
// random legal move is played; no reply by limit + cushion loses with
// reason "TIMEOUT". Unparseable replies are handled as a timeout. An
// illegal move loses with the ILLEGAL MOVE reason above. An agent error, a
// dead agent process, or one over the 520 MiB memory limit (handled as
// dead) gets random moves and the game goes on. Normal endings have no
// reason.
package pentagotwist
