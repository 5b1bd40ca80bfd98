package pentagotwist

import (
	"fmt"
	"strings"

	"arena/engine"
)

// The pictures are drawn from the canonical board text (36 characters,
// index 6x+y, x the row from the top and y the column from the left; 'w'
// White = seat 0, 'b' Black = seat 1, '.' empty), so they do not depend on
// how the state is stored.

// drawSize is the board's side, as the canonical text lists it.
const drawSize = 6

// Draw shows the 6×6 board split into its four 3×3 quadrants (0 top left,
// 1 top right, 2 bottom left, 3 bottom right), x down the left side and y
// along the top.
func (s *State) Draw() string {
	text := s.Text()
	if len(text) != drawSize*drawSize {
		return "bad board text " + text
	}
	var w strings.Builder
	w.WriteString("x\\y 0 1 2   3 4 5\n")
	for x := 0; x < drawSize; x++ {
		if x == drawSize/2 {
			w.WriteString("    ------+------\n")
		}
		fmt.Fprintf(&w, "%d   ", x)
		for y := 0; y < drawSize; y++ {
			if y == drawSize/2 {
				w.WriteString("| ")
			}
			w.WriteByte(text[drawSize*x+y])
			if y+1 < drawSize {
				w.WriteByte(' ')
			}
		}
		w.WriteByte('\n')
	}
	w.WriteString("w White (seat 0), b Black (seat 1); quadrants 0 1 / 2 3")
	return w.String()
}

// SVG draws the four quadrants as separate plates (they twist on their
// own) with a hole or a stone on each of the 36 cells; each cell is one
// "cell".
func (s *State) SVG() string {
	text := s.Text()
	const cell, gap, margin = 44, 10, 24
	plate := 3 * cell
	width := 2*margin + 2*plate + gap
	var w strings.Builder
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="board pentago-twist" font-family="sans-serif">`, width, width)
	for q := 0; q < 4; q++ {
		ox := margin + (q%2)*(plate+gap)
		oy := margin + (q/2)*(plate+gap)
		fmt.Fprintf(&w, `<rect class="quadrant" x="%d" y="%d" width="%d" height="%d" rx="10" fill="#b3262e"/>`, ox, oy, plate, plate)
		fmt.Fprintf(&w, `<text x="%d" y="%d" font-size="11" fill="#fff" opacity="0.7">%d</text>`, ox+4, oy+12, q)
	}
	for x := 0; x < drawSize; x++ {
		for y := 0; y < drawSize; y++ {
			c := text[drawSize*x+y]
			cx := margin + y*cell + (y/3)*gap + cell/2
			cy := margin + x*cell + (x/3)*gap + cell/2
			fill, stroke, kind := "#7d141a", "#5a0e12", "empty"
			switch c {
			case 'w':
				fill, stroke, kind = "#f7f7f2", "#333", "white"
			case 'b':
				fill, stroke, kind = "#161616", "#000", "black"
			}
			fmt.Fprintf(&w, `<circle class="cell %s" data-x="%d" data-y="%d" cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="1.5"><title>(%d,%d)</title></circle>`,
				kind, x, y, cx, cy, cell/2-6, fill, stroke, x, y)
		}
	}
	for i := 0; i < drawSize; i++ {
		p := margin + i*cell + (i/3)*gap + cell/2
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="12" fill="#555">%d</text>`, p, margin-8, i)
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="12" fill="#555">%d</text>`, margin/2, p+4, i)
	}
	w.WriteString(`</svg>`)
	return w.String()
}

// TellResult names the winner by colour.
func (s *State) TellResult(r engine.Result, names [2]string) string {
	colour := [2]string{"White", "Black"}
	switch {
	case r.Draw:
		return "draw"
	case r.Winner == 0 || r.Winner == 1:
		return fmt.Sprintf("%s (seat %d, %s) wins", names[r.Winner], r.Winner, colour[r.Winner])
	}
	return "no result"
}
