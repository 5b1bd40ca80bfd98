package league

import (
	"io"

	"arena/arena/league/format"
	"arena/arena/results"
)

// StageTables are a format's own tables: the Swiss table with its rounds
// (of the league, or of its qualifier) and the knockout bracket.
type StageTables struct {
	Swiss   *format.SwissTable
	Bracket *format.Bracket
}

// stageTables replays a stored swiss or knockout league's format over its
// games' points (match id -> the first seat's points); other formats have
// no tables of their own (nil).
func stageTables(sl results.League, pts map[string]float64) (*StageTables, error) {
	if sl.Format != Swiss && sl.Format != Knockout {
		return nil, nil
	}
	l, err := storedLeague(sl)
	if err != nil {
		return nil, err
	}
	res, _, err := l.Walk(pts)
	if err != nil {
		return nil, err
	}
	t := &StageTables{}
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
