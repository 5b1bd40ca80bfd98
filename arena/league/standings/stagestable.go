package standings

import (
	"fmt"
	"io"

	"arena/arena/league/format"
	"arena/arena/league/leaguefile"
	"arena/arena/results"
)

// StageTables are a format's own tables: the Swiss table with its rounds
// (of the league, or of its qualifier) and the knockout bracket.
type StageTables struct {
	Swiss   *format.SwissTable
	Bracket *format.Bracket
	// Round is the round being played; its Number is 0 once the format
	// is over.
	Round CurrentRound
}

// CurrentRound is where a Swiss or knockout league stands: the round
// handed out now (from 1) and how many of its games are stored. Of is
// the number of rounds where the format fixes it in advance (a Swiss), 0
// otherwise (a knockout's rounds depend on its byes and tie-breaks).
type CurrentRound struct {
	Number, Of    int
	Played, Games int
}

// String is "round 2 of 5: 3 of 8 games played", "" once the format is
// over.
func (r CurrentRound) String() string {
	if r.Number == 0 {
		return ""
	}
	of := ""
	if r.Of > 0 {
		of = fmt.Sprintf(" of %d", r.Of)
	}
	return fmt.Sprintf("round %d%s: %d of %d games played", r.Number, of, r.Played, r.Games)
}

// stageTables replays a stored swiss or knockout league's format over its
// games' points (match id -> the first seat's points); other formats have
// no tables of their own (nil).
func stageTables(sl results.League, pts map[string]float64) (*StageTables, error) {
	if sl.Format != leaguefile.Swiss && sl.Format != leaguefile.Knockout {
		return nil, nil
	}
	l, err := leaguefile.Stored(sl)
	if err != nil {
		return nil, err
	}
	res, pending, round, err := l.WalkRound(pts)
	if err != nil {
		return nil, err
	}
	t := &StageTables{}
	if pending != nil {
		t.Round = CurrentRound{Number: round, Games: len(pending)}
		for _, m := range pending {
			if _, ok := pts[m.ID]; ok {
				t.Round.Played++
			}
		}
		if s, ok := l.Tournament.(*format.Swiss); ok {
			t.Round.Of = s.Rounds()
		}
	}
	swiss := func(s *format.Swiss) {
		tbl := s.Table(res)
		t.Swiss = &tbl
	}
	bracket := func(k *format.Knockout) {
		b := k.Bracket(res)
		t.Bracket = &b
	}
	switch f := l.Tournament.(type) {
	case *format.Swiss:
		swiss(f)
	case *format.Knockout:
		bracket(f)
	case *format.Staged:
		if s, ok := f.Qualifier.(*format.Swiss); ok {
			swiss(s)
		}
		if k := f.Knockout(res); k != nil {
			bracket(k)
		}
	}
	return t, nil
}

// WriteText prints the Swiss table and the bracket.
func (t *StageTables) WriteText(w io.Writer) error {
	if r := t.Round.String(); r != "" {
		if _, err := fmt.Fprintln(w, r); err != nil {
			return err
		}
	}
	if t.Swiss != nil {
		if err := t.Swiss.WriteText(w); err != nil {
			return err
		}
	}
	if t.Bracket != nil {
		t.Bracket.WriteText(w)
	}
	return nil
}
