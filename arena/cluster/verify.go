package cluster

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"arena/arena/record"
	"arena/engine"
)

// Verify checks a worker's record against its job before it is stored:
// the match, game, profile, seed and seats (agents and their content
// hashes) are the job's, and replaying its moves through the engine from
// the start gives the recorded boards and the recorded result. A game
// that ends before its rules end it must end in a forfeit recorded as an
// event of the losing seat, or with no result. What a replay cannot check
// (whether a timeout really happened) is bounded as docs/cluster.md says.
func Verify(g engine.Game, params engine.Params, job *Job, rec *record.Game) error {
	if rec == nil {
		return errors.New("the result holds no record")
	}
	if err := rec.Check(); err != nil {
		return err
	}
	if err := sameMatch(job, rec); err != nil {
		return err
	}
	st, err := g.NewState(params)
	if err != nil {
		return fmt.Errorf("game %s: %w", job.Game, err)
	}
	if rec.Start != st.Text() {
		return errors.New("the start board is not the game's")
	}
	for i, mv := range rec.Moves {
		if st.Terminal() {
			return fmt.Errorf("move %d (ply %d): the game was already over", i, mv.Ply)
		}
		if mv.Seat != st.ToMove() {
			return fmt.Errorf("move %d (ply %d): seat %d moved, seat %d was to move", i, mv.Ply, mv.Seat, st.ToMove())
		}
		if err := engine.Replay(st, []string{mv.Text}); err != nil {
			return fmt.Errorf("move %d (ply %d) %q: %w", i, mv.Ply, mv.Text, err)
		}
	}
	if rec.Final != st.Text() {
		return errors.New("the final board is not the one the moves lead to")
	}
	return sameResult(g, st, rec)
}

// sameMatch checks the record is of the job's match.
func sameMatch(job *Job, rec *record.Game) error {
	switch {
	case rec.ID != job.MatchID:
		return fmt.Errorf("record of match %s, the job was %s", rec.ID, job.MatchID)
	case rec.Game != job.Game:
		return fmt.Errorf("record of game %s, the job was %s", rec.Game, job.Game)
	case rec.Profile != job.Profile:
		return fmt.Errorf("profile %s, the job's is %s", rec.Profile, job.Profile)
	case rec.Seed != job.Seed:
		return fmt.Errorf("seed %d, the job's is %d", rec.Seed, job.Seed)
	case !maps.Equal(rec.Params, job.Params) && len(rec.Params)+len(job.Params) > 0:
		return fmt.Errorf("parameters %v, the job's are %v", rec.Params, job.Params)
	case len(rec.Overrides) != len(job.Overrides):
		return fmt.Errorf("%d profile overrides, the job has %d", len(rec.Overrides), len(job.Overrides))
	case rec.OpeningIndex() != job.openingIndex() || (rec.Opening != nil && !slices.Equal(rec.Opening.Moves, job.Opening.Moves)):
		return fmt.Errorf("played from opening %d, the job's is %d", rec.OpeningIndex(), job.openingIndex())
	}
	for seat, a := range job.Seats {
		r := rec.Agents[seat]
		if r.Name != a.Name || r.Ref != a.Ref || r.Hash != a.Hash {
			return fmt.Errorf("seat %d: agent %s (%s, %s), the job's is %s (%s, %s)", seat, r.Name, r.Ref, r.Hash, a.Name, a.Ref, a.Hash)
		}
	}
	return nil
}

// openingIndex is the job's opening, -1 for none.
func (j *Job) openingIndex() int {
	if j.Opening == nil {
		return -1
	}
	return j.Opening.Index
}

// sameResult checks the result against the replayed position.
func sameResult(g engine.Game, st engine.State, rec *record.Game) error {
	r := rec.Result
	if st.Terminal() {
		want := st.Result()
		if r.Forfeit != "" || r.Winner != want.Winner || r.Draw != want.Draw || r.Reason != want.Reason {
			return fmt.Errorf("result %s, the moves give %s", tell(r.Winner, r.Draw, r.Reason), tell(want.Winner, want.Draw, want.Reason))
		}
		if g.Info().HasScores && (len(r.Scores) != 2 || r.Scores[0] != want.Scores[0] || r.Scores[1] != want.Scores[1]) {
			return fmt.Errorf("scores %v, the moves give %v", r.Scores, want.Scores)
		}
		return nil
	}
	if r.Winner == engine.NoSeat && !r.Draw && strings.HasPrefix(r.Reason, "NO RESULT: ") {
		return nil
	}
	if r.Forfeit == "" || r.Draw || r.Winner == engine.NoSeat {
		return fmt.Errorf("result %s before the game is over, without a forfeit", tell(r.Winner, r.Draw, r.Reason))
	}
	for _, e := range rec.Events {
		if e.Seat == 1-r.Winner && e.Kind == r.Forfeit {
			return nil
		}
	}
	return fmt.Errorf("seat %d forfeits for %s, but no such event of seat %d is recorded", 1-r.Winner, r.Forfeit, 1-r.Winner)
}

func tell(winner int, draw bool, reason string) string {
	s := "no winner"
	switch {
	case draw:
		s = "a draw"
	case winner >= 0:
		s = fmt.Sprintf("seat %d wins", winner)
	}
	if reason != "" {
		s += fmt.Sprintf(" (%q)", reason)
	}
	return s
}
