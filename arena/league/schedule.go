package league

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"arena/arena/results"
)

// Pairing is two agents who meet; A is the one listed first in the
// configuration (the challenger in a gauntlet).
type Pairing struct{ A, B *Agent }

// Name is "A-vs-B".
func (p Pairing) Name() string { return p.A.Name + "-vs-" + p.B.Name }

// Pairings lists who meets whom under the league's format.
func (l *League) Pairings() []Pairing {
	var out []Pairing
	switch l.Format {
	case Gauntlet:
		var ch *Agent
		for _, a := range l.Agents {
			if a.Name == l.Challenger {
				ch = a
			}
		}
		for _, a := range l.Agents {
			if a != ch {
				out = append(out, Pairing{ch, a})
			}
		}
	default: // round-robin; ab has exactly two agents
		for i, a := range l.Agents {
			for _, b := range l.Agents[i+1:] {
				out = append(out, Pairing{a, b})
			}
		}
	}
	return out
}

// seedMask keeps seeds within 52 bits, so agents whose numbers are
// doubles (Lua) see them exactly, even as the referee's seed*2+seat+1.
const seedMask = 1<<52 - 1

// pairSeed derives the seed shared by the two games of a colour-swapped
// pair from the base seed, the league, the pairing and the pair index, so
// it does not depend on the order games run in or on the other pairings.
func pairSeed(base uint64, league, pairing string, pair int) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", base, league, pairing, pair)
	return binary.BigEndian.Uint64(h.Sum(nil)) & seedMask
}

// MatchID is the deterministic id of one game: league, pairing, game index,
// seat order ("ab": A moves first, "ba": B does) and seed.
func MatchID(league string, p Pairing, index int, seed uint64) string {
	order := "ab"
	if index%2 == 1 {
		order = "ba"
	}
	return fmt.Sprintf("%s/%s/g%03d-%s-s%d", league, p.Name(), index, order, seed)
}

// Schedule lists every game of the league. Games come in colour-swapped
// pairs (index 2k: A moves first; 2k+1: B moves first, same seed), pair
// by pair across all pairings, so partial results stay balanced and the
// SPRT sees complete pairs early.
func (l *League) Schedule() []results.Match {
	pairs := l.Pairings()
	var out []results.Match
	for k := range l.GamesPerPairing / 2 {
		for _, p := range pairs {
			seed := pairSeed(l.Seed, l.Name, p.Name(), k)
			for j := range 2 {
				idx := 2*k + j
				seats := [2]string{p.A.Name, p.B.Name}
				if j == 1 {
					seats = [2]string{p.B.Name, p.A.Name}
				}
				out = append(out, results.Match{
					ID: MatchID(l.Name, p, idx, seed), League: l.Name, Pairing: p.Name(),
					Pair: k, Index: idx, Seq: len(out), Seats: seats, Seed: seed,
				})
			}
		}
	}
	return out
}
