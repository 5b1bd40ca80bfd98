// Package cachex implements Cachex (registry name "cachex"), the Hex variant
// of University of Melbourne COMP30024 Artificial Intelligence 2022, as its
// referee (version 2022.0.1) played it, with the arena profile
// comp30024-2022.
//
// # Rules
//
// The board is an n×n rhombus of hexagons, 3 ≤ n ≤ 15 (parameter "n",
// default 9, the size the course used most). Cell (r, q) has row r (r = 0 at
// the bottom) and column q; its neighbours are, in the referee's order,
// (r+1,q-1), (r+1,q), (r,q+1), (r-1,q+1), (r-1,q), (r,q-1). Red (seat 0)
// moves first and joins row 0 to row n-1; Blue (seat 1) joins column 0 to
// column n-1.
//
// An action places a stone on an empty cell; on the very first action of
// odd n the centre cell is banned. A placement at P captures, for each of
// the referee's 12 diamond patterns whose cells are all on the board, the
// two opponent stones M1, M2 when the corner O opposite P holds the mover's
// stone; all patterns are judged on the board right after the placement and
// the union of the matches is removed at once. Blue's first action (t == 1)
// may instead be STEAL: the board is reflected across the main diagonal and
// the colours swapped.
//
// After each action t increases and the board's occurrence count grows
// (the key is the board contents only; the empty start board counts once).
// The game then ends, first match wins: the mover's stones joined to the
// placed cell reach both of its edges (tested only when t ≥ 2n-1):
// "winner: red" / "winner: blue"; the board has occurred for the 7th time:
// "draw: same game state occurred" + 17 spaces + "7 times"; t reached 343:
// "draw: maximum number of turns reached". Result.Reason carries these
// strings verbatim.
//
// # Notation
//
// Move text is "PLACE r q" (single spaces, each integer an optional '-'
// followed by decimal digits within int64) or "STEAL", case-sensitive.
// Anything else is malformed (engine.Unparseable); a well-formed action the
// rules forbid is engine.Illegal. Both carry Reason "error: invalid action!"
// and, as Detail, the referee's message plus " See the specification/game
// rules for details.", e.g. "The PLACE action coordinate (5, 0) is already
// occupied. See the specification/game rules for details.". Checks run in
// the referee's order: STEAL only at t == 1; PLACE on the board, not the
// centre at t == 0 (odd n), on an empty cell.
//
// LegalMoves lists PLACE moves in ascending (r, q) order, then STEAL when
// legal; LegalCount equals its length. The canonical board text lists rows
// r = 0..n-1 joined by '/', each row q = 0..n-1 as 'r', 'b' or '.'.
// PlyFields adds "captured" (the cells removed by the last action as sorted
// [r, q] pairs) and "repeat" (occurrences of the current board so far).
//
// # Profile comp30024-2022
//
// A CPU budget of n² seconds per player for the whole game (start-up
// included), checked at every reply, with a kill after the remaining budget
// plus 5 s of wall clock; 100 MiB peak resident memory per agent process; a
// 30 s start-up timeout that only guards against hangs. Every failure
// (timeout, memory, illegal or malformed action, error report, dead process)
// loses. Reasons: "player N exceeded available time", "player N exceeded
// space limit", and the arena's own "player N raised an error" and "player N
// process died" (N = 1 for red, 2 for blue).
//
// # Deviations from the course referee
//
//   - Invalid actions, errors and dead processes lose; the referee declared
//     no winner or crashed.
//   - Memory is peak resident memory per agent process, reported per player;
//     the referee measured one shared process's peak virtual memory.
//   - The course exchanged Python tuples; the arena uses the move text above.
//   - Repetition counting compares 64-bit Zobrist keys of the boards, not the
//     boards themselves; a false match would need a key collision among at
//     most 344 boards of one game.
//   - Hash also folds in the side to move and the two opening turns with
//     special rules, so it separates positions the repetition key does not.
//
// Evaluate is the opponent's 0-1 BFS connection distance (empty cells still
// needed, own stones free) minus the seat's own.
package cachex
