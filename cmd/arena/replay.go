package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"arena/arena/record"
	"arena/engine"
)

func newReplayCmd(e *env) *cobra.Command {
	var id string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "replay FILE.jsonl",
		Short: "Replay recorded games with the engine and check their final boards",
		Long: `Read game records (one JSON object per line, docs/records.md: what
arena league export --format jsonl and arena play --records write), re-apply
each game's moves with the game's engine from its start position, check that
the position reached is the recorded final board, and print the game move by
move. A record that does not replay is reported and the command fails.`,
		Example: `  arena replay arena-results/demo/records.jsonl --game 'demo/bohnenspiel/greedy-vs-random/g000-ab-s123'
  arena replay games.jsonl --quiet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(e, cmd.OutOrStdout(), args[0], id, quiet)
		},
	}
	cmd.Flags().StringVar(&id, "game", "", "replay only the game with this id")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "only check; print one line per game")
	return cmd
}

func runReplay(e *env, out io.Writer, file, id string, quiet bool) error {
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
		if id != "" && rec.ID != id {
			continue
		}
		found = true
		n++
		if err := replayOne(e, out, rec, quiet); err != nil {
			bad++
			fmt.Fprintf(out, "game %s: DOES NOT REPLAY: %v\n", rec.ID, err)
		}
		if !quiet {
			fmt.Fprintln(out)
		}
	}
	if id != "" && !found {
		return fmt.Errorf("%s: no game with id %q", file, id)
	}
	if bad > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d of %d game(s) in %s do not replay", bad, n, file)}
	}
	fmt.Fprintf(out, "%d game(s) replayed; every final board matches\n", n)
	return nil
}

// replayOne re-applies one record's moves and compares the boards.
func replayOne(e *env, out io.Writer, rec *record.Game, quiet bool) error {
	g, err := e.registry.Lookup(rec.Game)
	if err != nil {
		return err
	}
	st, err := g.NewState(engine.Params(rec.Params))
	if err != nil {
		return err
	}
	if rec.Start != "" && st.Text() != rec.Start {
		return fmt.Errorf("start board differs:\n record: %s\n engine: %s", rec.Start, st.Text())
	}
	if !quiet {
		fmt.Fprintf(out, "game %s: %s, profile %s", rec.ID, rec.Game, rec.Profile)
		if len(rec.Params) > 0 {
			fmt.Fprintf(out, ", params %s", engine.Params(rec.Params))
		}
		fmt.Fprintf(out, ", seed %d\n", rec.Seed)
		for _, o := range rec.Overrides {
			fmt.Fprintf(out, "override %s\n", o)
		}
		fmt.Fprintf(out, "seat 0: %s (%s)\nseat 1: %s (%s)\n", rec.Agents[0].Name, rec.Agents[0].Ref, rec.Agents[1].Name, rec.Agents[1].Ref)
		fmt.Fprintf(out, "start:\n%s\n", indent(drawBoard(rec.Game, st.Text())))
	}
	events := map[int][]record.Event{}
	for _, ev := range rec.Events {
		events[ev.Ply] = append(events[ev.Ply], ev)
	}
	shown := map[int]bool{}
	showEvents := func(ply int) {
		if quiet || shown[ply] {
			return
		}
		shown[ply] = true
		for _, ev := range events[ply] {
			fmt.Fprintf(out, "      ! seat %d %s -> %s: %s\n", ev.Seat, ev.Kind, orDash(ev.Penalty), ev.Detail)
		}
	}
	for i, m := range rec.Moves {
		showEvents(st.Ply())
		if m.Text == "" {
			p, ok := st.(engine.Passer)
			if !ok {
				return fmt.Errorf("move %d: a skipped turn in a game without skips", i)
			}
			p.Pass()
			if !quiet {
				fmt.Fprintf(out, "%4d. %-10s (skipped turn)\n", i+1, rec.Agents[m.Seat].Name)
			}
			continue
		}
		if st.Terminal() {
			return fmt.Errorf("move %d %q: the game is already over", i, m.Text)
		}
		if st.ToMove() != m.Seat {
			return fmt.Errorf("move %d %q: recorded for seat %d, but seat %d is to move", i, m.Text, m.Seat, st.ToMove())
		}
		mv, err := st.ParseMove(m.Text)
		if err != nil {
			return fmt.Errorf("move %d: %w", i, err)
		}
		st.Apply(mv)
		if !quiet {
			how := fmt.Sprintf("%.1f ms", m.WallMS)
			if m.Source != record.SourceAgent {
				how = "played by the referee: " + m.Source
			}
			fmt.Fprintf(out, "%4d. %-10s %-12s (%s)\n", i+1, rec.Agents[m.Seat].Name, m.Text, how)
		}
	}
	showEvents(st.Ply())
	for _, ply := range slices.Sorted(maps.Keys(events)) {
		showEvents(ply)
	}
	if st.Text() != rec.Final {
		return fmt.Errorf("final board differs:\n record: %s\n engine: %s", rec.Final, st.Text())
	}
	// A game that ended normally must end where the rules say it does.
	if rec.Result.Forfeit == "" && !strings.HasPrefix(rec.Result.Reason, "NO RESULT") {
		if !st.Terminal() {
			return errors.New("the record ends normally, but the replayed position is not over")
		}
		res := st.Result()
		if res.Draw != rec.Result.Draw || (!res.Draw && res.Winner != rec.Result.Winner) {
			return fmt.Errorf("result differs: record says %s, the rules say winner %d (draw %v)", rec.Summary(), res.Winner, res.Draw)
		}
	}
	if quiet {
		fmt.Fprintf(out, "game %s: ok, %d moves, %s\n", rec.ID, len(rec.Moves), rec.Summary())
		return nil
	}
	fmt.Fprintf(out, "final (matches the record):\n%s\n", indent(drawBoard(rec.Game, st.Text())))
	fmt.Fprintf(out, "result: %s\n", rec.Summary())
	return nil
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
