package dotsboxes

import "strings"

// Draw renders the board for people: dots as '+', drawn lines as '---' and
// '|', completed boxes by the seat that took them. The first coordinate
// runs down the page, the second across.
func (s *State) Draw() string {
	var b strings.Builder
	g := s.g
	for a := range g.rows {
		for c := 0; c < g.cols; c++ {
			b.WriteByte('+')
			if c+1 < g.cols {
				if s.drawer(int(g.right[a][c])) >= 0 {
					b.WriteString("---")
				} else {
					b.WriteString("   ")
				}
			}
		}
		b.WriteByte('\n')
		if a+1 == g.rows {
			break
		}
		for c := 0; c < g.cols; c++ {
			if s.drawer(int(g.down[a][c])) >= 0 {
				b.WriteByte('|')
			} else {
				b.WriteByte(' ')
			}
			if c+1 < g.cols {
				b.WriteByte(' ')
				b.WriteByte(seatCell(s.owner(a*(g.cols-1) + c)))
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

func seatCell(seat int) byte {
	if seat < 0 {
		return ' '
	}
	return byte('0' + seat)
}
