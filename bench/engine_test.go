package main

import (
	"strings"
	"testing"

	"arena/bench/internal/playoutrow"
)

// TestEngineLines: each game gives a random-playout row against the faster
// reference loop and a listing row against the reference's listing loop,
// each ratio with the target and whether it is met.
func TestEngineLines(t *testing.T) {
	r := playoutrow.Row{Game: "g", Engine: 300, EngineListing: 100, RefDraw: 150, RefListing: 100, Plies: 10}
	l := engineLines(r)
	if !strings.Contains(l[0][2], "(direct draw) 150/s") || l[0][3] != "2.00× (target 1.5×: met)" {
		t.Errorf("random-playout row %q", l[0])
	}
	if !strings.Contains(l[1][2], "listing 100/s") || l[1][3] != "1.00× (target 1.5×: NOT met)" {
		t.Errorf("listing row %q", l[1])
	}
	r.RefDraw = 0 // no direct draw: the listing loop is the faster one
	if l := engineLines(r); !strings.Contains(l[0][2], "reference (listing) 100/s") || !strings.HasPrefix(l[0][3], "3.00×") {
		t.Errorf("row without a direct draw %q", l[0])
	}
}

func TestParseEngineRows(t *testing.T) {
	rows, err := parseEngineRows([]byte(`[{"game":"bohnenspiel","engine":2,"engine_listing":1,"ref_listing":1}]`))
	if err != nil || len(rows) != 1 || rows[0].Game != "bohnenspiel" || rows[0].Engine != 2 {
		t.Fatalf("rows %+v, err %v", rows, err)
	}
	for _, bad := range []string{`[]`, `not json`} {
		if _, err := parseEngineRows([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestBusyWarning: a load above the CPUs at either end is reported.
func TestBusyWarning(t *testing.T) {
	for _, c := range []struct {
		start, end string
		busy       bool
	}{
		{"0.50 0.40 0.30", "1.90 1.00 0.50", false},
		{"2.50 1.00 1.00", "0.10 0.10 0.10", true},
		{"0.10 0.10 0.10", "24.58 14.70 9.00", true},
		{"unknown", "unknown", false},
	} {
		if got := busyWarning(c.start, c.end, 2); (got != "") != c.busy {
			t.Errorf("busyWarning(%q, %q, 2) = %q, want busy %v", c.start, c.end, got, c.busy)
		}
	}
}

func TestShellWords(t *testing.T) {
	got := shellWords([]string{"/usr/bin/python3", "-c", "import numpy"})
	if want := `python3 -c "import numpy"`; got != want {
		t.Errorf("shellWords = %q, want %q", got, want)
	}
}

// An -only list naming a section there is not is refused, naming the
// sections; a list of real sections, or none, is taken.
func TestCheckOnly(t *testing.T) {
	for _, ok := range []string{"", "start", "engine,start,deadline"} {
		if err := checkOnly(ok); err != nil {
			t.Errorf("checkOnly(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"bogus", "start,strat", "start,"} {
		err := checkOnly(bad)
		if err == nil || !strings.Contains(err.Error(), "engine,move,start,rss,league,deadline") {
			t.Errorf("checkOnly(%q): %v, want a refusal naming the sections", bad, err)
		}
	}
}
