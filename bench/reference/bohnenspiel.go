package reference

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Bohnenspiel is the COMP 424 Bohnenspiel on one ring of 12 pits: pits
// 0..5 are seat 0's, 6..11 seat 1's, sowing walks forward around the
// ring, captures walk back from the last pit while it holds 2, 4 or 6.
type Bohnenspiel struct {
	pits        [12]int8
	score       [2]int16
	skipCredit  [2]int8
	turnsToSkip [2]int8
	player      int8
	over        bool
	turn        int16
}

// NewBohnenspiel returns the start position.
func NewBohnenspiel() *Bohnenspiel {
	b := &Bohnenspiel{skipCredit: [2]int8{2, 2}}
	for i := range b.pits {
		b.pits[i] = 6
	}
	return b
}

const bohnSkip = 6

func (b *Bohnenspiel) canSkip(p int8) bool { return b.skipCredit[p] > 0 && b.turnsToSkip[p] == 0 }

// Legal lists the non-empty pits ascending, then SKIP (move 6).
func (b *Bohnenspiel) Legal(dst []int) []int {
	if b.over {
		return dst
	}
	base := int(b.player) * 6
	for i := 0; i < 6; i++ {
		if b.pits[base+i] > 0 {
			dst = append(dst, i)
		}
	}
	if b.canSkip(b.player) {
		dst = append(dst, bohnSkip)
	}
	return dst
}

// RandomMove counts the candidates and walks to a random one.
func (b *Bohnenspiel) RandomMove(r *rand.Rand) int {
	base := int(b.player) * 6
	n := 0
	for i := 0; i < 6; i++ {
		if b.pits[base+i] > 0 {
			n++
		}
	}
	if b.canSkip(b.player) {
		n++
	}
	k := r.IntN(n)
	for i := 0; i < 6; i++ {
		if b.pits[base+i] > 0 {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return bohnSkip
}

// Play sows or skips, then checks for the end as updateWinner did.
func (b *Bohnenspiel) Play(m int) {
	p := b.player
	if m == bohnSkip {
		b.skipCredit[p]--
		b.turnsToSkip[1-p] = 1
	} else {
		from := int(p)*6 + m
		seeds := int(b.pits[from])
		b.pits[from] = 0
		// Whole laps first (the origin pit is sown too), then the rest.
		if seeds >= 12 {
			lap := int8(seeds / 12)
			for i := range b.pits {
				b.pits[i] += lap
			}
			seeds %= 12
		}
		last := from
		for ; seeds > 0; seeds-- {
			last++
			if last == 12 {
				last = 0
			}
			b.pits[last]++
		}
		for c := b.pits[last]; c == 2 || c == 4 || c == 6; c = b.pits[last] {
			b.score[p] += int16(c)
			b.pits[last] = 0
			last--
			if last < 0 {
				last = 11
			}
		}
		b.turnsToSkip[p] = 0
	}
	if p == 1 {
		b.turn++
	}
	b.player = 1 - p
	next := int(b.player) * 6
	empty := true
	for i := next; i < next+6; i++ {
		if b.pits[i] > 0 {
			empty = false
			break
		}
	}
	if empty && !b.canSkip(b.player) {
		for i := range b.pits {
			b.score[p] += int16(b.pits[i])
			b.pits[i] = 0
		}
		b.over = true
		return
	}
	if b.turn > 200 {
		b.over = true
	}
}

// PlayoutListing plays a copy of b to the end, listing the moves and
// drawing one at each ply, and returns the plies played.
func (b Bohnenspiel) PlayoutListing(r *rand.Rand) int {
	var buf [7]int
	n := 0
	for ; !b.over; n++ {
		moves := b.Legal(buf[:0])
		b.Play(moves[r.IntN(len(moves))])
	}
	return n
}

// PlayoutDraw plays a copy of b to the end by direct draws.
func (b Bohnenspiel) PlayoutDraw(r *rand.Rand) int {
	n := 0
	for ; !b.over; n++ {
		b.Play(b.RandomMove(r))
	}
	return n
}

// Over reports the end of the game.
func (b *Bohnenspiel) Over() bool { return b.over }

// Winner compares the scores.
func (b *Bohnenspiel) Winner() int {
	switch {
	case b.score[0] > b.score[1]:
		return 0
	case b.score[1] > b.score[0]:
		return 1
	}
	return -1
}

// ToMove is the player to move.
func (b *Bohnenspiel) ToMove() int { return int(b.player) }

// Scores are the captured seeds.
func (b *Bohnenspiel) Scores() [2]int { return [2]int{int(b.score[0]), int(b.score[1])} }

// Text is the arena's board text.
func (b *Bohnenspiel) Text() string {
	var sb strings.Builder
	for i, v := range b.pits {
		switch {
		case i == 6:
			sb.WriteByte('|')
		case i > 0:
			sb.WriteByte(',')
		}
		fmt.Fprint(&sb, v)
	}
	fmt.Fprintf(&sb, "|skip=%d,%d|blocked=%d,%d|turn=%d", b.skipCredit[0], b.skipCredit[1], b.turnsToSkip[0], b.turnsToSkip[1], b.turn)
	return sb.String()
}

// MoveText writes "PIT p i" or "SKIP p".
func (b *Bohnenspiel) MoveText(m int) string {
	if m == bohnSkip {
		return fmt.Sprintf("SKIP %d", b.player)
	}
	return fmt.Sprintf("PIT %d %d", b.player, m)
}
