package format

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// pointsText prints points as 2, 1.5 or 15.25: tie-breaks are sums of
// products of halves, and a rounded one could hide a tie or invent one.
func pointsText(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// WriteText prints the table with a round per column.
func (t *SwissTable) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "\nswiss, %d of %d rounds complete (points, Buchholz, Sonneborn-Berger; each round: opponent and points, * moved first):\n", t.Played, t.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hdr := "RANK\tAGENT\tSTART\tPOINTS\tBUCHHOLZ\tSB"
	for r := range t.Played {
		hdr += fmt.Sprintf("\tR%d", r+1)
	}
	fmt.Fprintln(tw, hdr)
	for _, r := range t.Rows {
		line := fmt.Sprintf("%d\t%s\t%d\t%s\t%s\t%s", r.Rank, r.Entrant, r.Start, pointsText(r.Points), pointsText(r.Buchholz), pointsText(r.SonnebornBerger))
		for _, rd := range r.Rounds {
			switch {
			case rd.Opponent == "":
				line += "\tbye " + pointsText(rd.Points)
			case rd.Led:
				line += fmt.Sprintf("\t%s* %s", rd.Opponent, pointsText(rd.Points))
			default:
				line += fmt.Sprintf("\t%s %s", rd.Opponent, pointsText(rd.Points))
			}
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

// WriteText prints the bracket a round per line.
func (b *Bracket) WriteText(w io.Writer) {
	fmt.Fprintln(w, "\nknockout (higher seed first):")
	for r, ms := range b.Rounds {
		var parts []string
		for _, m := range ms {
			switch {
			case m.By == "bye":
				parts = append(parts, m.A+" bye")
			case m.Winner == "":
				parts = append(parts, fmt.Sprintf("%s %s-%s %s (playing)", m.A, pointsText(m.PointsA), pointsText(m.PointsB), m.B))
			default:
				parts = append(parts, fmt.Sprintf("%s %s-%s %s: %s (%s)", m.A, pointsText(m.PointsA), pointsText(m.PointsB), m.B, m.Winner, m.By))
			}
		}
		fmt.Fprintf(w, "  round %d: %s\n", r+1, strings.Join(parts, "; "))
	}
	if n := len(b.Rounds); n > 0 && len(b.Rounds[n-1]) == 1 && b.Rounds[n-1][0].Winner != "" {
		fmt.Fprintf(w, "  winner: %s\n", b.Rounds[n-1][0].Winner)
	}
}
