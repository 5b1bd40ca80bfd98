package cluster

import "hash/maphash"

// doneSet remembers the matches a coordinator needs no result for: those
// the store held when the league began and those whose result it handed
// to the runner. A map of their ids grew with the league (about 100 bytes
// a game); this is a Bloom filter of fixed size, so the coordinator's
// memory stays flat however long the league. It never forgets a match; it
// may, rarely, claim one it never saw (about 5 in a million ids after
// 100,000 games, 2 % after a million). It is asked only about a match no
// job of this run waits for, so such a false claim drops an earlier run's
// result or lease for a match this run has yet to publish (the match is
// played when its job is published), or numbers a first play as a replay:
// no game is lost or stored twice.
type doneSet struct {
	seed maphash.Seed
	bits []uint64
}

const (
	doneSetBits   = 1 << 23 // 1 MiB
	doneSetHashes = 4
)

func newDoneSet() *doneSet {
	return &doneSet{seed: maphash.MakeSeed(), bits: make([]uint64, doneSetBits/64)}
}

// positions are the id's bits: double hashing from one 64-bit hash.
func (d *doneSet) positions(id string) [doneSetHashes]uint32 {
	h := maphash.String(d.seed, id)
	h1, h2 := uint32(h), uint32(h>>32)|1
	var p [doneSetHashes]uint32
	for i := range p {
		p[i] = (h1 + uint32(i)*h2) % doneSetBits
	}
	return p
}

func (d *doneSet) add(id string) {
	for _, p := range d.positions(id) {
		d.bits[p/64] |= 1 << (p % 64)
	}
}

func (d *doneSet) has(id string) bool {
	for _, p := range d.positions(id) {
		if d.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}
