package enginetest

import (
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engine"
)

// update rewrites golden files instead of comparing with them:
// go test ./games/... -run DrawGolden -update-draw
var update = flag.Bool("update-draw", false, "rewrite the golden drawings in testdata/draw")

// Position is a known position for the drawing goldens.
type Position struct {
	Name   string        // golden file base name in testdata/draw
	Params engine.Params // game parameters
	Moves  []string      // the history in course notation ("" skips a turn)
	Cells  int           // how many elements of class "cell" the SVG must have
	// Tell: compare TellResult of the position's own Result, with the
	// agents named "alice" and "bob", with NAME.result.txt.
	Tell bool
}

// DrawGolden plays each position and compares the state's terminal
// drawing (engine.Drawer) and SVG (engine.SVGDrawer) with the golden files
// testdata/draw/NAME.txt and NAME.svg, checks that the SVG is well-formed
// XML with the expected number of cells, and, for positions with Tell,
// compares TellResult with NAME.result.txt.
func DrawGolden(t *testing.T, g engine.Game, positions []Position) {
	t.Helper()
	for _, p := range positions {
		t.Run(p.Name, func(t *testing.T) {
			st, err := g.NewState(p.Params)
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.Replay(st, p.Moves); err != nil {
				t.Fatal(err)
			}
			d, ok := st.(engine.Drawer)
			if !ok {
				t.Fatalf("%T does not draw itself as text (engine.Drawer)", st)
			}
			sv, ok := st.(engine.SVGDrawer)
			if !ok {
				t.Fatalf("%T does not draw itself as SVG (engine.SVGDrawer)", st)
			}
			Golden(t, filepath.Join("testdata", "draw", p.Name+".txt"), d.Draw()+"\n")
			svg := sv.SVG()
			if n, err := CountCells(svg); err != nil {
				t.Errorf("SVG is not well-formed: %v", err)
			} else if n != p.Cells {
				t.Errorf("SVG has %d elements of class cell, want %d", n, p.Cells)
			}
			Golden(t, filepath.Join("testdata", "draw", p.Name+".svg"), svg+"\n")
			if p.Tell {
				rt, ok := st.(engine.ResultTeller)
				if !ok {
					t.Fatalf("%T does not tell results (engine.ResultTeller)", st)
				}
				Golden(t, filepath.Join("testdata", "draw", p.Name+".result.txt"), rt.TellResult(st.Result(), [2]string{"alice", "bob"})+"\n")
			}
		})
	}
}

// CountCells parses an SVG document and counts the elements whose class
// list contains "cell".
func CountCells(svg string) (int, error) {
	dec := xml.NewDecoder(strings.NewReader(svg))
	n, root := 0, false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if !root {
			if se.Name.Local != "svg" {
				return n, errors.New("root element is <" + se.Name.Local + ">, not <svg>")
			}
			root = true
		}
		for _, a := range se.Attr {
			if a.Name.Local == "class" && hasWord(a.Value, "cell") {
				n++
			}
		}
	}
	if !root {
		return 0, errors.New("no <svg> element")
	}
	return n, nil
}

func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

// Golden compares got with the file at path, or rewrites the file under
// -update-draw.
func Golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update-draw to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update-draw to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
