package main

import (
	"fmt"
	"slices"
	"time"
)

// spread is the quartiles of a set of ratios.
type spread struct{ q1, median, q3 float64 }

// quartiles of vs (at least one value), by the nearest rank.
func quartiles(vs []float64) spread {
	s := slices.Sorted(slices.Values(vs))
	at := func(q float64) float64 { return s[int(q*float64(len(s)-1)+0.5)] }
	return spread{at(0.25), at(0.5), at(0.75)}
}

// pairRatios times a against b in n pairs of d CPU time each, in turns
// (a first in even pairs, b first in odd ones, so a drift of the
// machine's speed during a pair favours neither), and returns a's rate
// over b's for every pair. On a loaded machine the neighbours slow both
// halves of a short pair alike, which the best of long rounds cannot
// promise.
func pairRatios(a, b runner, n int, d time.Duration) []float64 {
	out := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		var ma, mb measurement
		if i%2 == 0 {
			ma = measure(a, d)
			mb = measure(b, d)
		} else {
			mb = measure(b, d)
			ma = measure(a, d)
		}
		out = append(out, ma.rate()/mb.rate())
	}
	return out
}

// pairRow is one game's paired comparison on both paths.
type pairRow struct {
	c               gameCase
	random, listing spread
}

// comparePairs measures c's random path against the reference's faster
// loop (its direct draw where it has one) and its listing path against
// the reference's listing loop, n pairs each.
func comparePairs(c gameCase, n int, d time.Duration) pairRow {
	ref := referenceDraw(c, 1)
	if ref == nil || measure(referencePlain(c, 1), d).rate() > measure(ref, d).rate() {
		ref = referencePlain(c, 1)
	}
	return pairRow{
		c:       c,
		random:  quartiles(pairRatios(engineFast(c, 1), ref, n, d)),
		listing: quartiles(pairRatios(engineListing(c, 1), referencePlain(c, 1), n, d)),
	}
}

// pairTable renders paired comparisons as Markdown.
func pairTable(rows []pairRow, n int, d time.Duration) string {
	s := fmt.Sprintf("| game | engine ÷ faster reference, median of %d pairs of %v (quartiles) | engine listing ÷ reference listing, median (quartiles) |\n", n, d)
	s += "|---|---:|---:|\n"
	for _, r := range rows {
		name := r.c.label()
		s += fmt.Sprintf("| %s | %.2f× (%.2f–%.2f) | %.2f× (%.2f–%.2f) |\n", name,
			r.random.median, r.random.q1, r.random.q3, r.listing.median, r.listing.q1, r.listing.q3)
	}
	return s
}
