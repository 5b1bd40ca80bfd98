package lua

import (
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"arena/engine"
)

// view builds state:cells(), the game's structured view parsed from its
// canonical board text. Indices are 0-based like the move text; each
// game's coordinates are in docs/lua.md.
func (e *gameEnv) view(L *glua.LState, st engine.State) *glua.LTable {
	text := st.Text()
	var t *glua.LTable
	var ok bool
	switch e.game {
	case "bohnenspiel":
		t, ok = bohnenspielView(L, text)
	case "pentago-twist":
		t, ok = pentagoView(L, text)
	case "cachex":
		t, ok = cachexView(L, text)
	case "dots-and-boxes":
		t, ok = e.dotsView(L, st, text)
	case "hex-crossout":
		t, ok = hexView(L, text)
	default:
		t, ok = L.NewTable(), true
	}
	if !ok {
		L.RaiseError("cells: cannot read the %s board %q", e.game, clip(text, 60))
	}
	t.RawSetString("text", glua.LString(text))
	return t
}

// row0 is a table indexed 0..n-1.
func row0(L *glua.LState, n int) *glua.LTable {
	return L.CreateTable(n, 1)
}

// bohnenspiel: "a0,...,a5|b0,...,b5|skip=c0,c1|blocked=k0,k1|turn=T".
// Read by hand: evaluation functions call cells() at every node.
func bohnenspielView(L *glua.LState, text string) (*glua.LTable, bool) {
	var v [17]int // 12 pits, 2 skips, 2 bars, the round counter
	n, i := 0, 0
	for n < len(v) {
		for i < len(text) && (text[i] < '0' || text[i] > '9') {
			i++
		}
		if i == len(text) {
			return nil, false
		}
		x := 0
		for ; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
			x = x*10 + int(text[i]-'0')
		}
		v[n] = x
		n++
	}
	if strings.Count(text, "|") != 4 {
		return nil, false
	}
	pits := L.CreateTable(0, 2)
	for p := 0; p < 2; p++ {
		row := row0(L, 6)
		for k := 0; k < 6; k++ {
			row.RawSetInt(k, glua.LNumber(v[6*p+k]))
		}
		pits.RawSetInt(p, row)
	}
	skips, blocked := L.CreateTable(0, 2), L.CreateTable(0, 2)
	for p := 0; p < 2; p++ {
		skips.RawSetInt(p, glua.LNumber(v[12+p]))
		blocked.RawSetInt(p, glua.LBool(v[14+p] != 0))
	}
	t := L.CreateTable(0, 5)
	t.RawSetString("pits", pits)
	t.RawSetString("skips", skips)
	t.RawSetString("blocked", blocked)
	t.RawSetString("turn", glua.LNumber(v[16]))
	return t, true
}

// seatOfChar maps a board character to a seat, -1 for an empty cell.
func seatOfChar(c byte, zero, one byte) (glua.LNumber, bool) {
	switch c {
	case zero:
		return 0, true
	case one:
		return 1, true
	case '.':
		return -1, true
	}
	return 0, false
}

// pentago-twist: 36 characters row-major, 'w' seat 0, 'b' seat 1.
func pentagoView(L *glua.LState, text string) (*glua.LTable, bool) {
	if len(text) != 36 {
		return nil, false
	}
	cells := row0(L, 6)
	for x := 0; x < 6; x++ {
		row := row0(L, 6)
		for y := 0; y < 6; y++ {
			v, ok := seatOfChar(text[x*6+y], 'w', 'b')
			if !ok {
				return nil, false
			}
			row.RawSetInt(y, v)
		}
		cells.RawSetInt(x, row)
	}
	t := L.CreateTable(0, 3)
	t.RawSetString("size", glua.LNumber(6))
	t.RawSetString("cells", cells)
	return t, true
}

// cachex: rows r = 0 (bottom) .. n-1 joined by '/', 'r' seat 0, 'b' seat 1.
func cachexView(L *glua.LState, text string) (*glua.LTable, bool) {
	rows := strings.Split(text, "/")
	n := len(rows)
	cells := row0(L, n)
	for r, line := range rows {
		if len(line) != n {
			return nil, false
		}
		row := row0(L, n)
		for q := 0; q < n; q++ {
			v, ok := seatOfChar(line[q], 'r', 'b')
			if !ok {
				return nil, false
			}
			row.RawSetInt(q, v)
		}
		cells.RawSetInt(r, row)
	}
	t := L.CreateTable(0, 3)
	t.RawSetString("size", glua.LNumber(n))
	t.RawSetString("cells", cells)
	return t, true
}

// hex-crossout: rows y = 0..11 joined by '/', each x = 0..11: '#'
// obstacle (-2), '.' free (-1), '1' and '2' crossed out by seat 0 and 1.
func hexView(L *glua.LState, text string) (*glua.LTable, bool) {
	rows := strings.Split(text, "/")
	const side = 12
	if len(rows) != side {
		return nil, false
	}
	cells := row0(L, side)
	cols := make([]*glua.LTable, side)
	for x := range cols {
		cols[x] = row0(L, side)
		cells.RawSetInt(x, cols[x])
	}
	free := 0
	for y, line := range rows {
		if len(line) != side {
			return nil, false
		}
		for x := 0; x < side; x++ {
			var v glua.LNumber
			switch line[x] {
			case '#':
				v = -2
			case '.':
				v = -1
				free++
			case '1':
				v = 0
			case '2':
				v = 1
			default:
				return nil, false
			}
			cols[x].RawSetInt(y, v)
		}
	}
	t := L.CreateTable(0, 4)
	t.RawSetString("size", glua.LNumber(side))
	t.RawSetString("cells", cells)
	t.RawSetString("free", glua.LNumber(free))
	return t, true
}

// dots-and-boxes: one character per line in Grid order ('.' undrawn, else
// the seat that drew it), '/', one per box row-major. The text does not
// say the board's size, so it comes from the state or the parameters.
func (e *gameEnv) dotsView(L *glua.LState, st engine.State, text string) (*glua.LTable, bool) {
	rows, cols := 5, 5
	if d, ok := st.(interface {
		Rows() int
		Cols() int
	}); ok {
		rows, cols = d.Rows(), d.Cols()
	} else {
		var err1, err2 error
		rows, err1 = e.params.Int("rows", 5)
		cols, err2 = e.params.Int("cols", 5)
		if err1 != nil || err2 != nil {
			return nil, false
		}
	}
	linesText, boxText, ok := strings.Cut(text, "/")
	nLines := 2*rows*cols - rows - cols
	if !ok || len(linesText) != nLines || len(boxText) != (rows-1)*(cols-1) {
		return nil, false
	}
	owner := func(c byte) (glua.LNumber, bool) { return seatOfChar(c, '0', '1') }
	right, down := row0(L, rows), row0(L, rows)
	rightRows, downRows := make([]*glua.LTable, rows), make([]*glua.LTable, rows)
	for a := 0; a < rows; a++ {
		rightRows[a], downRows[a] = row0(L, cols), row0(L, cols)
		right.RawSetInt(a, rightRows[a])
		down.RawSetInt(a, downRows[a])
	}
	lines := L.CreateTable(nLines, 0)
	drawnRight := make([][]bool, rows)
	drawnDown := make([][]bool, rows)
	for a := range drawnRight {
		drawnRight[a] = make([]bool, cols)
		drawnDown[a] = make([]bool, cols)
	}
	i := 0
	addLine := func(a, b, c, d int, dst []*glua.LTable, drawn [][]bool) bool {
		o, ok := owner(linesText[i])
		if !ok {
			return false
		}
		i++
		dst[a].RawSetInt(b, o)
		drawn[a][b] = o >= 0
		l := L.CreateTable(0, 6)
		l.RawSetString("a", glua.LNumber(a))
		l.RawSetString("b", glua.LNumber(b))
		l.RawSetString("c", glua.LNumber(c))
		l.RawSetString("d", glua.LNumber(d))
		l.RawSetString("owner", o)
		l.RawSetString("move", glua.LString("["+"["+strconv.Itoa(a)+","+strconv.Itoa(b)+"],["+strconv.Itoa(c)+","+strconv.Itoa(d)+"]]"))
		lines.Append(l)
		return true
	}
	for a := 0; a < rows; a++ {
		for b := 0; b < cols; b++ {
			if b+1 < cols && !addLine(a, b, a, b+1, rightRows, drawnRight) {
				return nil, false
			}
			if a+1 < rows && !addLine(a, b, a+1, b, downRows, drawnDown) {
				return nil, false
			}
		}
	}
	boxes, sides := row0(L, rows-1), row0(L, rows-1)
	for x := 0; x < rows-1; x++ {
		brow, srow := row0(L, cols-1), row0(L, cols-1)
		for y := 0; y < cols-1; y++ {
			o, ok := owner(boxText[x*(cols-1)+y])
			if !ok {
				return nil, false
			}
			brow.RawSetInt(y, o)
			n := 0
			for _, d := range []bool{drawnDown[x][y], drawnRight[x][y], drawnRight[x+1][y], drawnDown[x][y+1]} {
				if d {
					n++
				}
			}
			srow.RawSetInt(y, glua.LNumber(n))
		}
		boxes.RawSetInt(x, brow)
		sides.RawSetInt(x, srow)
	}
	t := L.CreateTable(0, 8)
	t.RawSetString("rows", glua.LNumber(rows))
	t.RawSetString("cols", glua.LNumber(cols))
	t.RawSetString("right", right)
	t.RawSetString("down", down)
	t.RawSetString("lines", lines)
	t.RawSetString("boxes", boxes)
	t.RawSetString("sides", sides)
	return t, true
}
