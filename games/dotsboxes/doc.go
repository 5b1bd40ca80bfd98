// Package dotsboxes implements Dots-and-Boxes (registry name
// "dots-and-boxes") as played by City University of Hong Kong's CS4386
// (Semester B 2019-20) on the AI Gaming platform, with the arena profile
// "aigaming-cs4386-2020". The rules document is rules/dots-and-boxes.md;
// section numbers below refer to it.
//
// # Rules
//
// The board has rows × cols dots (parameters "rows" and "cols", the dot
// counts along the first and second coordinate; default 5 × 5, each 2..12).
// A dot is [a,b] with 0 ≤ a < rows, 0 ≤ b < cols; a line joins two dots that
// differ by one in exactly one coordinate. Players draw one undrawn line per
// move; completing a box (one line can complete two) scores one point per
// box and the same player moves again, otherwise the turn passes. The game
// ends when every line is drawn; more boxes wins, equal boxes is a draw.
// Seat 0 moves first. LegalMoves lists the undrawn lines in Grid order
// (ascending (a, b, c, d), smaller dot first); LegalCount is their number.
//
// # Notation
//
// A move is the JSON text `[[a,b],[c,d]]`. ParseMove accepts the dots in
// either order and JSON whitespace anywhere JSON allows it; FormatMove
// writes the canonical form, smaller dot first, no spaces. Text that is not
// a JSON array of two arrays of two integers (JSON integers: no fraction,
// exponent or leading zero) is engine.Unparseable; a line with a dot off the
// board, between non-adjacent dots, or already drawn is engine.Illegal. Both
// lose under the profile, with the reason "INVALID MOVE: <text>: <why>"
// (the text quoted when it did not parse, else the dots as written).
//
// The vectors have no board text. Text is the arena's own: one character
// per line in Grid order ('.' undrawn, '0' or '1' for the seat that drew
// it), a '/', then one character per box in row-major order ('.' open, else
// the seat that completed it).
//
// # Agent view
//
// States implement engine.AgentViewer: AgentView returns the platform's
// gamestate JSON from one agent's point of view, which is always player 0
// in it (the arena's own records keep absolute seats). Keys: Dimensions
// [rows, cols]; IsMover true (only the mover is asked); ResponseDeadline
// "" (the referee sends deadline information separately, in its own
// documented form); MyScore and OppScore; InvalidMove false; OpponentId the
// opponent's name; GameStatus "RUNNING"; Grid, every line once in Grid
// order as [[a,b],[c,d],owner]; Squares, box (i, j) at index (cols−1)·i + j
// as [[side0..side3], owner], sides in the §2 order ([x,y],[x+1,y]),
// ([x,y],[x,y+1]), ([x+1,y],[x+1,y+1]), ([x,y+1],[x+1,y+1]), each
// [[a,b],[c,d],drawn]. Owners are 0 for the receiving agent, 1 for its
// opponent, -1 for none.
//
// # Profile aigaming-cs4386-2020 and assumptions
//
// The platform's referee code is not public; these are the rules
// document's decisions (§11), not recorded behaviour:
//
//   - Time: 5 s wall clock per move, the first move included; no cushion
//     (the course's game-style timeout is unknown). An agent has 30 s to
//     start.
//   - A missed deadline, an unparseable or illegal move, an agent error, a
//     dead agent process and (if a league sets a memory limit; there is
//     none by default) exceeding it each lose the game at once. Reasons are
//     arena-defined: "TIMEOUT: player {player} missed the deadline",
//     "AGENT ERROR: player {player}", "AGENT DIED: player {player}",
//     "MEMORY: player {player} exceeded the memory limit", and the
//     parser's INVALID MOVE reason for bad moves.
//   - Lines with reversed endpoints are accepted and normalised.
//   - InvalidMove is always false and GameStatus is only ever "RUNNING":
//     agents are not asked after the end, and the platform's meanings of
//     the other values are unknown.
//   - The format of ResponseDeadline is unknown; the view leaves it "".
//   - Grid and Squares order as the platform sent them is unknown: sorted
//     lines and row-major boxes.
//   - Who moved first on the platform is unknown: the league alternates
//     first mover between the games of a pairing; within a game seat 0
//     moves first.
package dotsboxes
