package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"arena/agents/housebots"
	"arena/arena/atomicfile"
	"arena/arena/buildinfo"
	"arena/arena/feedback"
	"arena/arena/results"
	"arena/arena/turning"
)

// feedbackFlags are the flags of league report.
type feedbackFlags struct {
	entrant, all, output, format, only string
	maxGames                           int
	nodes                              int64
	depth                              int
}

func newLeagueReportCmd(e *Env) *cobra.Command {
	var f feedbackFlags
	cmd := &cobra.Command{
		Use:   "report LEAGUE.yaml|DIR (--entrant NAME [-o FILE] | --all DIR)",
		Short: "Write feedback pages for entrants: results, penalties explained, games, and where each lost game was lost",
		Long: `Write one feedback page per entrant from a league's results store: the
entrant's results and Elo with its 95% interval, every penalty explained in
words with the board it was asked to move in and the reply it sent, the tail
of its stderr, each of its games viewable offline (stepping and autoplay),
and for every lost game the turning point: the first of its moves after
which a reference search says its position went from not lost to lost, with
the better move the search found. The reference is the house strong bot's
exact solver where the game has one (hex cross-out), else its alpha-beta
search; it is bounded by nodes and depth, never the clock, so the same
store gives the same pages on any machine. Each page says which was used
and how sure it is.

HTML pages are single files with everything inline: they open from a disk
or a mail attachment without a network. --format md writes Markdown for
mail instead (text boards, no games).

--entrant NAME writes one page (to -o FILE, or standard output); --all DIR
writes DIR/NAME.html (or .md) for every entrant and DIR/index.html (or
index.md) listing them. Analysing takes time (about --nodes per position,
two positions per move of the entrant in each lost game); progress goes to
standard error, and --max-games bounds the lost games analysed per entrant.`,
		Example: `  arena league report configs/course.yaml --entrant ann -o ann.html
  arena league report arena-results/course --all feedback/
  arena league report configs/course.yaml --all feedback/ --format md --max-games 5`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (f.entrant == "") == (f.all == "") {
				return usageErrorf(cmd, "give either --entrant NAME or --all DIR")
			}
			if f.format != "html" && f.format != "md" {
				return usageErrorf(cmd, "--format %q: want html or md", f.format)
			}
			if f.all != "" && f.output != "" {
				return usageErrorf(cmd, "-o goes with --entrant; --all writes into its directory")
			}
			if f.maxGames < -1 || f.nodes < 1 || f.depth < 1 {
				return usageErrorf(cmd, "--max-games wants -1 or more, --nodes and --depth 1 or more")
			}
			st, names, err := e.openResults(cmd, args[0], f.only)
			if err != nil {
				return err
			}
			defer st.Close()
			opt := feedback.Options{
				Registry: e.Registry, Bounds: housebots.Bounds{Nodes: f.nodes, Depth: f.depth}, MaxAnalysed: f.maxGames,
				Made: buildinfo.Current().Stamp(), Progress: analysisProgress(cmd.ErrOrStderr()),
			}
			if f.entrant != "" {
				return writeOneFeedback(cmd.Context(), cmd, st, names, f, opt)
			}
			return writeAllFeedback(cmd.Context(), cmd.ErrOrStderr(), st, names, f, opt)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.entrant, "entrant", "", "the entrant (agent name) to write a page for")
	fl.StringVar(&f.all, "all", "", "write a page for every entrant, and an index, into this directory")
	fl.StringVarP(&f.output, "output", "o", "", "with --entrant: write to this file instead of standard output")
	fl.StringVar(&f.format, "format", "html", "html (one self-contained file) or md (Markdown for mail)")
	fl.StringVar(&f.only, "league", "", "only this league of a multi-game file")
	fl.IntVar(&f.maxGames, "max-games", 20, "most lost games analysed per entrant and league, in schedule order (0: all, -1: none)")
	fl.Int64Var(&f.nodes, "nodes", turning.DefaultBounds.Nodes, "the reference search's bound per position, in nodes (solver nodes for an exact solver)")
	fl.IntVar(&f.depth, "depth", turning.DefaultBounds.Depth, "the reference search's bound per position, in plies of iterative deepening")
	return cmd
}

// analysisProgress tells each lost game as its analysis starts.
func analysisProgress(w io.Writer) func(done, total int, id string) {
	return func(done, total int, id string) {
		if id == "" {
			fmt.Fprintf(w, "  analysed %d lost game(s)\n", total)
			return
		}
		fmt.Fprintf(w, "  analysing lost game %d of %d: %s\n", done+1, total, id)
	}
}

func writeOneFeedback(ctx context.Context, cmd *cobra.Command, st results.Store, names []string, f feedbackFlags, opt feedback.Options) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "feedback for %s\n", f.entrant)
	p, err := feedback.Build(ctx, st, names, f.entrant, opt)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		if f.format == "md" {
			return p.WriteMarkdown(w)
		}
		return p.WriteHTML(w)
	}
	if f.output == "" || f.output == "-" {
		return write(cmd.OutOrStdout())
	}
	if err := atomicfile.Write(f.output, write); err != nil {
		return fmt.Errorf("feedback for %s to %s: %w", f.entrant, f.output, err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", f.output)
	return nil
}

func writeAllFeedback(ctx context.Context, log io.Writer, st results.Store, names []string, f feedbackFlags, opt feedback.Options) error {
	var entrants []string
	for _, n := range names {
		_, agents, err := st.League(ctx, n)
		if err != nil {
			return fmt.Errorf("league %s: %w", n, err)
		}
		for _, a := range agents {
			if !slices.Contains(entrants, a.Name) {
				entrants = append(entrants, a.Name)
			}
		}
	}
	if err := os.MkdirAll(f.all, 0o755); err != nil {
		return fmt.Errorf("feedback directory: %w", err)
	}
	files := feedbackFiles(entrants, "."+f.format)
	var pages []*feedback.Page
	for i, name := range entrants {
		fmt.Fprintf(log, "feedback for %s (%d of %d)\n", name, i+1, len(entrants))
		p, err := feedback.Build(ctx, st, names, name, opt)
		if err != nil {
			return err
		}
		write := p.WriteHTML
		if f.format == "md" {
			write = p.WriteMarkdown
		}
		if err := atomicfile.Write(filepath.Join(f.all, files[name]), write); err != nil {
			return fmt.Errorf("feedback for %s: %w", name, err)
		}
		pages = append(pages, p)
	}
	index := filepath.Join(f.all, "index."+f.format)
	err := atomicfile.Write(index, func(w io.Writer) error {
		if f.format == "md" {
			return feedback.WriteIndexMarkdown(w, pages, files, opt.Made)
		}
		return feedback.WriteIndex(w, pages, files, "arena", opt.Made)
	})
	if err != nil {
		return fmt.Errorf("feedback index: %w", err)
	}
	fmt.Fprintf(log, "wrote %d page(s) and %s\n", len(pages), index)
	return nil
}

// feedbackFiles names each entrant's file: its name with characters a
// link or a file system would read otherwise ('#', '+') replaced, and a
// number added where two names would meet.
func feedbackFiles(entrants []string, ext string) map[string]string {
	out := map[string]string{}
	used := map[string]bool{}
	for _, name := range entrants {
		b := []byte(name)
		for i, c := range b {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				b[i] = '_'
			}
		}
		base := string(b)
		if base == "index" || base == "" {
			base = "entrant-" + base
		}
		file := base + ext
		for k := 2; used[file]; k++ {
			file = fmt.Sprintf("%s-%d%s", base, k, ext)
		}
		used[file] = true
		out[name] = file
	}
	return out
}
