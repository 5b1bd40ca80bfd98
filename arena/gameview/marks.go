package gameview

import (
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Marks added to the games' own SVG drawings, as classes the viewer's
// stylesheet draws (an inline style would break the page's content
// security policy):
//
//   - "lastmove" on every cell and line the move changed, found by
//     comparing the frame's drawing with the one before it, so it needs no
//     knowledge of the game;
//   - "decisive" on what decided the game: the five in a row (Pentago), the
//     connecting path (Cachex), the winner's boxes (Dots-and-Boxes) or store
//     (Bohnenspiel), the last crossing out (hex cross-out, whose mover loses);
//   - the agents' initials on owned cells, where the drawings number the
//     seats or tell them only by colour.
//
// The decisive marks read the cells' data attributes of each game's
// drawing: the one place the viewer knows the five drawings apart.

// svgPart is one cell or line element of a drawing: its text spans
// [start, end), the class attribute's value ends at classEnd.
type svgPart struct {
	start, end, classEnd int
	tag                  string
	class                string
	attrs                map[string]string
	text                 string // the text of a <text> child, "" if none
	textStart, textEnd   int    // its span, when there is one
}

var (
	partOpen = regexp.MustCompile(`<(g|polygon|circle|rect|line)\s+class="((?:cell|line)[^"]*)"([^>]*?)(/?)>`)
	attrRe   = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
	textRe   = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
)

// parts finds the cell and line elements of an SVG drawing in order.
func parts(svg string) []svgPart {
	var out []svgPart
	for _, m := range partOpen.FindAllStringSubmatchIndex(svg, -1) {
		p := svgPart{start: m[0], tag: svg[m[2]:m[3]], class: svg[m[4]:m[5]], classEnd: m[5], attrs: map[string]string{}}
		for _, a := range attrRe.FindAllStringSubmatch(svg[m[6]:m[7]], -1) {
			p.attrs[a[1]] = a[2]
		}
		p.end = m[1]
		if m[9] == m[8] { // not self-closing: runs to its closing tag
			closing := "</" + p.tag + ">"
			if i := strings.Index(svg[m[1]:], closing); i >= 0 {
				p.end = m[1] + i + len(closing)
			}
		}
		if t := textRe.FindStringSubmatchIndex(svg[p.start:p.end]); t != nil {
			p.text = svg[p.start+t[2] : p.start+t[3]]
			p.textStart, p.textEnd = p.start+t[2], p.start+t[3]
		}
		out = append(out, p)
	}
	return out
}

// edit is one change to a drawing: insert (or replace [at, to)) text.
type edit struct {
	at, to int
	text   string
}

// apply makes the edits, which must not overlap, in position order.
func applyEdits(svg string, edits []edit) string {
	if len(edits) == 0 {
		return svg
	}
	for i := 1; i < len(edits); i++ { // few edits: insertion sort
		for j := i; j > 0 && edits[j].at < edits[j-1].at; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		to := max(e.to, e.at)
		if e.at < last {
			continue
		}
		b.WriteString(svg[last:e.at])
		b.WriteString(e.text)
		last = to
	}
	b.WriteString(svg[last:])
	return b.String()
}

// markFrames adds the marks to every drawn frame of v.
func markFrames(v *Game) {
	initials := Initials(v.Rec.Agents[0].Name, v.Rec.Agents[1].Name)
	final := len(v.Frames) - 1
	// Frames are compared as the game drew them, before any mark.
	drawn := make([]string, len(v.Frames))
	for i := range v.Frames {
		drawn[i] = v.Frames[i].SVG
	}
	var prev []svgPart
	for i := range v.Frames {
		f := &v.Frames[i]
		if f.SVG == "" {
			continue
		}
		ps := parts(f.SVG)
		var edits []edit
		add := func(k int, class string) {
			edits = append(edits, edit{at: ps[k].classEnd, text: " " + class})
		}
		if i > 0 && !f.Ending && len(prev) == len(ps) {
			for k := range ps {
				if f.SVG[ps[k].start:ps[k].end] != drawn[i-1][prev[k].start:prev[k].end] {
					add(k, "lastmove")
				}
			}
		}
		for _, k := range decisive(v, drawn, ps, i, final) {
			add(k, "decisive")
		}
		edits = append(edits, ownerLabels(v.Info.Name, ps, initials)...)
		prev = ps
		f.SVG = applyEdits(f.SVG, edits)
	}
}

// decisive returns the parts that decided the game, on the frames where
// they show.
func decisive(v *Game, drawn []string, ps []svgPart, i, final int) []int {
	res := v.Rec.Result
	lastFrame := i == final || (i == final-1 && v.Frames[final].Ending)
	switch v.Info.Name {
	case "pentago-twist":
		return fiveInRow(ps)
	case "cachex":
		return cachexPath(ps)
	}
	if !lastFrame || res.Forfeit != "" || res.Draw || res.Winner < 0 || res.Winner > 1 {
		return nil
	}
	var out []int
	seat := "seat" + strconv.Itoa(res.Winner)
	switch v.Info.Name {
	case "dots-and-boxes", "bohnenspiel":
		want := "box"
		if v.Info.Name == "bohnenspiel" {
			want = "store"
		}
		for k, p := range ps {
			if hasClass(p.class, want) && hasClass(p.class, seat) {
				out = append(out, k)
			}
		}
	case "hex-crossout":
		// The last cells crossed out lose the game: they are what the
		// result turns on. They are the cells this frame changed.
		if i > 0 {
			prev := parts(drawn[i-1])
			for k, p := range ps {
				if k < len(prev) && hasClass(p.class, "crossed") && !hasClass(prev[k].class, "crossed") {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

func hasClass(class, c string) bool {
	for _, f := range strings.Fields(class) {
		if f == c {
			return true
		}
	}
	return false
}

// fiveInRow returns the Pentago cells in any five of one colour in a row,
// column or diagonal.
func fiveInRow(ps []svgPart) []int {
	at := map[[2]int]int{}
	colour := map[int]string{}
	for k, p := range ps {
		x, err1 := strconv.Atoi(p.attrs["data-x"])
		y, err2 := strconv.Atoi(p.attrs["data-y"])
		if err1 != nil || err2 != nil {
			continue
		}
		at[[2]int{x, y}] = k
		for _, c := range []string{"white", "black"} {
			if hasClass(p.class, c) {
				colour[k] = c
			}
		}
	}
	marked := map[int]bool{}
	for start, k0 := range at {
		c := colour[k0]
		if c == "" {
			continue
		}
		for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
			line := []int{k0}
			for s := 1; s < 5; s++ {
				k, ok := at[[2]int{start[0] + s*d[0], start[1] + s*d[1]}]
				if !ok || colour[k] != c {
					break
				}
				line = append(line, k)
			}
			if len(line) == 5 {
				for _, k := range line {
					marked[k] = true
				}
			}
		}
	}
	return sortedKeys(marked)
}

// The fills of Cachex's drawing for seat 0's (red) and seat 1's (blue)
// stones.
const cachexRed, cachexBlue = "#d1342c", "#1f5fbf"

// cachexPath returns a shortest chain of one colour joining its edges: red
// (seat 0) rows 0 and n-1, blue (seat 1) columns 0 and n-1.
func cachexPath(ps []svgPart) []int {
	at := map[[2]int]int{}
	n := 0
	for k, p := range ps {
		r, err1 := strconv.Atoi(p.attrs["data-r"])
		q, err2 := strconv.Atoi(p.attrs["data-q"])
		if err1 != nil || err2 != nil {
			continue
		}
		at[[2]int{r, q}] = k
		n = max(n, r+1, q+1)
	}
	for _, side := range []struct {
		fill string
		axis int // 0: joins rows, 1: joins columns
	}{{cachexRed, 0}, {cachexBlue, 1}} {
		if path := hexPath(ps, at, n, side.fill, side.axis); path != nil {
			return path
		}
	}
	return nil
}

func hexPath(ps []svgPart, at map[[2]int]int, n int, fill string, axis int) []int {
	from := map[[2]int][2]int{}
	var queue [][2]int
	for pos, k := range at {
		if pos[axis] == 0 && ps[k].attrs["fill"] == fill {
			from[pos] = pos
			queue = append(queue, pos)
		}
	}
	// Start in board order, not the map's: of equally short chains the
	// same one is marked every time the game is drawn.
	slices.SortFunc(queue, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	steps := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, -1}, {-1, 1}}
	for len(queue) > 0 {
		pos := queue[0]
		queue = queue[1:]
		if pos[axis] == n-1 {
			var out []int
			for {
				out = append(out, at[pos])
				if from[pos] == pos {
					return out
				}
				pos = from[pos]
			}
		}
		for _, d := range steps {
			nb := [2]int{pos[0] + d[0], pos[1] + d[1]}
			k, ok := at[nb]
			if _, seen := from[nb]; !ok || seen || ps[k].attrs["fill"] != fill {
				continue
			}
			from[nb] = pos
			queue = append(queue, nb)
		}
	}
	return nil
}

func sortedKeys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// ownerLabels puts the seats' initials on owned cells: in place of the
// seat numbers Dots-and-Boxes (0/1) and hex cross-out (1/2) draw, and on
// the stones of Cachex and Pentago, told apart there only by colour.
func ownerLabels(game string, ps []svgPart, initials [2]string) []edit {
	var out []edit
	for _, p := range ps {
		seat := -1
		switch game {
		case "dots-and-boxes":
			if hasClass(p.class, "box") && (p.text == "0" || p.text == "1") {
				seat = int(p.text[0] - '0')
			}
		case "hex-crossout":
			if hasClass(p.class, "crossed") && (p.text == "1" || p.text == "2") {
				seat = int(p.text[0] - '1')
			}
		case "cachex":
			switch p.attrs["fill"] {
			case cachexRed:
				seat = 0
			case cachexBlue:
				seat = 1
			}
		case "pentago-twist":
			switch {
			case hasClass(p.class, "white"):
				seat = 0
			case hasClass(p.class, "black"):
				seat = 1
			}
		}
		if seat < 0 {
			continue
		}
		label := html.EscapeString(initials[seat])
		if p.textEnd > 0 {
			out = append(out, edit{at: p.textStart, to: p.textEnd, text: label})
			continue
		}
		x, y, ok := centre(p)
		if !ok {
			continue
		}
		colour := "#fff"
		if hasClass(p.class, "white") {
			colour = "#222"
		}
		out = append(out, edit{at: p.end, text: `<text class="owner" x="` + x + `" y="` + y +
			`" dy="0.35em" text-anchor="middle" font-size="11" fill="` + colour + `">` + label + `</text>`})
	}
	return out
}

// centre is the middle of a circle or polygon cell.
func centre(p svgPart) (string, string, bool) {
	if p.tag == "circle" {
		return p.attrs["cx"], p.attrs["cy"], p.attrs["cx"] != ""
	}
	pts := strings.Fields(p.attrs["points"])
	if len(pts) == 0 {
		return "", "", false
	}
	var sx, sy float64
	for _, pt := range pts {
		xs, ys, _ := strings.Cut(pt, ",")
		x, err1 := strconv.ParseFloat(xs, 64)
		y, err2 := strconv.ParseFloat(ys, 64)
		if err1 != nil || err2 != nil {
			return "", "", false
		}
		sx, sy = sx+x, sy+y
	}
	n := float64(len(pts))
	return strconv.FormatFloat(sx/n, 'f', 1, 64), strconv.FormatFloat(sy/n, 'f', 1, 64), true
}

// Initials names the two seats in one or two letters each, told apart:
// the first letters of each name's words ("greedy bot" → "GB"), else the
// first two letters; seat numbers when the names cannot be told apart.
func Initials(a, b string) [2]string {
	ia, ib := initials(a, 1), initials(b, 1)
	if ia == ib {
		ia, ib = initials(a, 2), initials(b, 2)
	}
	if ia == ib || ia == "" || ib == "" {
		return [2]string{"0", "1"}
	}
	return [2]string{ia, ib}
}

func initials(name string, n int) string {
	var out []rune
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if len(out) < 2 {
			out = append(out, unicode.ToUpper([]rune(w)[0]))
		}
	}
	if len(out) >= n {
		return string(out[:n])
	}
	if len(words) == 1 {
		r := []rune(words[0])
		if len(r) >= n {
			return strings.ToUpper(string(r[:n]))
		}
	}
	return string(out)
}
