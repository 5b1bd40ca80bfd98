// Package bohnenspiel implements Bohnenspiel as refereed by McGill University
// COMP 424 (Artificial Intelligence), Winter 2017, under the arena profile
// "comp424-2017".
//
// # Rules
//
// Two rows of six pits, six seeds in each (72 in all). Player p owns
// board[p][0..5]; the twelve pits form a ring r = 6p+i that sowing walks
// forward. Player 0 moves first and the turn passes after every move.
//
//   - PIT p i: take every seed from the mover's non-empty pit i and sow them
//     one per pit forward around the ring, the emptied pit included on later
//     laps. If the last seed leaves its pit (on either side) holding 2, 4 or
//     6, the mover captures it and keeps capturing backwards while pits hold
//     2, 4 or 6. A pit move lifts the mover's bar on skipping.
//   - SKIP p: spend one of two skip credits; the opponent may not skip on its
//     next turn (it stays barred until it makes a pit move).
//   - NOTHING p parses but is never legal.
//
// After each move the game ends when the player to move has no legal move
// (variant B of the framework: empty row and no credit, or barred); every seed
// left on the board then goes to the player who just moved. Otherwise it ends
// by score, seeds left in place, once the round counter exceeds 200 (after
// ply 402). The higher score wins; equal scores draw. Scores plus seeds on
// the board always total 72.
//
// # Notation
//
// Move text is the framework's wire form, "PIT 0 3" and "SKIP 1", parsed as
// the original Java parser did, one line of it (the server read replies
// with readLine, so a trailing "\n", "\r\n" or "\r" and anything after
// it are not part of the move): split on single spaces, the type token
// matched exactly, integers read with Integer.valueOf semantics, extra
// tokens ignored. An illegal move's reason is "ILLEGAL MOVE: " plus the
// framework's display text ("Player 0 plays pit 3", "Player 1 skips turn.",
// "Player 0 ends turn."), built from the move as written; a pit outside 0..5
// is illegal rather than the original's crash. Unparseable text carries no
// reason because the referee treats it as no reply (a timeout).
//
// The canonical board text of the vectors is
//
//	a0,...,a5|b0,...,b5|skip=c0,c1|blocked=k0,k1|turn=T
//
// with the two rows, the skip credits, the skip bars and the round counter.
//
// # Profile
//
// Per-move wall clock: 30 s for each side's first move, 700 ms afterwards,
// and a 1 s cushion in which a late reply is discarded and a uniformly random
// legal move played instead. Silence past the cushion, and unparseable text,
// lose with reason TIMEOUT; an illegal move loses with its ILLEGAL MOVE
// reason. An agent error or a dead process gets random moves without
// penalty; 520 MiB of resident memory per agent, a breach counting as a dead
// process.
package bohnenspiel
