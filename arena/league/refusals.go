package league

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"arena/arena/entrants"
	"arena/arena/league/leaguefile"
)

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

// prepareAgents builds the Go agents and runs the pre-flight check. The
// submissions that fail either are left out: the spec is loaded again
// without them (opt.Reload) and the run goes on among the rest. Reloading
// only removes agents, so the ones left passed already and the pre-flight
// check runs once.
func prepareAgents(ctx context.Context, s *leaguefile.Spec, opt RunOptions, logw io.Writer) (*leaguefile.Spec, error) {
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
