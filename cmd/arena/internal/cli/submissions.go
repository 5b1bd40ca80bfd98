package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"arena/arena/entrants"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/preflightcache"
	"arena/arena/referee"
)

// leaguePreflight is league run's pre-flight check: a listed agent that
// fails refuses the run (unless --allow-broken, which enters every agent);
// a submission that fails is handed back to be left out. An agent that
// passed in an earlier run in the league's directory and is unchanged is
// not started again (preflightKey); a dry run reads those passes and
// records none.
func (e *Env) leaguePreflight(launch referee.Launcher, rf runFlags, broken *brokenTally) func(context.Context, *leaguefile.Spec) error {
	allowBroken := rf.broken
	return func(ctx context.Context, s *leaguefile.Spec) error {
		passes, err := preflightcache.Open(s.Output)
		if err != nil {
			return err
		}
		todo, keys := e.uncheckedItems(leagueCheckItems(s), passes)
		fails := e.preflightCheck(ctx, launch, todo)
		if ctx.Err() == nil && !rf.dryRun {
			if err := keepPasses(passes, todo, keys, fails, time.Now()); err != nil {
				return err
			}
		}
		var left []entrants.Refusal
		if !allowBroken {
			fails, left = entrantFailures(s, fails)
		}
		refused, err := e.refusal(ctx, fails, allowBroken)
		broken.refused = refused
		if err == nil && len(left) > 0 {
			err = &league.EntrantsRefusedError{Refused: left}
		}
		return err
	}
}

// reloader is league run's Reload: the league file loaded again without
// the refused submissions, which *spec then points to.
func (e *Env) reloader(cmd *cobra.Command, file string, rf runFlags, spec **leaguefile.Spec) func([]entrants.Refusal) (*leaguefile.Spec, error) {
	return func(refused []entrants.Refusal) (*leaguefile.Spec, error) {
		ns, err := e.reloadWithout(cmd, file, rf, *spec, refused)
		if err == nil {
			*spec = ns
		}
		return ns, err
	}
}

// entrantFailures splits pre-flight failures into those of listed agents,
// which refuse the run, and those of submissions (entrants.dir or glob),
// which are left out of it.
func entrantFailures(s *leaguefile.Spec, fails []checkFailure) ([]checkFailure, []entrants.Refusal) {
	agents := map[string]*leaguefile.Agent{}
	for _, l := range s.Leagues {
		for _, a := range l.Agents {
			agents[a.Name] = a
		}
	}
	var listed []checkFailure
	var left []entrants.Refusal
	seen := map[string]bool{}
	for _, f := range fails {
		a := agents[f.item.player.Name]
		if a == nil || a.Source == "" {
			listed = append(listed, f)
			continue
		}
		if !seen[a.Name] {
			seen[a.Name] = true
			left = append(left, leaguefile.PreflightRefusal(a, f.item.game.Info().Name, f.err))
		}
	}
	return listed, left
}

// reloadWithout loads the league file again leaving out the refused
// submissions besides those already left out, and reports the new ones.
func (e *Env) reloadWithout(cmd *cobra.Command, file string, rf runFlags, was *leaguefile.Spec, refused []entrants.Refusal) (*leaguefile.Spec, error) {
	opt := leaguefile.Options{Registry: e.Registry, Sources: leaguefile.Sources{Sets: rf.sets}}
	for _, r := range was.Refused {
		if r.Name != "" {
			refused = append(refused, r)
		}
	}
	spec, err := e.loadLeagueWith(cmd, file, opt.Excluding(refused), true)
	if err != nil {
		return nil, err
	}
	if err := reportRefused(e.Stderr, spec, was.Refused); err != nil {
		return nil, err
	}
	return spec, nil
}
