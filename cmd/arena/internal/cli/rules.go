package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"arena/engine/vector"
)

func newRulesCmd(e *Env) *cobra.Command {
	rules := &cobra.Command{
		Use:   "rules",
		Short: "Check the game rules against recorded course games",
	}
	var maxShown int
	verify := &cobra.Command{
		Use:   "verify FILE.jsonl...",
		Short: "Replay recorded games and report every mismatch",
		Long: `Replay every game of one or more vector files (the JSON-lines schema of the
rules documents: game, params, moves, plies, result) on the arena's rules,
and compare each ply's side to move, legal-move count, board text, scores and
game-specific fields, and the result. Prints the mismatches of each failing
game and a closing line "N passed, M failed"; exits 2 if any game failed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			out := cmd.OutOrStdout()
			passed, failed := 0, 0
			for _, f := range files {
				outs, err := vector.VerifyFile(f, e.Registry.Lookup)
				if err != nil {
					return fmt.Errorf("verify %s: %w", f, err)
				}
				for _, o := range outs {
					if o.OK() {
						passed++
						continue
					}
					failed++
					label := ""
					if o.Record != nil {
						label = fmt.Sprintf(" (%s, %s)", o.Record.Game, o.Record.Label())
					}
					fmt.Fprintf(out, "FAIL %s:%d%s\n", f, o.Line, label)
					if o.Err != nil {
						fmt.Fprintf(out, "  %v\n", o.Err)
					}
					for i, m := range o.Mismatches {
						if i == maxShown {
							fmt.Fprintf(out, "  ... %d more\n", len(o.Mismatches)-maxShown)
							break
						}
						fmt.Fprintf(out, "  %s\n", m)
					}
				}
			}
			fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
			if failed > 0 {
				return &exitError{code: ExitVerdict, msg: fmt.Sprintf("%d recorded games did not replay", failed)}
			}
			return nil
		},
	}
	verify.Flags().IntVar(&maxShown, "max-mismatches", 10, "mismatches shown per failing game")
	rules.AddCommand(verify)
	return rules
}
