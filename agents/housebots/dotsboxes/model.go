// Package dotsboxes holds the Dots-and-Boxes house bots: the course
// report's dynamic-depth negamax with its "take chains" simulation
// ("baseline") and a searcher that solves chain endgames exactly
// ("strong"). Both search their own compact model of the position, read
// from the engine's board text, and answer in the course's move text.
package dotsboxes

import (
	"fmt"
	"math/bits"

	"arena/engine"
)

// geom is the line and box numbering of one board size. Lines are
// numbered in the course's Grid order: ascending (a, b, c, d), smaller dot
// first (rules §9), which is also the order of the board text.
type geom struct {
	rows, cols int
	lines      [][4]int // the two dots of each line
	boxLines   []uint64 // the four sides of each box
	lineBoxes  [][]int  // the boxes each line borders (1 or 2)
	all        uint64
}

func newGeom(rows, cols int) (*geom, error) {
	g := &geom{rows: rows, cols: cols}
	idx := map[[4]int]int{}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols {
				idx[[4]int{a, b, a, b + 1}] = len(g.lines)
				g.lines = append(g.lines, [4]int{a, b, a, b + 1})
			}
			if a+1 < rows {
				idx[[4]int{a, b, a + 1, b}] = len(g.lines)
				g.lines = append(g.lines, [4]int{a, b, a + 1, b})
			}
		}
	}
	if len(g.lines) > 64 {
		return nil, fmt.Errorf("dots-and-boxes %dx%d has %d lines; the house bots handle at most 64", rows, cols, len(g.lines))
	}
	g.lineBoxes = make([][]int, len(g.lines))
	for x := 0; x+1 < rows; x++ {
		for y := 0; y+1 < cols; y++ {
			k := len(g.boxLines)
			sides := [][4]int{{x, y, x + 1, y}, {x, y, x, y + 1}, {x + 1, y, x + 1, y + 1}, {x, y + 1, x + 1, y + 1}}
			var m uint64
			for _, s := range sides {
				l := idx[s]
				m |= 1 << l
				g.lineBoxes[l] = append(g.lineBoxes[l], k)
			}
			g.boxLines = append(g.boxLines, m)
		}
	}
	g.all = 1<<len(g.lines) - 1
	if len(g.lines) == 64 {
		g.all = ^uint64(0)
	}
	return g, nil
}

// pos is a Dots-and-Boxes position over a geom; it implements
// engine.State (and engine.Copier) so the search library can run on it.
type pos struct {
	g      *geom
	drawn  uint64
	scores [2]int
	toMove int
	ply    int
}

// fromEngine reads the engine's position: the board text lists every
// line's drawer ('.' undrawn) before a '/'.
func fromEngine(g *geom, st engine.State) (*pos, error) {
	t := st.Text()
	if len(t) < len(g.lines) {
		return nil, fmt.Errorf("dots-and-boxes board text %q is shorter than %d lines", t, len(g.lines))
	}
	p := &pos{g: g, scores: st.Scores(), toMove: st.ToMove(), ply: st.Ply()}
	for i := range g.lines {
		if t[i] != '.' {
			p.drawn |= 1 << i
		}
	}
	return p, nil
}

func (p *pos) sides(box int) int { return bits.OnesCount64(p.drawn & p.g.boxLines[box]) }

func (p *pos) ToMove() int {
	if p.Terminal() {
		return engine.NoSeat
	}
	return p.toMove
}
func (p *pos) Terminal() bool { return p.drawn == p.g.all }
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
	for free := p.g.all &^ p.drawn; free != 0; free &= free - 1 {
		dst = append(dst, engine.Move(bits.TrailingZeros64(free)))
	}
	return dst
}
func (p *pos) LegalCount() int { return bits.OnesCount64(p.g.all &^ p.drawn) }

// Apply draws a line; a completed box scores and keeps the turn.
func (p *pos) Apply(m engine.Move) {
	p.drawn |= 1 << m
	p.ply++
	done := 0
	for _, b := range p.g.lineBoxes[m] {
		if p.drawn&p.g.boxLines[b] == p.g.boxLines[b] {
			done++
		}
	}
	if done == 0 {
		p.toMove ^= 1
		return
	}
	p.scores[p.toMove] += done
}
func (p *pos) ParseMove(text string) (engine.Move, error) {
	for i, l := range p.g.lines {
		if text == formatLine(l) && p.drawn>>i&1 == 0 {
			return engine.Move(i), nil
		}
	}
	return 0, &engine.MoveError{Kind: engine.Illegal, Text: text}
}
func formatLine(l [4]int) string               { return fmt.Sprintf("[[%d,%d],[%d,%d]]", l[0], l[1], l[2], l[3]) }
func (p *pos) FormatMove(m engine.Move) string { return formatLine(p.g.lines[m]) }
func (p *pos) Text() string                    { return fmt.Sprintf("%x/%d/%v", p.drawn, p.toMove, p.scores) }
func (p *pos) Hash() uint64 {
	h := p.drawn*0x9e3779b97f4a7c15 ^ uint64(p.toMove)<<63 ^ uint64(p.scores[0]-p.scores[1]+64)<<1
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}
func (p *pos) Ply() int                  { return p.ply }
func (p *pos) Clone() engine.State       { c := *p; return &c }
func (p *pos) CopyFrom(src engine.State) { *p = *src.(*pos) }

// capturable lists the undrawn lines that complete a box now.
func (p *pos) capturable() uint64 {
	var out uint64
	for b, m := range p.g.boxLines {
		if p.sides(b) == 3 {
			out |= m &^ p.drawn
		}
	}
	return out
}

// safe reports whether some undrawn line gives no box a third side.
func (p *pos) safe() bool {
	for free := p.g.all &^ p.drawn; free != 0; free &= free - 1 {
		l := bits.TrailingZeros64(free)
		ok := true
		for _, b := range p.g.lineBoxes[l] {
			if p.sides(b) >= 2 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
