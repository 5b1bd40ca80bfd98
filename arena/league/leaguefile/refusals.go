package leaguefile

import (
	"maps"

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
// already leaves out, for loading a league again (league.RunOptions.Reload).
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
