package format

import "fmt"

// Knockout is a single-elimination bracket. Entrants are seeded in the
// order given (the league file's order, or a qualifier's ranking); the
// bracket has the next power of two of slots, seeds placed so that seeds
// 1 and 2 can meet only in the final, and the slots past the field are
// byes, which go to the top seeds. A match is games games in
// colour-swapped pairs, the higher seed moving first in each pair's first
// game. Tied after them, the match goes on for up to extra more pairs,
// one at a time, until one is ahead; still tied, the higher seed goes
// through.
type Knockout struct {
	stage    int
	entrants []string
	games    int
	extra    int
}

// NewKnockout is a bracket of the entrants in seed order.
func NewKnockout(stage int, entrants []string, games, extra int) (*Knockout, error) {
	if err := checkEven(games); err != nil {
		return nil, err
	}
	if len(entrants) < 2 {
		return nil, fmt.Errorf("knockout: %d entrants: want at least 2", len(entrants))
	}
	if extra < 0 {
		return nil, fmt.Errorf("knockout: %d extra pairs: want 0 or more", extra)
	}
	return &Knockout{stage: stage, entrants: entrants, games: games, extra: extra}, nil
}

// BracketOrder lists the seeds (from 1) slot by slot for a bracket of size
// slots, a power of two: 1, 8, 4, 5, 2, 7, 3, 6 for eight.
func BracketOrder(slots int) []int {
	order := []int{1}
	for n := 2; n <= slots; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// KnockoutMatch is one match of the bracket. B is "" for a bye.
type KnockoutMatch struct {
	A, B             string // A the higher seed
	PointsA, PointsB float64
	Games            int    // games played
	Winner           string // "" until decided
	// By says how it was decided: "bye", "points", "extra pairs" or
	// "higher seed".
	By string
}

// Bracket is the knockout so far: rounds of matches, the first round
// first; the last listed round may be in progress.
type Bracket struct{ Rounds [][]KnockoutMatch }

// Planned counts the matches' games without extra pairs.
func (k *Knockout) Planned() int { return (len(k.entrants) - 1) * k.games }

// Next returns the first undecided round's games.
func (k *Knockout) Next(results []Result) []Game {
	_, games := k.replay(results)
	return games
}

// Bracket is the bracket after the results.
func (k *Knockout) Bracket(results []Result) Bracket {
	b, _ := k.replay(results)
	return b
}

// Ranking lists the winner first, then the entrants by the round they
// went out in (later first), then by seed.
func (k *Knockout) Ranking(results []Result) []string {
	b, _ := k.replay(results)
	var out []string
	seen := map[string]bool{}
	add := func(e string) {
		if e != "" && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	if n := len(b.Rounds); n > 0 && len(b.Rounds[n-1]) == 1 {
		add(b.Rounds[n-1][0].Winner)
	}
	for r := len(b.Rounds) - 1; r >= 0; r-- {
		for _, e := range k.entrants {
			for _, m := range b.Rounds[r] {
				if (m.A == e || m.B == e) && m.Winner != e {
					add(e)
				}
			}
		}
	}
	for _, e := range k.entrants {
		add(e)
	}
	return out
}

// replay decides round after round and returns the bracket and the games
// of the first undecided round.
func (k *Knockout) replay(results []Result) (Bracket, []Game) {
	ix := indexOf(results)
	slots := 1
	for slots < len(k.entrants) {
		slots *= 2
	}
	field := make([]string, slots)
	for i, seed := range BracketOrder(slots) {
		if seed <= len(k.entrants) {
			field[i] = k.entrants[seed-1]
		}
	}
	var b Bracket
	for round := 0; len(field) > 1; round++ {
		var games []Game
		var next []string
		var matches []KnockoutMatch
		for i := 0; i < len(field); i += 2 {
			m, g := k.match(ix, round, field[i], field[i+1])
			matches = append(matches, m)
			games = append(games, g...)
			next = append(next, m.Winner)
		}
		b.Rounds = append(b.Rounds, matches)
		if !decided(matches) {
			return b, games
		}
		field = next
	}
	return b, nil
}

func decided(ms []KnockoutMatch) bool {
	for _, m := range ms {
		if m.Winner == "" {
			return false
		}
	}
	return true
}

// match plays out one match from the results: its games so far (those
// it needs next included) and, once known, its winner.
func (k *Knockout) match(ix index, round int, x, y string) (KnockoutMatch, []Game) {
	if y == "" || x == "" {
		return KnockoutMatch{A: x + y, Winner: x + y, By: "bye"}, nil
	}
	a, b := x, y
	if k.seed(b) < k.seed(a) {
		a, b = b, a
	}
	m := KnockoutMatch{A: a, B: b}
	var games []Game
	for pair := 0; pair < k.games/2+k.extra; pair++ {
		if pair >= k.games/2 && m.PointsA != m.PointsB {
			break
		}
		pg := pairGames(k.stage, round, a, b, pair, a)
		games = append(games, pg...)
		for _, g := range pg {
			p, ok := ix[g.key()]
			if !ok {
				return m, games
			}
			m.PointsA += p
			m.PointsB += 1 - p
			m.Games++
		}
	}
	switch {
	case m.PointsA > m.PointsB:
		m.Winner = a
	case m.PointsB > m.PointsA:
		m.Winner = b
	default:
		m.Winner, m.By = a, "higher seed"
	}
	if m.By == "" {
		m.By = "points"
		if m.Games > k.games {
			m.By = "extra pairs"
		}
	}
	return m, games
}

func (k *Knockout) seed(e string) int {
	for i, x := range k.entrants {
		if x == e {
			return i
		}
	}
	return len(k.entrants)
}
