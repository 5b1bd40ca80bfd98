package league

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"

	"arena/arena/entrants"
)

// A class's submissions are checked like listed agents — loaded (CheckAgent),
// built (Go packages), started once (the pre-flight check) — but one that
// fails is left out with its reason and fix, and the league is played among
// the rest: one broken submission must not stop a class's league. A listed
// agent that fails still refuses the run (unless --allow-broken).

// entrantRefusedError is a submission CheckAgent refused while loading;
// Load leaves it out and loads the file again.
type entrantRefusedError struct{ refusal entrants.Refusal }

func (e *entrantRefusedError) Error() string { return e.refusal.Error() }

// EntrantsRefusedError is submissions that failed a check before play: a
// Go package that does not build, or, from RunOptions.Preflight, an agent
// that did not start or open a game. Run leaves them out (RunOptions.Reload).
type EntrantsRefusedError struct {
	Refused []entrants.Refusal
}

func (e *EntrantsRefusedError) Error() string {
	lines := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		lines[i] = fmt.Sprintf("%s (%s): %s; fix: %s", r.Name, r.Source, r.Reason, r.Fix)
	}
	return fmt.Sprintf("%d submission(s) failed a check before play:\n  %s", len(e.Refused), strings.Join(lines, "\n  "))
}

// withRefusal is exclude plus r, as a new map.
func withRefusal(exclude map[string]entrants.Refusal, r entrants.Refusal) map[string]entrants.Refusal {
	out := maps.Clone(exclude)
	if out == nil {
		out = map[string]entrants.Refusal{}
	}
	out[r.Name] = r
	return out
}

// Excluding is opt leaving out the refused submissions besides those it
// already leaves out, for loading a league again (RunOptions.Reload).
func (opt Options) Excluding(refused []entrants.Refusal) Options {
	for _, r := range refused {
		opt.Exclude = withRefusal(opt.Exclude, r)
	}
	return opt
}

// checkFix is the fix for a submission that failed a check: the command
// that shows what is wrong, as its author would run it.
func checkFix(ref, game string) string {
	return "run `arena check " + ref + " --game " + game + "` and fix what it reports"
}

// PreflightRefusal is a submission's refusal for a failed pre-flight check
// on game.
func PreflightRefusal(a *Agent, game string, err error) entrants.Refusal {
	return entrants.Refusal{Name: a.Name, Source: a.Source, Reason: "failed the pre-flight check: " + err.Error(), Fix: checkFix(a.Ref, game)}
}

// prepareAgents builds the Go agents and runs the pre-flight check. The
// submissions that fail either are left out: the spec is loaded again
// without them (opt.Reload) and the run goes on among the rest. Reloading
// only removes agents, so the ones left passed already and the pre-flight
// check runs once.
func prepareAgents(ctx context.Context, s *Spec, opt RunOptions, logw io.Writer) (*Spec, error) {
	checked := opt.Preflight == nil
	for {
		refused, err := prepare(ctx, s, logw)
		if err != nil {
			return nil, err
		}
		if len(refused) == 0 && !checked {
			checked = true
			err := opt.Preflight(ctx, s)
			var er *EntrantsRefusedError
			if errors.As(err, &er) {
				refused = er.Refused
			} else if err != nil {
				return nil, err
			}
		}
		if len(refused) == 0 {
			return s, nil
		}
		if opt.Reload == nil {
			return nil, &EntrantsRefusedError{Refused: refused}
		}
		if s, err = opt.Reload(refused); err != nil {
			return nil, err
		}
	}
}
