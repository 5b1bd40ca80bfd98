package engine

// SVGDrawer is implemented by states that draw themselves as a standalone
// SVG picture (the web viewer shows one per ply). Every cell, pit or box of
// the board is one element with class "cell", so tools can count them; the
// picture carries its own colours, so it reads the same outside a page.
type SVGDrawer interface {
	SVG() string
}

// ResultTeller is implemented by states that can say how a game ended in
// the game's own terms (what its scores count, who won and why). names are
// the agents by seat; r may come from a record rather than from the rules
// (a game lost by a penalty), so the state need not be terminal.
type ResultTeller interface {
	TellResult(r Result, names [2]string) string
}
