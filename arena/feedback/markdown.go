package feedback

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the page as Markdown for mail: the text, the
// results table, penalties and turning points, boards as text.
func (p *Page) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Feedback for %s\n\n", p.Entrant)
	if p.Made != "" {
		fmt.Fprintf(&b, "Written by %s.\n\n", p.Made)
	}
	for _, s := range p.Sections {
		s.markdown(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (s *Section) markdown(b *strings.Builder) {
	l := s.League
	fmt.Fprintf(b, "## League %s\n\n%s, profile %s, %s, %d of %d games played.", l.Name, l.Game, l.Profile, l.Format, s.Played, s.Scheduled)
	if len(s.Arena) > 0 {
		fmt.Fprintf(b, " Refereed by %s.", strings.Join(s.Arena, "; "))
	}
	r := s.Row
	fmt.Fprintf(b, "\n\n**Rank %d of %d**: %d games, %d won, %d drawn, %d lost, score %s, Elo %s %s (95%% interval).\n\n",
		r.Rank, s.Field, r.Games, r.W, r.D, r.L, fmtPoints(r.Score), fmtElo(r.Elo), fmtInterval(r.EloLo, r.EloHi))
	b.WriteString("| opponent | won | drawn | lost |\n|---|---|---|---|\n")
	for _, o := range s.Opponents {
		fmt.Fprintf(b, "| %s | %d | %d | %d |\n", cell(o.Name), o.W, o.D, o.L)
	}
	fmt.Fprintf(b, "\n### Lost games: where they were lost\n\nReference: %s. %d of %d lost game(s) analysed.\n\n", s.Method, s.Analysed, s.Lost)
	for _, t := range s.Turning {
		fmt.Fprintf(b, "- **%s** against %s: ", t.GameID, t.Opponent)
		if t.Point.Move > 0 {
			fmt.Fprintf(b, "move %d, you played %s", t.Point.Move, code(t.Point.Played))
			if t.Point.Better != "" {
				fmt.Fprintf(b, "; the search preferred %s", code(t.Point.Better))
			}
			fmt.Fprintf(b, ". Before: %s; after: %s. ", t.Before, t.After)
		}
		if t.Point.Note != "" {
			fmt.Fprintf(b, "%s. ", t.Point.Note)
		}
		fmt.Fprintf(b, "(%s)\n", t.Certainty)
		if t.Point.Move > 0 {
			fmt.Fprintf(b, "\n  Position before the move:\n\n%s\n", indentBlock(t.BoardText))
		}
	}
	b.WriteString("\n### Penalties\n\n")
	if len(s.Penalties) == 0 {
		b.WriteString("None: every move arrived in time and was legal.\n")
	}
	for _, pn := range s.Penalties {
		fmt.Fprintf(b, "- **%s → %s**, game %s, move %d. %s %s %s", pn.Kind, pn.Penalty, pn.GameID, pn.Move, pn.Rule, text(pn.Did), pn.Consequence)
		if pn.Reply != "" {
			fmt.Fprintf(b, " The reply it sent: %s.", code(pn.Reply))
		}
		fmt.Fprintf(b, "\n\n  Position it was asked to move in:\n\n%s\n", indentBlock(pn.BoardText))
	}
	b.WriteString("\n### Your agent's stderr\n\n")
	if len(s.Stderr) == 0 {
		b.WriteString("Nothing was written to stderr.\n")
	}
	for _, e := range s.Stderr {
		fmt.Fprintf(b, "%s:\n\n%s\n", e.GameID, indentBlock(e.Tail))
	}
	b.WriteString("\n### Games\n\n| game | result | opponent | seat | moves | penalties |\n|---|---|---|---|---|---|\n")
	for _, g := range s.Games {
		fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %d |\n", cell(g.ID), text(g.Outcome), cell(g.Opponent), g.Seat, g.Moves, g.Faults)
	}
	b.WriteString("\n")
}

// indentBlock makes text a Markdown code block inside a list item: no
// fence an agent's text could close.
func indentBlock(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "      " + l
	}
	return strings.Join(lines, "\n")
}

// text keeps record text (the referee's details, which can quote an
// agent's reply) from being read as HTML by a mail reader.
func text(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// code is s as a code span, which shows any text as it is; a backtick,
// which would end it, becomes a quote.
func code(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

// cell keeps a table cell on its row, as text.
func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(text(s))
}

// WriteIndexMarkdown writes index.md for pages written to files: one line
// per entrant and league.
func WriteIndexMarkdown(w io.Writer, pages []*Page, files map[string]string, made string) error {
	var b strings.Builder
	b.WriteString("# Feedback pages\n\n")
	if made != "" {
		fmt.Fprintf(&b, "Written by %s.\n\n", made)
	}
	b.WriteString("| entrant | league | rank | games | W | D | L | score | Elo | penalties |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range pages {
		for _, s := range p.Sections {
			r := s.Row
			fmt.Fprintf(&b, "| [%s](%s) | %s | %d | %d | %d | %d | %d | %s | %s %s | %d |\n", cell(p.Entrant), files[p.Entrant], cell(s.League.Name),
				r.Rank, r.Games, r.W, r.D, r.L, fmtPoints(r.Score), fmtElo(r.Elo), fmtInterval(r.EloLo, r.EloHi), len(s.Penalties))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
