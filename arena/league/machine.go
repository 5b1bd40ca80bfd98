package league

import (
	"context"
	"fmt"
	"io"

	"arena/arena/record"
	"arena/arena/results"
)

// replays follows the games of one league that are played again because
// the machine caused a verdict in them (record.Game.MachineCaused): the
// plays not published, by match id, and the matches to play after the
// current pass. `league replay-late` and the automatic path both go
// through it, so a game's record lists every play that was not kept.
type replays struct {
	max   int                        // plays a match may have withheld
	prior map[string][]record.Replay // the unpublished plays, by match id
	again []results.Match            // withheld in this pass
}

func newReplays(max int) *replays {
	return &replays{max: max, prior: map[string][]record.Replay{}}
}

// dropped notes a stored game deleted to be played again, keeping the
// earlier plays its record listed.
func (r *replays) dropped(g results.Game, why string) {
	r.prior[g.Match.ID] = append(g.Record.Replays, record.Replay{Started: g.Record.Started, Reason: why})
}

// hold withholds rec, the play of m, when the machine caused one of its
// verdicts and m has not yet been withheld max times; it says why, or ""
// when rec is to be published.
func (r *replays) hold(m results.Match, rec *record.Game) string {
	why := rec.MachineCaused()
	if why == "" || len(r.prior[m.ID]) >= r.max {
		return ""
	}
	r.prior[m.ID] = append(r.prior[m.ID], record.Replay{Started: rec.Started, Reason: why})
	r.again = append(r.again, m)
	return why
}

// stamp gives rec, about to be published, the plays of its match that
// were not.
func (r *replays) stamp(id string, rec *record.Game) {
	if p := r.prior[id]; len(p) > 0 {
		rec.Replays = append(p[:len(p):len(p)], rec.Replays...)
	}
}

// playWithReplays plays a league's pending games, then, as often as plays
// were withheld, plays those matches again, reading the stored games anew
// for the standings and the SPRT.
func playWithReplays(ctx context.Context, st results.Store, jnl *journal, l *League, pending []results.Match, stored []results.Game, opt RunOptions, logw io.Writer, prog *Progress, rp *replays) error {
	for {
		if err := runLeague(ctx, st, jnl, l, pending, stored, opt, logw, prog, rp); err != nil {
			return err
		}
		if len(rp.again) == 0 {
			return nil
		}
		pending, rp.again = rp.again, nil
		fmt.Fprintf(logw, "league %s: playing again %d game(s) the machine was too busy to judge fairly\n", l.Name, len(pending))
		var err error
		if stored, err = st.Games(ctx, l.Name); err != nil {
			return err
		}
	}
}
