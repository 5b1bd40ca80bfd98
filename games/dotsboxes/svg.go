package dotsboxes

import (
	"fmt"
	"strings"

	"arena/engine"
)

var drawSeatColour = [2]string{"#d1342c", "#1f5fbf"}

// SVG draws the dots, every line (drawn ones in the colour of the seat that
// drew them, undrawn ones faint and dashed) and the boxes, filled in the
// colour of their owner. The first coordinate runs down the page, as in
// Draw. It reads the canonical text (lines in Grid order, '/', boxes
// row-major; '.', '0', '1') and the board size, nothing else; each box is
// one "cell".
func (s *State) SVG() string {
	rows, cols := s.Rows(), s.Cols()
	lines, boxes, _ := strings.Cut(s.Text(), "/")
	const step, margin = 56, 24
	width := 2*margin + (cols-1)*step
	height := 2*margin + (rows-1)*step
	pos := func(a, b int) (int, int) { return margin + b*step, margin + a*step }
	var w strings.Builder
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="board dots-and-boxes" font-family="sans-serif">`, width, height)
	for x := 0; x < rows-1; x++ {
		for y := 0; y < cols-1; y++ {
			k := (cols-1)*x + y
			fill, owner := "#fbfaf5", "free"
			if boxes[k] == '0' || boxes[k] == '1' {
				fill, owner = drawSeatColour[boxes[k]-'0'], "seat"+string(boxes[k])
			}
			px, py := pos(x, y)
			fmt.Fprintf(&w, `<g class="cell box %s" data-box="%d"><rect x="%d" y="%d" width="%d" height="%d" fill="%s" fill-opacity="0.35"/>`,
				owner, k, px, py, step, step, fill)
			if owner != "free" {
				fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="middle" font-size="20" fill="%s">%c</text>`, px+step/2, py+step/2+7, drawSeatColour[boxes[k]-'0'], boxes[k])
			}
			w.WriteString(`</g>`)
		}
	}
	// Lines in Grid order: from each dot in row-major order, the line to
	// its right neighbour, then the line to the dot below.
	i := 0
	line := func(a, b, c, d int) {
		by := lines[i]
		i++
		x1, y1 := pos(a, b)
		x2, y2 := pos(c, d)
		if by == '0' || by == '1' {
			fmt.Fprintf(&w, `<line class="line drawn" x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="6" stroke-linecap="round"/>`, x1, y1, x2, y2, drawSeatColour[by-'0'])
			return
		}
		fmt.Fprintf(&w, `<line class="line" x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ccc" stroke-width="2" stroke-dasharray="4 4"/>`, x1, y1, x2, y2)
	}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols {
				line(a, b, a, b+1)
			}
			if a+1 < rows {
				line(a, b, a+1, b)
			}
		}
	}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			x, y := pos(a, b)
			fmt.Fprintf(&w, `<circle class="dot" cx="%d" cy="%d" r="5" fill="#222"><title>[%d,%d]</title></circle>`, x, y, a, b)
		}
	}
	w.WriteString(`</svg>`)
	return w.String()
}

// TellResult names the winner and the boxes each side completed.
func (s *State) TellResult(r engine.Result, names [2]string) string {
	boxes := fmt.Sprintf("boxes: %s %d, %s %d", names[0], r.Scores[0], names[1], r.Scores[1])
	switch {
	case r.Draw:
		return "draw; " + boxes
	case r.Winner == 0 || r.Winner == 1:
		return fmt.Sprintf("%s (seat %d) wins; %s", names[r.Winner], r.Winner, boxes)
	}
	return "no result; " + boxes
}
