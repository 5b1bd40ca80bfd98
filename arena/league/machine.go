package league

import (
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

// take returns the matches withheld since the last take, to be played
// again.
func (r *replays) take() []results.Match {
	again := r.again
	r.again = nil
	return again
}
