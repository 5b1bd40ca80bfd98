package format

import "fmt"

// Staged is a qualifier (stage 0) whose best entrants play a knockout
// (stage 1), seeded by their qualifier ranking.
type Staged struct {
	Qualifier Ranker
	advance   int
	games     int
	extra     int
}

// NewStaged sends the qualifier's best advance entrants to a knockout of
// matches of games games and up to extra tie-break pairs.
func NewStaged(q Ranker, entrants, advance, games, extra int) (*Staged, error) {
	if advance < 2 || advance > entrants {
		return nil, fmt.Errorf("qualifier: %d advance of %d entrants: want 2 to %d", advance, entrants, entrants)
	}
	if _, err := NewKnockout(1, make([]string, advance), games, extra); err != nil {
		return nil, err
	}
	return &Staged{Qualifier: q, advance: advance, games: games, extra: extra}, nil
}

// split separates the results by stage.
func split(results []Result) (q, ko []Result) {
	for _, r := range results {
		if r.Stage == 0 {
			q = append(q, r)
		} else {
			ko = append(ko, r)
		}
	}
	return q, ko
}

// Knockout is the second stage once the qualifier is over (nil before).
func (s *Staged) Knockout(results []Result) *Knockout {
	q, _ := split(results)
	if s.Qualifier.Next(q) != nil {
		return nil
	}
	k, _ := NewKnockout(1, s.Qualifier.Ranking(q)[:s.advance], s.games, s.extra)
	return k
}

// Next is the qualifier's next round, then the knockout's.
func (s *Staged) Next(results []Result) []Game {
	q, ko := split(results)
	if g := s.Qualifier.Next(q); g != nil {
		return g
	}
	return s.Knockout(results).Next(ko)
}

// Planned adds the stages' games.
func (s *Staged) Planned() int { return s.Qualifier.Planned() + (s.advance-1)*s.games }

// Ranking is the knockout's, then the qualifier's for the rest.
func (s *Staged) Ranking(results []Result) []string {
	q, ko := split(results)
	k := s.Knockout(results)
	if k == nil {
		return s.Qualifier.Ranking(q)
	}
	out := k.Ranking(ko)
	return append(out, s.Qualifier.Ranking(q)[s.advance:]...)
}
