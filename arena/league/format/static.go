package format

import "slices"

// Static is a format whose games are all known before the first: every
// listed pairing plays the same number of games, in colour-swapped pairs,
// pair by pair across all pairings so partial results stay balanced.
type Static struct {
	entrants []string
	pairings [][2]string
	games    int
}

// RoundRobin has every entrant meet every other; A is the one listed
// first. With two entrants it is the A/B format.
func RoundRobin(entrants []string, games int) (*Static, error) {
	if err := checkEven(games); err != nil {
		return nil, err
	}
	s := &Static{entrants: entrants, games: games}
	for i, a := range entrants {
		for _, b := range entrants[i+1:] {
			s.pairings = append(s.pairings, [2]string{a, b})
		}
	}
	return s, nil
}

// Gauntlet has the challenger meet every other entrant, who do not meet
// each other.
func Gauntlet(challenger string, entrants []string, games int) (*Static, error) {
	if err := checkEven(games); err != nil {
		return nil, err
	}
	s := &Static{entrants: entrants, games: games}
	for _, a := range entrants {
		if a != challenger {
			s.pairings = append(s.pairings, [2]string{challenger, a})
		}
	}
	return s, nil
}

// All lists every game in schedule order.
func (s *Static) All() []Game {
	var out []Game
	for k := range s.games / 2 {
		for _, p := range s.pairings {
			out = append(out, pairGames(0, 0, p[0], p[1], k, p[0])...)
		}
	}
	return out
}

// Next returns the whole schedule until every game is played.
func (s *Static) Next(results []Result) []Game {
	all := s.All()
	ix := indexOf(results)
	for _, g := range all {
		if _, ok := ix[g.key()]; !ok {
			return all
		}
	}
	return nil
}

// Planned is the schedule's length.
func (s *Static) Planned() int { return len(s.pairings) * s.games }

// Ranking orders entrants by points, then as listed.
func (s *Static) Ranking(results []Result) []string {
	pts := points(results)
	out := slices.Clone(s.entrants)
	slices.SortStableFunc(out, func(a, b string) int { return cmpDesc(pts[a], pts[b]) })
	return out
}

// points totals each entrant's points.
func points(results []Result) map[string]float64 {
	pts := map[string]float64{}
	for _, r := range results {
		pts[r.A] += r.PointsA
		pts[r.B] += 1 - r.PointsA
	}
	return pts
}

// cmpDesc orders larger numbers first.
func cmpDesc(x, y float64) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return 0
}

// Len is the number of games in the schedule.
func (s *Static) Len() int { return len(s.pairings) * s.games }

// At is the i-th game of the schedule (All()[i]), computed without
// listing the others.
func (s *Static) At(i int) Game {
	n := len(s.pairings)
	k, rest := i/(2*n), i%(2*n)
	p := s.pairings[rest/2]
	return Game{A: p[0], B: p[1], Pair: k, Index: 2*k + rest%2}
}

// Position is the place of g in the schedule, or false when the schedule
// has no such game.
func (s *Static) Position(g Game) (int, bool) {
	if g.Stage != 0 || g.Round != 0 || g.Pair < 0 || g.Index/2 != g.Pair || 2*g.Pair >= s.games {
		return 0, false
	}
	for j, p := range s.pairings {
		if p == [2]string{g.A, g.B} {
			return (g.Pair*len(s.pairings)+j)*2 + g.Index%2, true
		}
	}
	return 0, false
}
