package cachex

import (
	"fmt"
	"math"
	"strings"

	"arena/engine"
)

// The pictures are drawn from the canonical board text (rows r = 0..n-1,
// bottom first, '/'-separated; '.', 'r', 'b'), so they do not depend on
// how the state is stored.

func drawRows(text string) []string { return strings.Split(text, "/") }

// Draw shows the rhombus as the course referee printed it: row n-1 at the
// top, each row above shifted half a cell right, row numbers on the left
// and column numbers under the bottom row. Red (r) joins the bottom and
// top rows, blue (b) the left and right columns.
func (s *State) Draw() string {
	rows := drawRows(s.Text())
	n := len(rows)
	var w strings.Builder
	for r := n - 1; r >= 0; r-- {
		fmt.Fprintf(&w, "%2d %s", r, strings.Repeat(" ", r))
		for q := 0; q < len(rows[r]); q++ {
			if q > 0 {
				w.WriteByte(' ')
			}
			w.WriteByte(rows[r][q])
		}
		w.WriteByte('\n')
	}
	var ql strings.Builder
	ql.WriteString("q  ")
	for q := 0; q < n; q++ {
		fmt.Fprintf(&ql, "%-2d", q%100)
	}
	w.WriteString(strings.TrimRight(ql.String(), " "))
	fmt.Fprintf(&w, "\nred (r) joins rows 0 and %d; blue (b) joins columns 0 and %d", n-1, n-1)
	return w.String()
}

var drawStoneColour = map[byte]string{'r': "#d1342c", 'b': "#1f5fbf", '.': "#f3ead7"}

// SVG draws pointy-top hexagons on the rhombus, red edges along the bottom
// and top rows and blue along the left and right columns; each hexagon is
// one "cell".
func (s *State) SVG() string {
	rows := drawRows(s.Text())
	n := len(rows)
	const size = 20.0 // hexagon radius
	wd := math.Sqrt(3) * size
	margin := 2 * size
	centre := func(r, q int) (float64, float64) {
		x := margin + wd/2 + float64(q)*wd + float64(r)*wd/2
		y := margin + size + float64(n-1-r)*1.5*size
		return x, y
	}
	width := margin*2 + wd*float64(n) + wd*float64(n-1)/2
	height := margin*2 + size*2 + 1.5*size*float64(n-1)
	var w strings.Builder
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" class="board cachex" font-family="sans-serif">`, width, height)
	// Edge bands: a thick line just outside the two rows or columns a
	// side must join.
	band := func(r0, q0, r1, q1 int, ox, oy float64, colour string) {
		x0, y0 := centre(r0, q0)
		x1, y1 := centre(r1, q1)
		fmt.Fprintf(&w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="6" stroke-linecap="round"/>`, x0+ox, y0+oy, x1+ox, y1+oy, colour)
	}
	band(0, 0, 0, n-1, 0, 1.3*size, drawStoneColour['r'])
	band(n-1, 0, n-1, n-1, 0, -1.3*size, drawStoneColour['r'])
	band(0, 0, n-1, 0, -0.85*wd, 0, drawStoneColour['b'])
	band(0, n-1, n-1, n-1, 0.85*wd, 0, drawStoneColour['b'])
	for r := 0; r < n; r++ {
		for q := 0; q < len(rows[r]); q++ {
			c := rows[r][q]
			cx, cy := centre(r, q)
			var pts []string
			for k := 0; k < 6; k++ {
				a := math.Pi/6 + float64(k)*math.Pi/3
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", cx+size*math.Cos(a), cy+size*math.Sin(a)))
			}
			fill, ok := drawStoneColour[c]
			if !ok {
				fill = "#999"
			}
			fmt.Fprintf(&w, `<polygon class="cell" data-r="%d" data-q="%d" points="%s" fill="%s" stroke="#6b5b3e" stroke-width="1.5"><title>(%d,%d)</title></polygon>`,
				r, q, strings.Join(pts, " "), fill, r, q)
		}
	}
	w.WriteString(`</svg>`)
	return w.String()
}

// TellResult names the winner by colour and the course's reason.
func (s *State) TellResult(r engine.Result, names [2]string) string {
	colour := [2]string{"red", "blue"}
	switch {
	case r.Draw:
		return "draw"
	case r.Winner == 0 || r.Winner == 1:
		return fmt.Sprintf("%s (seat %d, %s) wins", names[r.Winner], r.Winner, colour[r.Winner])
	}
	return "no result"
}
