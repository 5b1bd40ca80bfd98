// Package hexcrossout implements hex cross-out (registry name
// "hex-crossout"), the misère line game of NYCU's Undergraduate AI Capstone,
// Spring 2023, Programming Assignment #2, with the arena profile
// nycu-aicap-2023.
//
// # Rules
//
// The board is a 12×12 array of hexagons, cell (x, y) with x the column and
// y the row; odd rows are shifted half a cell right. Directions 1..6 are
// up-left, up-right, left, right, down-left, down-right; their (dx, dy)
// depends on the row stepped from (even y: (-1,-1) (0,-1) (-1,0) (1,0)
// (-1,1) (0,1); odd y: (0,-1) (1,-1) (-1,0) (1,0) (0,1) (1,1)). Free cells
// form one connected region; all other cells are obstacles.
//
// Players alternate, seat 0 (the referee's player 1) first. A move crosses
// out l = 1, 2 or 3 free cells: the start cell and l-1 further steps in one
// direction. When no free cell is left, the player who crossed out the last
// one loses; there are no draws. Scores (cells crossed out per seat) are
// informative only.
//
// # Notation
//
// Move text is "x,y,l,dir": four decimal integers (optional '-'), single
// commas, no spaces. x and y must be in 0..11, l in 1..3, dir in 1..6 when
// l ≥ 2; with l = 1 dir is ignored. Every tuple naming the same cell set is
// the same move; the canonical text is the set's smallest tuple in
// (x, y, l, dir) order, with dir 1 for a single cell. LegalMoves lists one
// move per distinct cell set in that canonical order, and LegalCount (free
// cells + adjacent pairs + straight triples) equals its length. PlyFields
// adds "legal_tuples": the in-range tuples the referee's check accepts (six
// per free cell, two per pair or triple).
//
// The canonical board text lists rows y = 0..11 joined by '/', each row
// x = 0..11 as '#' obstacle, '.' free, '1' or '2' crossed out by seat 0 or 1.
//
// # Parameters
//
// "board" gives the start board as canonical text ('#' and '.' only, free
// cells connected). Otherwise "free" (12..33, default 24) and "seed" (any
// integer, default 1) select a board from the arena's generator: from the
// centre (6,6), repeatedly expand a random free cell of the frontier; each
// newly reached neighbour becomes free with probability 0.7 (else an
// obstacle for good), until exactly free cells are free; a frontier that
// runs dry restarts from the centre on the same math/rand/v2 PCG stream
// seeded from seed. The same (free, seed) always gives the same board; it
// does not reproduce the course's random streams, its obstacle centre or
// its occasional N+2 boards.
//
// # Profile nycu-aicap-2023
//
// 6 s of wall clock per move, the first move included, no cushion, no
// memory limit, 6 s to start (the course server's connect limit). A
// missing or late reply and an error report get a substitute move drawn
// with the referee's distribution (RandomMove: a uniform free cell, a
// uniform direction, then a length uniform over 1 and whichever of 2 and 3
// fit); an illegal or unreadable reply loses at once, with Reason
// `ILLEGAL MOVE: player N played "<text>"` (N = seat + 1) and the cause in
// Detail; a dead agent's turns are skipped (Pass), and a memory breach, if
// a league sets a limit, counts as dead.
//
// # Deviations from the course server
//
//   - Coordinates outside 0..11 are illegal; the server wrapped negative ones
//     around its array or crashed on large ones. A direction outside 1..6
//     with l ≥ 2 is illegal; the server crashed.
//   - The server exchanged binary int32 tuples, so it never saw unreadable
//     text; text that is not four integers is rejected as engine.Illegal
//     (not engine.Unparseable) because the profile treats it as an illegal
//     move, whatever a league sets for unparseable replies.
//   - Boards come from the arena's generator or a given board string (above).
//
// Evaluate is a parity heuristic: exact (±1) once only isolated cells
// remain, +0.5 for the side to move with a single larger region, else ±0.25
// by the parity of the number of regions.
package hexcrossout
