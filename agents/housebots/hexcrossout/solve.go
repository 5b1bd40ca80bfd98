package hexcrossout

import (
	"context"
	"math/bits"
	"sync/atomic"
	"time"
)

// solver decides misère positions exactly: the player who crosses out the
// last cell loses, so an empty board is a win for the player to move.
// Results are kept in a lossy table keyed by the free set, shared by the
// moves of one game.
type solver struct {
	m        *model
	table    []uint64 // free<<2 | 2 (known) | win
	mask     uint64
	nodes    int64
	maxNodes int64 // stop after this many nodes (0: no bound)
	deadline time.Time
	ctx      context.Context
	stopped  atomic.Bool
}

func newSolver(m *model, logSize int) *solver {
	return &solver{m: m, table: make([]uint64, 1<<logSize), mask: 1<<logSize - 1}
}

func hashSet(free uint64) uint64 {
	free ^= free >> 31
	free *= 0x7fb5d329728ea185
	free ^= free >> 27
	free *= 0x81dadef4bc2dd44d
	return free ^ free>>33
}

// isolated reports whether no two free cells touch; then only singles are
// left and the parity decides.
func (s *solver) isolated(free uint64) bool {
	for r := free; r != 0; r &= r - 1 {
		if s.m.adj[bits.TrailingZeros64(r)]&free != 0 {
			return false
		}
	}
	return true
}

// win reports whether the player to move wins; ok is false when the
// search was stopped.
func (s *solver) win(free uint64) (bool, bool) {
	if free == 0 {
		return true, true
	}
	if s.isolated(free) {
		// k singles: the mover takes the last one when k is odd.
		return bits.OnesCount64(free)%2 == 0, true
	}
	slot := &s.table[hashSet(free)&s.mask]
	if *slot>>2 == free && *slot&2 != 0 {
		return *slot&1 == 1, true
	}
	s.nodes++
	if s.nodes&1023 == 0 {
		if (!s.deadline.IsZero() && time.Now().After(s.deadline)) || (s.ctx != nil && s.ctx.Err() != nil) || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
			s.stopped.Store(true)
		}
	}
	if s.stopped.Load() {
		return false, false
	}
	// Longer moves first: they shrink the position fastest.
	for pass := 0; pass < 2; pass++ {
		for _, mv := range s.m.moves {
			if mv.set&free != mv.set || (pass == 0) == mv.singleton {
				continue
			}
			w, ok := s.win(free &^ mv.set)
			if !ok {
				return false, false
			}
			if !w {
				*slot = free<<2 | 3
				return true, true
			}
		}
	}
	*slot = free<<2 | 2
	return false, true
}

// best returns a winning move from free, if the search finishes and there
// is one. solved is false when the clock stopped it.
func (s *solver) best(ctx context.Context, free uint64, deadline time.Time) (mv cellMove, win, solved bool) {
	s.ctx, s.deadline = ctx, deadline
	s.stopped.Store(false)
	for _, c := range s.m.moves {
		if c.set&free != c.set {
			continue
		}
		w, ok := s.win(free &^ c.set)
		if !ok {
			return cellMove{}, false, false
		}
		if !w {
			return c, true, true
		}
	}
	return cellMove{}, false, true
}
