package cli

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"arena/arena/league/leaguefile"
	"arena/arena/league/plan"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
)

func newLeaguePlanCmd(e *Env) *cobra.Command {
	var workers, cores int
	var sets []string
	cmd := &cobra.Command{
		Use:   "plan LEAGUE.yaml",
		Short: "Estimate a league's games, plies, agent CPU-hours and wall time before it runs",
		Long: `Print, per league and stage, the games the format plays (Swiss and knockout
rounds counted without tie-break pairs; an ab league's SPRT may stop sooner),
the expected plies of a game, the agents' CPU-hours and the wall time at
--workers games at once on --cores CPUs. Where the league directory already
holds games, their plies and move times are used; otherwise random games give
the plies and the profile's limits the time, every move using all of it (an
upper bound). Nothing is played.`,
		Example: `  arena league plan configs/pentago-twist.yaml --workers 8 --cores 16`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			spec, err := leaguefile.Load(args[0], leaguefile.Options{Registry: e.Registry, Sources: leaguefile.Sources{Sets: sets}, Cores: cores})
			if err != nil {
				return err
			}
			var st results.Store
			if _, err := os.Stat(filepath.Join(spec.Output, resultsdb.FileName)); err == nil {
				db, err := resultsdb.OpenDirReadOnly(ctx, spec.Output)
				if err != nil {
					return err
				}
				defer db.Close()
				st = db
			} else if !errors.Is(err, os.ErrNotExist) {
				return err
			}
			plans, err := plan.Plan(ctx, spec, st, plan.Options{Workers: workers, Cores: cores})
			if err != nil {
				return err
			}
			return plan.Write(cmd.OutOrStdout(), plans)
		},
	}
	f := cmd.Flags()
	f.IntVar(&workers, "workers", 0, "games at once (default: the league's concurrency)")
	f.IntVar(&cores, "cores", 0, "CPU slots (default: every CPU the process may use); per-move wall-clock profiles get half")
	f.StringArrayVar(&sets, "set", nil, "override any key KEY=VALUE (repeatable), e.g. format=swiss")
	return cmd
}
