package reference

import (
	"fmt"
	"strings"
)

// Bohnenspiel follows the COMP 424 framework's BohnenspielBoardState:
// board[p][i], sowing with a next-pit walk, captures walking back.
type Bohnenspiel struct {
	board       [2][6]int
	score       [2]int
	skipCredit  [2]int
	turnsToSkip [2]int
	player      int
	turn        int
	over        bool
}

// NewBohnenspiel returns the start position.
func NewBohnenspiel() *Bohnenspiel {
	b := &Bohnenspiel{skipCredit: [2]int{2, 2}}
	for p := 0; p < 2; p++ {
		for i := 0; i < 6; i++ {
			b.board[p][i] = 6
		}
	}
	return b
}

const bohnSkip = 6

func (b *Bohnenspiel) canSkip(p int) bool { return b.skipCredit[p] > 0 && b.turnsToSkip[p] == 0 }

// Legal lists the non-empty pits ascending, then SKIP (move 6).
func (b *Bohnenspiel) Legal(dst []int) []int {
	if b.over {
		return dst
	}
	for i := 0; i < 6; i++ {
		if b.board[b.player][i] > 0 {
			dst = append(dst, i)
		}
	}
	if b.canSkip(b.player) {
		dst = append(dst, bohnSkip)
	}
	return dst
}

// nextPit is the framework's getNextPit: forward around the ring.
func nextPit(side, i int) (int, int) {
	if i == 5 {
		return 1 - side, 0
	}
	return side, i + 1
}

// prevPit walks the ring backwards.
func prevPit(side, i int) (int, int) {
	if i == 0 {
		return 1 - side, 5
	}
	return side, i - 1
}

// Play sows or skips, then checks for the end as updateWinner did.
func (b *Bohnenspiel) Play(m int) {
	p := b.player
	if m == bohnSkip {
		b.skipCredit[p]--
		b.turnsToSkip[1-p] = 1
	} else {
		seeds := b.board[p][m]
		b.board[p][m] = 0
		side, i := p, m
		for ; seeds > 0; seeds-- {
			side, i = nextPit(side, i)
			b.board[side][i]++
		}
		for {
			c := b.board[side][i]
			if c != 2 && c != 4 && c != 6 {
				break
			}
			b.score[p] += c
			b.board[side][i] = 0
			side, i = prevPit(side, i)
		}
		b.turnsToSkip[p] = 0
	}
	if p == 1 {
		b.turn++
	}
	b.player = 1 - p
	next := b.player
	empty := true
	for i := 0; i < 6; i++ {
		if b.board[next][i] > 0 {
			empty = false
		}
	}
	if empty && !b.canSkip(next) {
		for s := 0; s < 2; s++ {
			for i := 0; i < 6; i++ {
				b.score[p] += b.board[s][i]
				b.board[s][i] = 0
			}
		}
		b.over = true
		return
	}
	if b.turn > 200 {
		b.over = true
	}
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
func (b *Bohnenspiel) ToMove() int { return b.player }

// Scores are the captured seeds.
func (b *Bohnenspiel) Scores() [2]int { return b.score }

// Text is the arena's board text.
func (b *Bohnenspiel) Text() string {
	var sb strings.Builder
	for p := 0; p < 2; p++ {
		if p == 1 {
			sb.WriteByte('|')
		}
		for i := 0; i < 6; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprint(&sb, b.board[p][i])
		}
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

// Copy returns an independent copy.
func (b *Bohnenspiel) Copy() Game {
	c := *b
	return &c
}
