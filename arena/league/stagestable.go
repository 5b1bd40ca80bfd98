package league

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"arena/arena/league/format"
	"arena/arena/results"
)

// StageTables are a format's own tables: the Swiss table with its rounds
// (of the league, or of its qualifier) and the knockout bracket.
type StageTables struct {
	Swiss   *format.SwissTable
	Bracket *format.Bracket
}

// stageTables replays a stored swiss or knockout league's format over its
// games; other formats have no tables of their own (nil).
func stageTables(sl results.League, games []results.Game) (*StageTables, error) {
	if sl.Format != Swiss && sl.Format != Knockout {
		return nil, nil
	}
	l, err := storedLeague(sl)
	if err != nil {
		return nil, err
	}
	pts := make(map[string]float64, len(games))
	for _, g := range games {
		pts[g.Match.ID] = g.Record.Outcome(0)
	}
	res, _, err := l.Walk(pts)
	if err != nil {
		return nil, err
	}
	t := &StageTables{}
	swiss := func(s *format.Swiss) {
		tbl := s.Table(res)
		t.Swiss = &tbl
	}
	bracket := func(k *format.Knockout) {
		b := k.Bracket(res)
		t.Bracket = &b
	}
	switch f := l.Tournament.(type) {
	case *format.Swiss:
		swiss(f)
	case *format.Knockout:
		bracket(f)
	case *format.Staged:
		if s, ok := f.Qualifier.(*format.Swiss); ok {
			swiss(s)
		}
		if k := f.Knockout(res); k != nil {
			bracket(k)
		}
	}
	return t, nil
}

// writeText prints the Swiss table and the bracket.
func (t *StageTables) writeText(w io.Writer) error {
	if t.Swiss != nil {
		if err := writeSwiss(w, t.Swiss); err != nil {
			return err
		}
	}
	if t.Bracket != nil {
		writeBracket(w, t.Bracket)
	}
	return nil
}

func writeSwiss(w io.Writer, t *format.SwissTable) error {
	fmt.Fprintf(w, "\nswiss, %d of %d rounds complete (points, Buchholz, Sonneborn-Berger; each round: opponent and points, * moved first):\n", t.Played, t.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hdr := "RANK\tAGENT\tSTART\tPOINTS\tBUCHHOLZ\tSB"
	for r := range t.Played {
		hdr += fmt.Sprintf("\tR%d", r+1)
	}
	fmt.Fprintln(tw, hdr)
	for _, r := range t.Rows {
		line := fmt.Sprintf("%d\t%s\t%d\t%s\t%s\t%s", r.Rank, r.Entrant, r.Start, fmtPoints(r.Points), fmtPoints(r.Buchholz), fmtPoints(r.SonnebornBerger))
		for _, rd := range r.Rounds {
			switch {
			case rd.Opponent == "":
				line += "\tbye " + fmtPoints(rd.Points)
			case rd.Led:
				line += fmt.Sprintf("\t%s* %s", rd.Opponent, fmtPoints(rd.Points))
			default:
				line += fmt.Sprintf("\t%s %s", rd.Opponent, fmtPoints(rd.Points))
			}
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

func writeBracket(w io.Writer, b *format.Bracket) {
	fmt.Fprintln(w, "\nknockout (higher seed first):")
	for r, ms := range b.Rounds {
		var parts []string
		for _, m := range ms {
			switch {
			case m.By == "bye":
				parts = append(parts, m.A+" bye")
			case m.Winner == "":
				parts = append(parts, fmt.Sprintf("%s %s-%s %s (playing)", m.A, fmtPoints(m.PointsA), fmtPoints(m.PointsB), m.B))
			default:
				parts = append(parts, fmt.Sprintf("%s %s-%s %s: %s (%s)", m.A, fmtPoints(m.PointsA), fmtPoints(m.PointsB), m.B, m.Winner, m.By))
			}
		}
		fmt.Fprintf(w, "  round %d: %s\n", r+1, strings.Join(parts, "; "))
	}
	if n := len(b.Rounds); n > 0 && len(b.Rounds[n-1]) == 1 && b.Rounds[n-1][0].Winner != "" {
		fmt.Fprintf(w, "  winner: %s\n", b.Rounds[n-1][0].Winner)
	}
}
