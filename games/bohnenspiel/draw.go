package bohnenspiel

import (
	"fmt"
	"strconv"
	"strings"

	"arena/engine"
)

// The pictures are drawn from the canonical board text and the public
// state methods only, so they do not depend on how the state is stored.

// drawPits is the pits per side, as the canonical text lists them.
const drawPits = 6

// drawnBoard is the canonical text read back: pits[p][i] is pit i of player p.
type drawnBoard struct {
	pits    [2][drawPits]int
	skips   [2]string
	blocked [2]bool
}

func drawReadBoard(text string) (drawnBoard, error) {
	var b drawnBoard
	parts := strings.Split(text, "|")
	if len(parts) != 5 {
		return b, fmt.Errorf("bohnenspiel board %q: want 5 '|'-separated parts", text)
	}
	for p := 0; p < 2; p++ {
		seeds := strings.Split(parts[p], ",")
		if len(seeds) != drawPits {
			return b, fmt.Errorf("bohnenspiel board %q: row %d has %d pits", text, p, len(seeds))
		}
		for i, v := range seeds {
			n, err := strconv.Atoi(v)
			if err != nil {
				return b, fmt.Errorf("bohnenspiel board %q: pit %d of row %d: %w", text, i, p, err)
			}
			b.pits[p][i] = n
		}
	}
	if sk, ok := strings.CutPrefix(parts[2], "skip="); ok {
		if a, c, ok := strings.Cut(sk, ","); ok {
			b.skips = [2]string{a, c}
		}
	}
	if bl, ok := strings.CutPrefix(parts[3], "blocked="); ok {
		b.blocked = [2]bool{strings.HasPrefix(bl, "1"), strings.HasSuffix(bl, "1")}
	}
	return b, nil
}

func (b drawnBoard) note(seat int, store int) string {
	s := fmt.Sprintf("seat %d: %d in store, %s skip(s) left", seat, store, b.skips[seat])
	if b.blocked[seat] {
		s += ", may not skip now"
	}
	return s
}

// Draw shows the pits as a mancala board: seat 1's row on top, numbered
// right to left, seat 0's row below, left to right, so sowing runs
// counter-clockwise; the stores are at the ends of the middle line (seat
// 1's on the left, seat 0's on the right).
func (s *State) Draw() string {
	b, err := drawReadBoard(s.Text())
	if err != nil {
		return err.Error()
	}
	sc := s.Scores()
	var w strings.Builder
	rule := "    +" + strings.Repeat("----+", drawPits)
	w.WriteString("    ")
	for i := drawPits - 1; i >= 0; i-- {
		fmt.Fprintf(&w, "  %d  ", i)
	}
	w.WriteString("  " + b.note(1, sc[1]) + "\n")
	w.WriteString(rule + "\n    |")
	for i := drawPits - 1; i >= 0; i-- {
		fmt.Fprintf(&w, "%3d |", b.pits[1][i])
	}
	fmt.Fprintf(&w, "\n%3d +%s %d\n    |", sc[1], strings.Repeat("----+", drawPits), sc[0])
	for i := 0; i < drawPits; i++ {
		fmt.Fprintf(&w, "%3d |", b.pits[0][i])
	}
	w.WriteString("\n" + rule + "\n    ")
	for i := 0; i < drawPits; i++ {
		fmt.Fprintf(&w, "  %d  ", i)
	}
	w.WriteString("  " + b.note(0, sc[0]))
	return w.String()
}

// SVG draws the board with round pits and long stores at the ends; each
// pit and store is one "cell".
func (s *State) SVG() string {
	b, err := drawReadBoard(s.Text())
	if err != nil {
		return drawSVGError(err)
	}
	sc := s.Scores()
	const pit, gap = 60, 8
	width := 2*(pit+gap) + drawPits*(pit+gap) + gap
	height := 2*pit + 3*gap + 44
	var w strings.Builder
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="board bohnenspiel" font-family="sans-serif">`, width, height)
	fmt.Fprintf(&w, `<rect x="0" y="20" width="%d" height="%d" rx="30" fill="#b07a45"/>`, width, 2*pit+3*gap)
	store := func(x, seat, n int) {
		fmt.Fprintf(&w, `<g class="cell store seat%d"><rect x="%d" y="%d" width="%d" height="%d" rx="28" fill="#8a5a2e" stroke="%s" stroke-width="3"/>`,
			seat, x, 20+gap, pit, 2*pit+gap, drawSeatColour[seat])
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="26" fill="#fff">%d</text></g>`, x+pit/2, 20+gap+pit+gap/2+9, n)
	}
	store(gap, 1, sc[1])
	store(width-gap-pit, 0, sc[0])
	cell := func(seat, i, row int) {
		col := i
		if seat == 1 {
			col = drawPits - 1 - i
		}
		cx := gap + pit + gap + col*(pit+gap) + pit/2
		cy := 20 + gap + row*(pit+gap) + pit/2
		fmt.Fprintf(&w, `<g class="cell pit seat%d" data-pit="%d"><circle cx="%d" cy="%d" r="%d" fill="#8a5a2e"/>`, seat, i, cx, cy, pit/2-2)
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="22" fill="#fff">%d</text></g>`, cx, cy+8, b.pits[seat][i])
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="10" fill="#e8d2b8">pit %d</text>`, cx, cy+pit/2-10, i)
	}
	for i := 0; i < drawPits; i++ {
		cell(1, i, 0)
		cell(0, i, 1)
	}
	fmt.Fprintf(&w, `<text x="%d" y="15" font-size="13" fill="%s">%s</text>`, gap, drawSeatColour[1], b.note(1, sc[1]))
	fmt.Fprintf(&w, `<text x="%d" y="%d" font-size="13" fill="%s">%s</text>`, gap, height-4, drawSeatColour[0], b.note(0, sc[0]))
	w.WriteString(`</svg>`)
	return w.String()
}

var drawSeatColour = [2]string{"#c0392b", "#1f5fbf"}

func drawSVGError(err error) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40"><text x="4" y="24" fill="#c00">` +
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(err.Error()) + `</text></svg>`
}

// TellResult names the winner and the seeds each store holds.
func (s *State) TellResult(r engine.Result, names [2]string) string {
	seeds := fmt.Sprintf("seeds in store: %s %d, %s %d", names[0], r.Scores[0], names[1], r.Scores[1])
	switch {
	case r.Draw:
		return "draw; " + seeds
	case r.Winner == 0 || r.Winner == 1:
		return fmt.Sprintf("%s (seat %d) wins; %s", names[r.Winner], r.Winner, seeds)
	}
	return "no result; " + seeds
}
