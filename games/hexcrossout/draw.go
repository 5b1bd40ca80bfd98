package hexcrossout

import (
	"fmt"
	"math"
	"strings"

	"arena/engine"
)

// The pictures are drawn from the canonical board text (12 rows y = 0..11
// joined by '/', 12 characters x = 0..11 each: '#' obstacle, '.' free, '1'
// and '2' crossed out by seat 0 and seat 1), so they do not depend on how
// the state is stored.

// drawSide is the board's side, as the canonical text lists it.
const drawSide = 12

// drawRegion is the bounding box of the cells that are not obstacles.
func drawRegion(rows []string) (x0, x1, y0, y1 int) {
	x0, y0, x1, y1 = drawSide, drawSide, -1, -1
	for y, row := range rows {
		for x := 0; x < len(row); x++ {
			if row[x] != '#' {
				x0, x1 = min(x0, x), max(x1, x)
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	return
}

func drawCounts(text string) (free int, crossed [2]int) {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.':
			free++
		case '1':
			crossed[0]++
		case '2':
			crossed[1]++
		}
	}
	return
}

// Draw shows the playing region in the course's odd-row-shifted hex
// layout: obstacles blank, free cells '.', crossed-out cells by the course
// player number ('1' for seat 0, '2' for seat 1). Row numbers (y) run down
// the left side, column numbers (x) along the top.
func (s *State) Draw() string {
	text := s.Text()
	rows := strings.Split(text, "/")
	x0, x1, y0, y1 := drawRegion(rows)
	if x1 < 0 {
		return "(no cells)"
	}
	var w, head strings.Builder
	head.WriteString("x  ")
	for x := x0; x <= x1; x++ {
		fmt.Fprintf(&head, "%-2d", x%100)
	}
	w.WriteString(strings.TrimRight(head.String(), " ") + "\n")
	for y := y0; y <= y1; y++ {
		var line strings.Builder
		fmt.Fprintf(&line, "%2d ", y)
		if y%2 == 1 {
			line.WriteByte(' ')
		}
		for x := x0; x <= x1; x++ {
			c := rows[y][x]
			if c == '#' {
				c = ' '
			}
			line.WriteByte(c)
			line.WriteByte(' ')
		}
		w.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	free, crossed := drawCounts(text)
	fmt.Fprintf(&w, "free %d; crossed out: seat 0 ('1') %d, seat 1 ('2') %d", free, crossed[0], crossed[1])
	return w.String()
}

var drawCrossColour = [2]string{"#d1342c", "#1f5fbf"}

// SVG draws each cell that is not an obstacle as a pointy-top hexagon,
// odd rows shifted half a cell right; crossed-out cells are filled with
// the colour of the seat that crossed them and marked with its course
// player number. Each hexagon is one "cell".
func (s *State) SVG() string {
	text := s.Text()
	rows := strings.Split(text, "/")
	x0, x1, y0, y1 := drawRegion(rows)
	if x1 < 0 {
		x0, x1, y0, y1 = 0, 0, 0, 0
	}
	const size = 22.0
	wd := math.Sqrt(3) * size
	margin := size
	cols := float64(x1-x0) + 1.5
	width := 2*margin + wd*cols
	height := 2*margin + 2*size + 1.5*size*float64(y1-y0)
	var w strings.Builder
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" class="board hex-crossout" font-family="sans-serif">`, width, height)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := rows[y][x]
			if c == '#' {
				continue
			}
			cx := margin + wd/2 + float64(x-x0)*wd + float64(y%2)*wd/2
			cy := margin + size + float64(y-y0)*1.5*size
			var pts []string
			for k := 0; k < 6; k++ {
				a := math.Pi/6 + float64(k)*math.Pi/3
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", cx+size*math.Cos(a), cy+size*math.Sin(a)))
			}
			fill, state := "#f3ead7", "free"
			if c == '1' || c == '2' {
				fill, state = drawCrossColour[c-'1'], "crossed"
			}
			fmt.Fprintf(&w, `<g class="cell %s" data-x="%d" data-y="%d"><polygon points="%s" fill="%s" stroke="#6b5b3e" stroke-width="1.5"/>`,
				state, x, y, strings.Join(pts, " "), fill)
			if state == "crossed" {
				fmt.Fprintf(&w, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="16" fill="#fff">%c</text>`, cx, cy+6, c)
			}
			fmt.Fprintf(&w, `<title>%d,%d</title></g>`, x, y)
		}
	}
	w.WriteString(`</svg>`)
	return w.String()
}

// TellResult says who won and that the numbers are cells crossed out:
// in this game whoever crosses out the last cell loses, so more cells is
// not a win.
func (s *State) TellResult(r engine.Result, names [2]string) string {
	cells := fmt.Sprintf("cells crossed out (not points: whoever crosses out the last cell loses): %s %d, %s %d",
		names[0], r.Scores[0], names[1], r.Scores[1])
	switch {
	case r.Draw:
		return "draw; " + cells
	case r.Winner == 0 || r.Winner == 1:
		return fmt.Sprintf("%s (seat %d) wins; %s", names[r.Winner], r.Winner, cells)
	}
	return "no result; " + cells
}
