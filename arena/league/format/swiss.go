package format

import (
	"fmt"
	"slices"
)

// Swiss plays a fixed number of rounds; in each, every entrant meets one
// opponent of about its score for one match of colour-swapped pairs. The
// pairing rule (docs/leagues.md, "Swiss"):
//
//  1. Rank the entrants by points, then by start number (their order in
//     the league file).
//  2. With an odd field, the bye goes to the lowest-ranked entrant who has
//     not had one and leaves a field that can be paired without a repeat
//     (if none does, the lowest-ranked without a bye). A bye scores as a
//     match won: every game of the pairing.
//  3. Going down the ranking, the highest-ranked unpaired entrant meets the
//     highest-ranked unpaired entrant it has not met, backtracking when
//     that leaves the rest unpairable: the first pairing in this order with
//     no repeat. When every pairing repeats a meeting, each entrant in turn
//     meets the unpaired entrant it has met least (highest-ranked first).
//  4. In each pair of games the entrant who has moved first less often
//     moves first in the pair's first game; on a tie the higher-ranked.
//
// Nothing is random, so a round can be paired by hand from the table.
type Swiss struct {
	entrants []string
	start    map[string]int
	rounds   int
	games    int
}

// maxSearch bounds the backtracking of one round's pairing. Fields of a
// few hundred entrants over a few rounds need a handful of steps; a field
// that exhausts it is paired with the fewest repeats rule instead.
const maxSearch = 1 << 20

// NewSwiss is a Swiss of rounds rounds, each a match of games games.
func NewSwiss(entrants []string, rounds, games int) (*Swiss, error) {
	if err := checkEven(games); err != nil {
		return nil, err
	}
	if len(entrants) < 2 {
		return nil, fmt.Errorf("swiss: %d entrants: want at least 2", len(entrants))
	}
	if rounds < 1 || rounds > len(entrants)-1+len(entrants)%2 {
		// An odd field has a bye each round; never twice to one entrant
		// needs at most as many rounds as entrants.
		return nil, fmt.Errorf("swiss: %d rounds for %d entrants: want 1 to %d", rounds, len(entrants), len(entrants)-1+len(entrants)%2)
	}
	s := &Swiss{entrants: entrants, start: map[string]int{}, rounds: rounds, games: games}
	for i, e := range entrants {
		s.start[e] = i
	}
	return s, nil
}

// DefaultRounds is the rounds a Swiss plays unless told: enough for one
// entrant to win every round and stand alone, ⌈log2 n⌉, plus two.
func DefaultRounds(n int) int {
	r := 0
	for 1<<r < n {
		r++
	}
	return min(r+2, n-1+n%2)
}

// Planned counts every round's games.
func (s *Swiss) Planned() int { return s.rounds * (len(s.entrants) / 2) * s.games }

// Rounds is the number of rounds.
func (s *Swiss) Rounds() int { return s.rounds }

// SwissRound is one entrant's round.
type SwissRound struct {
	Opponent string  // "" for a bye
	Points   float64 // the entrant's points in the round
	Led      bool    // moved first in the round's first game
}

// swissState is the tournament after its complete rounds.
type swissState struct {
	points map[string]float64
	met    map[[2]string]int
	byes   map[string]bool
	leads  map[string]int
	rounds map[string][]SwissRound
	done   int // complete rounds
}

// replay pairs and scores round after round from the results, and
// returns the state after the complete rounds and the games of the first
// incomplete one (nil when all are complete).
func (s *Swiss) replay(results []Result) (*swissState, []Game) {
	st := &swissState{points: map[string]float64{}, met: map[[2]string]int{}, byes: map[string]bool{},
		leads: map[string]int{}, rounds: map[string][]SwissRound{}}
	ix := indexOf(results)
	for r := range s.rounds {
		pairs, bye := s.pair(st)
		games := s.roundGames(st, r, pairs)
		if !allPlayed(ix, games) {
			return st, games
		}
		s.score(st, ix, games, bye)
		st.done++
	}
	return st, nil
}

func allPlayed(ix index, games []Game) bool {
	for _, g := range games {
		if _, ok := ix[g.key()]; !ok {
			return false
		}
	}
	return true
}

// Next returns the first incomplete round's games.
func (s *Swiss) Next(results []Result) []Game {
	_, games := s.replay(results)
	return games
}

// roundGames lists a round's games, top pairing first; a pairing's pair
// index continues from its earlier meetings so game ids stay unique.
func (s *Swiss) roundGames(st *swissState, round int, pairs [][2]string) []Game {
	var out []Game
	for _, p := range pairs {
		a, b := p[0], p[1]
		if s.start[a] > s.start[b] {
			a, b = b, a
		}
		lead := p[0] // the higher-ranked on a tie
		if st.leads[p[1]] < st.leads[p[0]] {
			lead = p[1]
		}
		base := st.met[[2]string{a, b}] * (s.games / 2)
		for k := range s.games / 2 {
			out = append(out, pairGames(0, round, a, b, base+k, lead)...)
		}
	}
	return out
}

// score adds a complete round to the state.
func (s *Swiss) score(st *swissState, ix index, games []Game, bye string) {
	type match struct {
		a, b string
		pa   float64
		lead string
	}
	var order []key
	matches := map[[2]string]*match{}
	for _, g := range games {
		pk := [2]string{g.A, g.B}
		m := matches[pk]
		if m == nil {
			m = &match{a: g.A, b: g.B, lead: g.Seats()[0]}
			matches[pk] = m
			order = append(order, g.key())
		}
		m.pa += ix[g.key()]
	}
	for _, k := range order {
		m := matches[[2]string{k.a, k.b}]
		pb := float64(s.games) - m.pa
		st.points[m.a] += m.pa
		st.points[m.b] += pb
		st.met[[2]string{m.a, m.b}]++
		st.leads[m.lead]++
		st.rounds[m.a] = append(st.rounds[m.a], SwissRound{Opponent: m.b, Points: m.pa, Led: m.lead == m.a})
		st.rounds[m.b] = append(st.rounds[m.b], SwissRound{Opponent: m.a, Points: pb, Led: m.lead == m.b})
	}
	if bye != "" {
		st.byes[bye] = true
		st.points[bye] += float64(s.games)
		st.rounds[bye] = append(st.rounds[bye], SwissRound{Points: float64(s.games)})
	}
}

// ranked orders entrants by points, then start number.
func (s *Swiss) ranked(points map[string]float64) []string {
	out := slices.Clone(s.entrants)
	slices.SortStableFunc(out, func(a, b string) int { return cmpDesc(points[a], points[b]) })
	return out
}

// pair makes one round's pairings (higher-ranked first) and its bye.
func (s *Swiss) pair(st *swissState) ([][2]string, string) {
	order := s.ranked(st.points)
	if len(order)%2 == 0 {
		if p, ok := s.noRepeat(st, order); ok {
			return p, ""
		}
		return s.fewestRepeats(st, order), ""
	}
	fallback := ""
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		if st.byes[c] {
			continue
		}
		if fallback == "" {
			fallback = c
		}
		rest := slices.Delete(slices.Clone(order), i, i+1)
		if p, ok := s.noRepeat(st, rest); ok {
			return p, c
		}
	}
	i := slices.Index(order, fallback)
	return s.fewestRepeats(st, slices.Delete(slices.Clone(order), i, i+1)), fallback
}

func (st *swissState) meetings(a, b string, start map[string]int) int {
	if start[a] > start[b] {
		a, b = b, a
	}
	return st.met[[2]string{a, b}]
}

// noRepeat is rule 3's backtracking search: the first pairing, in ranking
// order, in which nobody meets an earlier opponent.
func (s *Swiss) noRepeat(st *swissState, order []string) ([][2]string, bool) {
	used := make([]bool, len(order))
	var out [][2]string
	steps := 0
	var try func() bool
	try = func() bool {
		i := slices.Index(used, false)
		if i < 0 {
			return true
		}
		used[i] = true
		for j := i + 1; j < len(order); j++ {
			if used[j] || st.meetings(order[i], order[j], s.start) > 0 {
				continue
			}
			if steps++; steps > maxSearch {
				return false
			}
			used[j] = true
			out = append(out, [2]string{order[i], order[j]})
			if try() {
				return true
			}
			out = out[:len(out)-1]
			used[j] = false
		}
		used[i] = false
		return false
	}
	if !try() {
		return nil, false
	}
	return out, true
}

// fewestRepeats pairs when no pairing avoids a repeat: each entrant, top
// down, meets the unpaired entrant it has met least.
func (s *Swiss) fewestRepeats(st *swissState, order []string) [][2]string {
	used := make([]bool, len(order))
	var out [][2]string
	for i := range order {
		if used[i] {
			continue
		}
		used[i] = true
		best := -1
		for j := i + 1; j < len(order); j++ {
			if !used[j] && (best < 0 || st.meetings(order[i], order[j], s.start) < st.meetings(order[i], order[best], s.start)) {
				best = j
			}
		}
		used[best] = true
		out = append(out, [2]string{order[i], order[best]})
	}
	return out
}
