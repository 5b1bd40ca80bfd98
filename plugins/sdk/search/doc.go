// Package search is a game-tree search library for agents written against
// engine.State: iterative-deepening alpha-beta (negamax with a shared
// transposition table, PVS and killer/history move ordering) and Monte-Carlo
// tree search (UCT with an optional solver, tree reuse and pluggable
// playouts). Both stop on a Limits computed from the referee's clock
// (ForTurn), with a safety margin, and both can search on several
// goroutines where the profile counts wall time rather than CPU time.
//
// Games where the same player may move twice in a row (Dots-and-Boxes extra
// turns) need nothing special: values are negated only where the side to
// move changes.
//
// When a state implements engine.Copier the searchers keep one preallocated
// state per ply and never allocate per node; otherwise they Clone.
package search
