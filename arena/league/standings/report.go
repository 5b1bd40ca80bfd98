package standings

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"arena/arena/league/leaguefile"
	"arena/arena/ratings"
)

func fmtElo(e float64) string {
	switch {
	case math.IsNaN(e):
		return "-"
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	case math.Abs(e) < 0.5:
		return "0"
	}
	return fmt.Sprintf("%+.0f", e)
}

// fmtInterval prints a 95% interval. One that has collapsed onto a
// point, or that is infinite at both ends, estimates nothing and says so;
// one infinite at one end is a one-sided bound.
func fmtInterval(lo, hi float64) string {
	switch {
	case math.IsNaN(lo) && math.IsNaN(hi):
		return naInterval
	case math.IsNaN(lo) || math.IsNaN(hi):
		return "-"
	case lo == hi, math.IsInf(lo, -1) && math.IsInf(hi, 1):
		return naInterval
	case math.IsInf(hi, 1):
		return "≥ " + fmtElo(lo)
	case math.IsInf(lo, -1):
		return "≤ " + fmtElo(hi)
	}
	return "[" + fmtElo(lo) + ", " + fmtElo(hi) + "]"
}

// naInterval stands for an interval the games cannot give.
const naInterval = "n/a (too few games)"

// Points prints points as whole numbers where they are (a draw's half
// shown as .5).
func Points(p float64) string {
	if p == math.Trunc(p) {
		return fmt.Sprintf("%.0f", p)
	}
	return fmt.Sprintf("%.1f", p)
}

// WriteText prints the standings: header, table, cross-table, pairs and
// the SPRT.
func (s *Standings) WriteText(w io.Writer) error {
	l := s.League
	fmt.Fprintf(w, "league %s: %s, profile %s", l.Name, l.Game, l.Profile)
	if len(l.Params) > 0 {
		var ps []string
		for _, k := range sortedKeys(l.Params) {
			ps = append(ps, k+"="+l.Params[k])
		}
		fmt.Fprintf(w, ", params %s", strings.Join(ps, ","))
	}
	fmt.Fprintf(w, ", %s, %d of %d games played\n", l.Format, s.Played, s.Scheduled)
	for _, o := range l.Overrides {
		fmt.Fprintf(w, "override %s\n", o)
	}
	if len(s.Arena) > 0 {
		fmt.Fprintf(w, "refereed by %s\n", strings.Join(s.Arena, "; "))
	}
	if s.Openings != "" {
		fmt.Fprintln(w, s.Openings)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tAGENT\tGAMES\tW\tD\tL\tSCORE\tELO\t95% CI\tTIMEOUTS\tILLEGAL\tCRASHES")
	for _, r := range s.Rows {
		ci := fmtInterval(r.EloLo, r.EloHi)
		if math.IsNaN(r.Elo) {
			ci = "-"
		}
		name := r.Agent
		if r.Skipped+r.SkippedAgainst > 0 {
			name += " *" // see the note under the table
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\n", r.Rank, name, r.Games, r.W, r.D, r.L,
			Points(r.Score), fmtElo(r.Elo), ci, r.Timeout, r.Illegal, r.Crash)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if s.FitNote != "" {
		fmt.Fprintf(w, "(%s)\n", s.FitNote)
	}
	if s.Skipped > 0 {
		// The course's dead-agent rule (turns skipped, the survivor moving
		// alone) decided these; say so and by whom.
		var who []string
		for _, r := range s.Rows {
			if r.Skipped > 0 {
				who = append(who, fmt.Sprintf("%s %d", r.Agent, r.Skipped))
			}
		}
		fmt.Fprintf(w, "* %d game(s) decided with a dead agent's turns skipped (the profile's dead-agent rule; `penalties: {dead: loss}` in the league file changes it): %s\n",
			s.Skipped, strings.Join(who, ", "))
	}
	for _, r := range s.Rows {
		if r.Contention > 0 {
			fmt.Fprintf(w, "%s: %d of its %d timeout(s) possibly contention (late while waiting for a CPU long enough to explain it); `arena league replay-late` replays those games\n",
				r.Agent, r.Contention, r.Timeout)
		}
	}
	if err := s.writeCross(w); err != nil {
		return err
	}
	if err := s.writePairs(w); err != nil {
		return err
	}
	if s.Stages != nil {
		if err := s.Stages.WriteText(w); err != nil {
			return err
		}
	}
	if s.SPRT != nil {
		fmt.Fprintf(w, "\n%s\n", s.SPRT)
	}
	return nil
}

// writeCross prints the cross-table of a league of more than two agents.
func (s *Standings) writeCross(w io.Writer) error {
	if len(s.Rows) > 2 {
		fmt.Fprintln(w, "\ncross-table (row's points / games against column):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		hdr := []string{""}
		for _, r := range s.Rows {
			hdr = append(hdr, r.Agent)
		}
		fmt.Fprintln(tw, strings.Join(hdr, "\t"))
		for i, r := range s.Rows {
			cells := []string{r.Agent}
			for j := range s.Rows {
				c := s.Cross[i][j]
				switch {
				case i == j:
					cells = append(cells, "-")
				case c.Games() == 0:
					cells = append(cells, ".")
				default:
					cells = append(cells, Points(c.Score())+"/"+fmt.Sprint(c.Games()))
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// writePairs prints the pentanomial summary of each pairing.
func (s *Standings) writePairs(w io.Writer) error {
	if len(s.Pairs) > 0 {
		fmt.Fprintln(w, "\ncolour-swapped pairs (first agent's pair score 0, ½, 1, 1½, 2; Elo from the pairs):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PAIRING\tPAIRS\t0\t½\t1\t1½\t2\tELO\t95% CI")
		for _, p := range s.Pairs {
			extra := ""
			if p.Unpaired > 0 {
				extra = fmt.Sprintf(" (+%d unpaired)", p.Unpaired)
			}
			ci := fmtInterval(p.EloLo, p.EloHi)
			if p.Note != "" && p.Note != "too few games" {
				ci += " (" + p.Note + ")"
			}
			if p.Penta.N() == 0 {
				ci = "-"
			}
			fmt.Fprintf(tw, "%s\t%d%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", p.Pairing, p.Penta.N(), extra,
				p.Penta[0], p.Penta[1], p.Penta[2], p.Penta[3], p.Penta[4], fmtElo(p.Elo), ci)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, "(pair ELO: the first agent over the second from these pairs alone. The table's ELO is one fit over all games, centred on 0 and pulled toward it by a prior of two draws per agent, so its gaps are smaller, most with few games.)")
	}
	return nil
}

// String is the SPRT's one-line summary.
func (t *SPRTStatus) String() string {
	verdict := "continuing"
	switch t.Decision {
	case ratings.AcceptH1:
		verdict = fmt.Sprintf("H1 accepted: %s is stronger than %s by about %g Elo or more", t.A, t.B, t.Elo1)
	case ratings.AcceptH0:
		verdict = fmt.Sprintf("H0 accepted: %s is not stronger than %s by %g Elo", t.A, t.B, t.Elo1)
	}
	unit := fmt.Sprintf("%d pairs", t.Pairs)
	if t.Model == leaguefile.Trinomial {
		unit = fmt.Sprintf("%d games", t.Games)
	}
	return fmt.Sprintf("SPRT %s vs %s (%s, elo0=%g elo1=%g alpha=%g beta=%g): LLR %.2f, bounds [%.2f, %.2f] after %s: %s",
		t.A, t.B, t.Model, t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR, t.Lower, t.Upper, unit, verdict)
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
