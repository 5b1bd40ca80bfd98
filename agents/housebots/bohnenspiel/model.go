package bohnenspiel

import (
	"fmt"
	"strconv"
	"strings"

	"arena/engine"
)

// pos is a compact Bohnenspiel position for the strong bot's search (it
// implements engine.State and engine.Copier), read from the engine's
// board text; the rules follow the course's framework (variant B ending,
// the 200-round limit). Moves are pit indices 0..5, or skipMove.
type pos struct {
	pits    [12]int8 // ring: seat p's pit i is 6p+i
	scores  [2]int
	credits [2]int8
	barred  [2]bool
	toMove  int
	turn    int // completed rounds (player 1's moves)
	ply     int
	over    bool
}

const skipMove = engine.Move(6)

const maxTurn = 200

// fromEngine reads "a0,..,a5|b0,..,b5|skip=c0,c1|blocked=k0,k1|turn=T".
func fromEngine(st engine.State) (*pos, error) {
	t := st.Text()
	parts := strings.Split(t, "|")
	if len(parts) != 5 {
		return nil, fmt.Errorf("bohnenspiel board text %q: want 5 fields", t)
	}
	p := &pos{scores: st.Scores(), toMove: st.ToMove(), ply: st.Ply(), over: st.Terminal()}
	nums := func(s, prefix string, want int) ([]int, error) {
		s = strings.TrimPrefix(s, prefix)
		f := strings.Split(s, ",")
		if len(f) != want {
			return nil, fmt.Errorf("bohnenspiel board text %q: field %q", t, s)
		}
		out := make([]int, want)
		for i, x := range f {
			n, err := strconv.Atoi(x)
			if err != nil {
				return nil, fmt.Errorf("bohnenspiel board text %q: %w", t, err)
			}
			out[i] = n
		}
		return out, nil
	}
	for side := 0; side < 2; side++ {
		v, err := nums(parts[side], "", 6)
		if err != nil {
			return nil, err
		}
		for i, n := range v {
			p.pits[6*side+i] = int8(n)
		}
	}
	c, err := nums(parts[2], "skip=", 2)
	if err != nil {
		return nil, err
	}
	b, err := nums(parts[3], "blocked=", 2)
	if err != nil {
		return nil, err
	}
	tn, err := nums(parts[4], "turn=", 1)
	if err != nil {
		return nil, err
	}
	p.credits = [2]int8{int8(c[0]), int8(c[1])}
	p.barred = [2]bool{b[0] == 1, b[1] == 1}
	p.turn = tn[0]
	return p, nil
}

func (p *pos) canSkip(s int) bool { return p.credits[s] > 0 && !p.barred[s] }

func (p *pos) hasMove(s int) bool {
	if p.canSkip(s) {
		return true
	}
	for i := 0; i < 6; i++ {
		if p.pits[6*s+i] > 0 {
			return true
		}
	}
	return false
}

func (p *pos) ToMove() int {
	if p.over {
		return engine.NoSeat
	}
	return p.toMove
}
func (p *pos) Terminal() bool { return p.over }
func (p *pos) Result() engine.Result {
	r := engine.Result{Winner: engine.NoSeat, Scores: p.scores}
	switch {
	case p.scores[0] > p.scores[1]:
		r.Winner = 0
	case p.scores[1] > p.scores[0]:
		r.Winner = 1
	default:
		r.Draw = true
	}
	return r
}
func (p *pos) Scores() [2]int { return p.scores }
func (p *pos) LegalMoves(dst []engine.Move) []engine.Move {
	if p.over {
		return dst
	}
	for i := 0; i < 6; i++ {
		if p.pits[6*p.toMove+i] > 0 {
			dst = append(dst, engine.Move(i))
		}
	}
	if p.canSkip(p.toMove) {
		dst = append(dst, skipMove)
	}
	return dst
}
func (p *pos) LegalCount() int { return len(p.LegalMoves(nil)) }

// Apply plays a pit or a skip, then judges the end as the framework did.
func (p *pos) Apply(m engine.Move) {
	me := p.toMove
	opp := 1 - me
	if m == skipMove {
		p.credits[me]--
		p.barred[opp] = true
	} else {
		r := 6*me + int(m)
		n := int(p.pits[r])
		p.pits[r] = 0
		last := r
		for ; n > 0; n-- {
			last = (last + 1) % 12
			p.pits[last]++
		}
		for v := p.pits[last]; v == 2 || v == 4 || v == 6; v = p.pits[last] {
			p.scores[me] += int(v)
			p.pits[last] = 0
			last = (last + 11) % 12
		}
		p.barred[me] = false
	}
	p.ply++
	if me == 1 {
		p.turn++
	}
	p.toMove = opp
	switch {
	case !p.hasMove(opp):
		for i := range p.pits {
			p.scores[me] += int(p.pits[i])
			p.pits[i] = 0
		}
		p.over = true
	case p.turn > maxTurn:
		p.over = true
	}
}

func (p *pos) ParseMove(text string) (engine.Move, error) {
	for _, m := range p.LegalMoves(nil) {
		if p.FormatMove(m) == text {
			return m, nil
		}
	}
	return 0, &engine.MoveError{Kind: engine.Illegal, Text: text}
}
func (p *pos) FormatMove(m engine.Move) string {
	if m == skipMove {
		return fmt.Sprintf("SKIP %d", p.toMove)
	}
	return fmt.Sprintf("PIT %d %d", p.toMove, m)
}
func (p *pos) Text() string {
	return fmt.Sprintf("%v %v %v %v %d %d", p.pits, p.scores, p.credits, p.barred, p.toMove, p.turn)
}

// Hash covers everything that decides the rest of the game except the
// round count, which matters only near the 200-round limit.
func (p *pos) Hash() uint64 {
	h := uint64(p.toMove) | uint64(p.credits[0])<<1 | uint64(p.credits[1])<<3
	if p.barred[0] {
		h |= 1 << 5
	}
	if p.barred[1] {
		h |= 1 << 6
	}
	h ^= uint64(p.scores[0]-p.scores[1]+128) << 8
	for i, v := range p.pits {
		h = (h ^ uint64(v)<<uint(16+i%4*8)) * 0x9e3779b97f4a7c15
	}
	if p.turn > maxTurn-20 {
		h ^= uint64(p.turn) * 0xbf58476d1ce4e5b9
	}
	return h ^ h>>29
}
func (p *pos) Ply() int                  { return p.ply }
func (p *pos) Clone() engine.State       { c := *p; return &c }
func (p *pos) CopyFrom(src engine.State) { *p = *src.(*pos) }
