package search

import (
	"math"
	"sync/atomic"

	"arena/engine"
)

// Bound kinds stored in the transposition table.
const (
	boundExact = 1
	boundLower = 2 // the value is at least this (a beta cutoff)
	boundUpper = 3 // the value is at most this (no move raised alpha)
)

// ttEntry is written and read without locks by several goroutines: check
// is key ^ val ^ meta, so a torn entry fails the key test and is ignored
// (the "lockless hashing" of parallel chess programs).
type ttEntry struct {
	check, val, meta atomic.Uint64
}

// TT is a transposition table keyed by engine.State.Hash. It is safe for
// concurrent use. A TT may be kept between moves of one game; entries of
// older searches are overwritten first.
type TT struct {
	e    []ttEntry
	mask uint64
	gen  atomic.Uint32
}

// NewTT makes a table of about mb MiB (at least 1024 entries).
func NewTT(mb int) *TT {
	n := uint64(1024)
	for n*2*24 <= uint64(mb)<<20 {
		n *= 2
	}
	return &TT{e: make([]ttEntry, n), mask: n - 1}
}

// ttComplete is the depth stored for a subtree searched to its end (no
// leaf cut by the depth limit): its value holds for any depth asked.
const ttComplete = 255

// meta layout: move (32 bits) | depth (8) | bound (2) | generation (8).
func packMeta(m engine.Move, depth, bound int, gen uint32) uint64 {
	if depth > 255 {
		depth = 255
	}
	return uint64(m) | uint64(depth)<<32 | uint64(bound)<<40 | uint64(gen&0xff)<<42
}

type ttHit struct {
	move  engine.Move
	depth int
	bound int
	value float64
}

func (t *TT) probe(h uint64) (ttHit, bool) {
	e := &t.e[h&t.mask]
	meta := e.meta.Load()
	val := e.val.Load()
	if e.check.Load()^val^meta != h || meta>>40&3 == 0 {
		return ttHit{}, false
	}
	return ttHit{move: engine.Move(uint32(meta)), depth: int(meta >> 32 & 0xff), bound: int(meta >> 40 & 3), value: math.Float64frombits(val)}, true
}

func (t *TT) store(h uint64, m engine.Move, depth, bound int, v float64) {
	gen := t.gen.Load()
	e := &t.e[h&t.mask]
	old := e.meta.Load()
	oldKey := e.check.Load() ^ e.val.Load() ^ old
	// Keep a deeper entry of the current search for another position;
	// everything else is replaced.
	if oldKey != h && old>>40&3 != 0 && uint32(old>>42&0xff) == gen&0xff && int(old>>32&0xff) > depth+1 {
		return
	}
	meta := packMeta(m, depth, bound, gen)
	val := math.Float64bits(v)
	e.check.Store(h ^ val ^ meta)
	e.val.Store(val)
	e.meta.Store(meta)
}

// newSearch ages the entries of earlier searches.
func (t *TT) newSearch() { t.gen.Add(1) }

// Clear empties the table (e.g. at the start of a new game).
func (t *TT) Clear() {
	for i := range t.e {
		t.e[i].check.Store(0)
		t.e[i].val.Store(0)
		t.e[i].meta.Store(0)
	}
}
