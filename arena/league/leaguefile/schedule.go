package leaguefile

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"arena/arena/results"
)

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

// MatchID is the deterministic id of one game: league, pairing ("A-vs-B"),
// game index, seat order ("ab": A moves first, "ba": B does) and seed.
func MatchID(league, pairing string, index int, seed uint64) string {
	order := "ab"
	if index%2 == 1 {
		order = "ba"
	}
	return fmt.Sprintf("%s/%s/g%03d-%s-s%d", league, pairing, index, order, seed)
}

// Schedule lists the games the league's format hands out before any
// result: every game for round-robin, gauntlet and ab; the first round for
// swiss and knockout. Games come in colour-swapped pairs (index 2k: A
// moves first; 2k+1: B moves first, same seed); a round-robin runs pair by
// pair across all pairings, so partial results stay balanced and the SPRT
// sees complete pairs early.
func (l *League) Schedule() []results.Match {
	var out []results.Match
	for i, g := range l.Tournament.Next(nil) {
		out = append(out, l.Match(g, i))
	}
	return out
}
