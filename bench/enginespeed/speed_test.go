package main

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkPlayout runs the same three playout loops as the command, as Go
// benchmarks: go test -bench . ./bench/enginespeed
func BenchmarkPlayout(b *testing.B) {
	for _, c := range cases() {
		for _, v := range []struct {
			name string
			mk   func(gameCase, uint64) runner
		}{{"engine", engineFast}, {"engine-listing", engineListing}, {"reference", referencePlain}, {"reference-draw", referenceDraw}} {
			play := v.mk(c, 1)
			if play == nil {
				continue // no direct draw in this reference
			}
			b.Run(c.Name+"/"+v.name, func(b *testing.B) {
				plies := 0
				b.ReportAllocs()
				for b.Loop() {
					plies += play()
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
				b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
			})
		}
	}
}

// TestCompareShort runs the comparison briefly and checks the table has a
// row per game with the measured counts behind it.
func TestCompareShort(t *testing.T) {
	var rs []result
	for _, c := range cases() {
		r := compare(c, 1, 5*time.Millisecond)
		for _, m := range []measurement{r.fast, r.listing, r.reference} {
			if m.playouts == 0 || m.plies < m.playouts {
				t.Fatalf("%s: measurement %+v played nothing", c.Name, m)
			}
		}
		// The engine's search path allocates nothing per playout. The count
		// is the process's (runtime.MemStats): on a loaded machine the
		// window is longer and the runtime's and the test framework's own
		// few allocations fall in it (7 in 4,560 playouts once), so the
		// bound is per playout: one allocation in a playout's path would
		// count once per playout or more.
		if r.fast.mallocs*100 > uint64(r.fast.playouts) {
			t.Errorf("%s: engine path allocated %d times in %d playouts", c.Name, r.fast.mallocs, r.fast.playouts)
		}
		rs = append(rs, r)
	}
	tab := table(rs)
	for _, c := range cases() {
		if !strings.Contains(tab, "| "+c.Name) {
			t.Errorf("table lacks %s:\n%s", c.Name, tab)
		}
	}
}

// TestOpsShort times the hot-path operations briefly and checks that the
// engine's CopyFrom, Apply and RandomPlayoutMove allocate nothing.
func TestOpsShort(t *testing.T) {
	var rows []opRow
	for _, c := range cases() {
		r := measureOps(c, 2*time.Millisecond)
		for name, o := range map[string]opCost{"CopyFrom": r.copyFrom, "RandomPlayoutMove": r.playoutMove} {
			if o.ns <= 0 || o.allocs > 0.01 {
				t.Errorf("%s %s: %+v", c.Name, name, o)
			}
		}
		if r.apply.allocs > 0.01 {
			t.Errorf("%s Apply allocates: %+v", c.Name, r.apply)
		}
		rows = append(rows, r)
	}
	if tab := opTable(rows); strings.Count(tab, "\n") != len(rows)+2 {
		t.Errorf("table:\n%s", tab)
	}
}

// TestSearchShort runs both searchers briefly on every game and checks
// they searched and the table has a row per game.
func TestSearchShort(t *testing.T) {
	var rows []searchRow
	for _, c := range cases() {
		r := measureSearch(c, 20*time.Millisecond)
		if r.abNodes <= 0 || r.playouts <= 0 || r.abCPU <= 0 || r.mctsCPU <= 0 {
			t.Errorf("%s: searched nothing: %+v", c.Name, r)
		}
		rows = append(rows, r)
	}
	if tab := searchTable(rows); strings.Count(tab, "\n") != len(rows)+2 {
		t.Errorf("table:\n%s", tab)
	}
}

// TestJSONRows: the -json rows carry every game's measured rates, none
// zero but the missing direct draw of hex cross-out.
func TestJSONRows(t *testing.T) {
	var rs []result
	for _, c := range cases() {
		rs = append(rs, compare(c, 1, 2*time.Millisecond))
	}
	rows := jsonRows(rs)
	if len(rows) != len(rs) {
		t.Fatalf("%d rows for %d results", len(rows), len(rs))
	}
	for i, row := range rows {
		if row.Engine <= 0 || row.EngineListing <= 0 || row.RefListing <= 0 || row.Plies < 1 {
			t.Errorf("row %+v lacks a measurement", row)
		}
		if (row.RefDraw > 0) != (rs[i].c.RefDraw != nil) {
			t.Errorf("row %+v: direct draw present %v, reference has one %v", row, row.RefDraw > 0, rs[i].c.RefDraw != nil)
		}
	}
}

// TestQuartiles: nearest-rank quartiles of an unsorted set.
func TestQuartiles(t *testing.T) {
	if got, want := quartiles([]float64{5, 1, 3, 2, 4}), (spread{2, 3, 4}); got != want {
		t.Errorf("quartiles = %+v, want %+v", got, want)
	}
	if got, want := quartiles([]float64{7}), (spread{7, 7, 7}); got != want {
		t.Errorf("quartiles of one = %+v, want %+v", got, want)
	}
}

// TestPairsShort runs the paired comparison briefly: every game gets a
// row, and its ratios are measured (positive, quartiles in order).
func TestPairsShort(t *testing.T) {
	var rows []pairRow
	for _, c := range cases() {
		r := comparePairs(c, 3, 2*time.Millisecond)
		for _, s := range []spread{r.random, r.listing} {
			if !(s.q1 > 0 && s.q1 <= s.median && s.median <= s.q3) {
				t.Errorf("%s: spread %+v", c.Name, s)
			}
		}
		rows = append(rows, r)
	}
	tab := pairTable(rows, 3, 2*time.Millisecond)
	for _, c := range cases() {
		if !strings.Contains(tab, "| "+c.Name) {
			t.Errorf("table lacks %s:\n%s", c.Name, tab)
		}
	}
}
