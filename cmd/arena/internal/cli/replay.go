package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"arena/arena/gameview"
	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/engine"
)

type replayOpts struct {
	id      string
	quiet   bool
	step    bool
	from    int
	results []string
}

func newReplayCmd(e *Env) *cobra.Command {
	var o replayOpts
	cmd := &cobra.Command{
		Use:   "replay GAME_ID|FILE",
		Short: "Replay recorded games with the engine, drawing the board after every move",
		Long: `Replay stored games move by move: the board after every move in the game's
own picture, the move, the time it used against the profile's limit (or the
CPU budget used so far), and every penalty the referee gave, then the result
in the game's own terms.

The argument is either a file of game records (one JSON object per line,
docs/records.md: what arena league export --format jsonl and arena play
--records write), or the id of a game in a league's results store, looked
up in the stores under --results (read-only). Each game's moves are
re-applied with the game's engine from its start position; a record whose
boards or result the rules do not reach is reported and the command fails.`,
		Example: `  arena replay 'demo/bohnenspiel/greedy-vs-random/g000-ab-s123'
  arena replay games.jsonl --game 'demo/cachex/greedy-vs-random/g001-ba-s77' --step
  arena replay games.jsonl --from 30
  arena replay games.jsonl --quiet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.from < 0 {
				return fmt.Errorf("--from %d: want a ply of 0 or more", o.from)
			}
			var st stepper
			if o.step && !o.quiet {
				st = newStepper(cmd.InOrStdin(), cmd.ErrOrStderr())
				defer st.close()
			}
			return runReplay(cmd.Context(), e, cmd.OutOrStdout(), args[0], o, st)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.id, "game", "", "with a records file: replay only the game with this id (a record's \"id\"; --quiet lists them)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "only check; print one line per game")
	f.BoolVar(&o.step, "step", false, "wait for a key after each board (q quits)")
	f.IntVar(&o.from, "from", 0, "draw boards from the position after this many moves on (earlier moves are listed)")
	f.StringArrayVar(&o.results, "results", []string{"arena-results"}, "league directories (or parents of them) to look a GAME_ID up in")
	return cmd
}

func runReplay(ctx context.Context, e *Env, out io.Writer, arg string, o replayOpts, st stepper) error {
	// A path or a game id is never longer than the kernel's PATH_MAX: a
	// longer argument is refused at once, quoting a bounded part of it,
	// before any file or store is searched for it.
	if len(arg) > maxReplayArg {
		return fmt.Errorf("replay %q... (%d bytes): a game id or records file name is at most %d bytes", arg[:32], len(arg), maxReplayArg)
	}
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() && filepath.Base(arg) != resultsdb.FileName {
		return replayFile(e, out, arg, o, st)
	}
	if o.id != "" {
		return fmt.Errorf("replay %s: --game goes with a records file; give the game id as the argument", arg)
	}
	rec, where, err := findStored(ctx, arg, o.results)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "from %s\n", where)
	if err := replayOne(e, out, rec, o, st); err != nil {
		if errors.Is(err, errQuit) {
			return nil
		}
		fmt.Fprintf(out, "game %s: DOES NOT REPLAY: %v\n", rec.ID, err)
		return &exitError{code: ExitVerdict, msg: fmt.Sprintf("game %s does not replay", rec.ID)}
	}
	fmt.Fprintln(out, "1 game(s) replayed; every final board matches")
	return nil
}

// maxReplayArg bounds replay's argument (PATH_MAX).
const maxReplayArg = 4096

// findStored looks a game id up in the results stores under roots.
func findStored(ctx context.Context, id string, roots []string) (*record.Game, string, error) {
	var stores []string
	for _, root := range roots {
		for _, d := range resultsdb.FindDirs(root) {
			stores = append(stores, filepath.Join(d, resultsdb.FileName))
		}
	}
	if len(stores) == 0 {
		return nil, "", fmt.Errorf("replay %s: not a file, and no results store (%s) under %s: name the league's directory with --results DIR (arena-results/NAME beside the league file), or give a records file", id, resultsdb.FileName, strings.Join(roots, ", "))
	}
	for _, p := range stores {
		s, err := resultsdb.OpenReadOnly(ctx, p)
		if err != nil {
			return nil, "", err
		}
		rec, _, err := s.Record(ctx, id)
		s.Close()
		if err == nil {
			return rec, p, nil
		}
		if !errors.Is(err, results.ErrNotFound) {
			return nil, "", err
		}
	}
	return nil, "", fmt.Errorf("replay %s: no such file, and no game with that id in %s (another league's directory goes in --results DIR; arena league export DIR --table games lists the ids)", id, strings.Join(stores, ", "))
}

func replayFile(e *Env, out io.Writer, file string, o replayOpts, st stepper) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rd := record.NewReader(f)
	n, bad, found := 0, 0, false
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if o.id != "" && rec.ID != o.id {
			continue
		}
		found = true
		n++
		if err := replayOne(e, out, rec, o, st); errors.Is(err, errQuit) {
			return nil
		} else if err != nil {
			bad++
			fmt.Fprintf(out, "game %s: DOES NOT REPLAY: %v\n", rec.ID, err)
		}
		if !o.quiet {
			fmt.Fprintln(out)
		}
	}
	if o.id != "" && !found {
		return fmt.Errorf("%s: no game with id %q: the ids are the records' \"id\" (arena replay %s --quiet lists them, one line per game; the penalty lines of play and league run name them too)", file, o.id, file)
	}
	if bad > 0 {
		return &exitError{code: ExitVerdict, msg: fmt.Sprintf("%d of %d game(s) in %s do not replay", bad, n, file)}
	}
	fmt.Fprintf(out, "%d game(s) replayed; every final board matches\n", n)
	return nil
}

// replayOne replays one record and, unless quiet, shows it move by move.
func replayOne(e *Env, out io.Writer, rec *record.Game, o replayOpts, st stepper) error {
	v, err := gameview.Build(e.Registry, rec)
	if err != nil {
		return err
	}
	if o.quiet {
		fmt.Fprintf(out, "game %s: ok, %d moves, %s\n", rec.ID, len(rec.Moves), v.Result)
		return nil
	}
	fmt.Fprintf(out, "game %s: %s, profile %s", rec.ID, rec.Game, rec.Profile)
	if len(rec.Params) > 0 {
		fmt.Fprintf(out, ", params %s", engine.Params(rec.Params))
	}
	fmt.Fprintf(out, ", seed %d\n", rec.Seed)
	for _, ov := range rec.Overrides {
		fmt.Fprintf(out, "override %s\n", ov)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	fmt.Fprintf(out, "seat 0: %s (%s)\nseat 1: %s (%s)\n", rec.Agents[0].Name, rec.Agents[0].Ref, rec.Agents[1].Name, rec.Agents[1].Ref)
	fmt.Fprintf(out, "time: %s\n", timeRule(&v.Profile))
	for i := range v.Frames {
		f := &v.Frames[i]
		if f.Index == 0 {
			if o.from == 0 {
				fmt.Fprintf(out, "start:\n%s\n\n", indent(f.Text))
			}
			continue
		}
		// The board first, then under it the move that led to it, its
		// time against the limit and the referee's penalties.
		if f.Index >= o.from && !f.Ending {
			fmt.Fprintf(out, "%s\n", indent(f.Text))
		}
		if f.Ending {
			fmt.Fprintf(out, "%4d. %-10s (no move: the game ends on a penalty)\n", f.Index, rec.Agents[f.Seat].Name)
		} else {
			fmt.Fprintf(out, "%4d. %s\n", f.Index, moveLine(rec, f))
		}
		for _, ev := range f.Events {
			fmt.Fprintf(out, "      ! seat %d %s -> %s: %s\n", ev.Seat, ev.Kind, orDash(ev.Penalty), ev.Detail)
		}
		if f.Index >= o.from {
			fmt.Fprintln(out)
		}
		if f.Index >= o.from && st != nil && i+1 < len(v.Frames) {
			if err := st.wait(); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(out, "final (matches the record): %d move(s)\n", len(rec.Moves))
	fmt.Fprintf(out, "result: %s\n", v.Result)
	return nil
}

// moveLine is a move's line: who, what, and its time against the limit
// (or who played it when the referee did).
func moveLine(rec *record.Game, f *gameview.Frame) string {
	m := f.Move
	text := m.Text
	how := f.FormatTime()
	switch m.Source {
	case record.SourceSkip:
		text, how = "(skipped turn)", "skipped by the referee"
	case record.SourceAgent:
	default:
		how = "played by the referee: " + m.Source
	}
	if how != "" {
		how = "  " + how
	}
	return fmt.Sprintf("%-10s %-14s%s", rec.Agents[m.Seat].Name, text, how)
}

// timeRule describes how the profile times moves.
func timeRule(p *engine.Profile) string {
	if p.Time == engine.CPUBudget {
		return fmt.Sprintf("a CPU budget of %v per player per game", p.Budget)
	}
	s := fmt.Sprintf("%v a move", p.MoveLimit)
	if p.FirstMoveLimit != p.MoveLimit {
		s += fmt.Sprintf(", %v for each side's first", p.FirstMoveLimit)
	}
	if p.Cushion > 0 {
		s += fmt.Sprintf(", %v cushion", p.Cushion)
	}
	return s
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// errQuit stops a stepped replay at the viewer's request.
var errQuit = errors.New("quit")

// stepper waits between boards of a --step replay.
type stepper interface {
	wait() error
	close()
}

// newStepper reads single keys from a terminal (raw mode, so no Enter is
// needed) and lines from anything else; at the end of the input it stops
// waiting.
func newStepper(in io.Reader, prompt io.Writer) stepper {
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &keyStepper{f: f, prompt: prompt}
	}
	return &lineStepper{r: bufio.NewReader(in), prompt: prompt}
}

type keyStepper struct {
	f      *os.File
	prompt io.Writer
}

func (k *keyStepper) wait() error {
	fmt.Fprint(k.prompt, "-- any key: next move, q: quit --")
	old, err := term.MakeRaw(int(k.f.Fd()))
	if err != nil {
		return fmt.Errorf("--step: %w", err)
	}
	var b [1]byte
	_, rerr := k.f.Read(b[:])
	_ = term.Restore(int(k.f.Fd()), old)
	fmt.Fprint(k.prompt, "\r\033[K")
	if rerr != nil || b[0] == 'q' || b[0] == 3 || b[0] == 4 { // q, Ctrl-C, Ctrl-D
		return errQuit
	}
	return nil
}

func (k *keyStepper) close() {}

type lineStepper struct {
	r      *bufio.Reader
	prompt io.Writer
	eof    bool
}

func (l *lineStepper) wait() error {
	if l.eof {
		return nil
	}
	fmt.Fprint(l.prompt, "-- Enter: next move, q Enter: quit --\n")
	line, err := l.r.ReadString('\n')
	if strings.TrimSpace(line) == "q" {
		return errQuit
	}
	if err != nil {
		l.eof = true
	}
	return nil
}

func (l *lineStepper) close() {}
