// Package format decides who plays whom in a league: round-robin,
// gauntlet, A/B, Swiss, knockout, and a qualifier feeding a knockout. A
// format is a pure function of the results so far, so a league resumed
// after a crash asks it again and gets the same games.
package format

import "fmt"

// Game is one game a format hands out. A and B name the pairing (A ranks
// higher: listed first in the league file, or seeded higher); Index is the
// game's number within the pairing: 2*Pair has A move first, 2*Pair+1 has
// B move first, and both games of a pair share one seed.
type Game struct {
	Stage int // 0, or 1 for the knockout after a qualifier
	Round int
	A, B  string
	Pair  int
	Index int
}

// Seats are the agents by seat; seat 0 moves first.
func (g Game) Seats() [2]string {
	if g.Index%2 == 1 {
		return [2]string{g.B, g.A}
	}
	return [2]string{g.A, g.B}
}

// Pairing is "A-vs-B".
func (g Game) Pairing() string { return g.A + "-vs-" + g.B }

// key identifies a game within a format's results.
type key struct {
	stage int
	a, b  string
	index int
}

func (g Game) key() key { return key{g.Stage, g.A, g.B, g.Index} }

// Result is a played game and A's points in it (1 win, ½ draw, 0 loss).
type Result struct {
	Game
	PointsA float64
}

// Format is one tournament format.
type Format interface {
	// Next returns every game of the earliest round that is not fully
	// played (played games included), or nil once the format is over.
	// results holds the played games of the format, in any order.
	Next(results []Result) []Game
	// Planned is the number of games the format plays when no tie needs
	// extra games.
	Planned() int
}

// Ranker is a format that ranks its entrants once it is over.
type Ranker interface {
	Format
	// Ranking lists the entrants best first.
	Ranking(results []Result) []string
}

// index looks results up by game.
type index map[key]float64

func indexOf(results []Result) index {
	ix := make(index, len(results))
	for _, r := range results {
		ix[r.key()] = r.PointsA
	}
	return ix
}

// pairGames lists the two games of pair k between a and b, the first
// game led by lead (a or b).
func pairGames(stage, round int, a, b string, k int, lead string) []Game {
	g0 := Game{Stage: stage, Round: round, A: a, B: b, Pair: k, Index: 2 * k}
	g1 := g0
	g1.Index = 2*k + 1
	if lead == b {
		return []Game{g1, g0}
	}
	return []Game{g0, g1}
}

// checkEven refuses a game count that is not a whole number of pairs.
func checkEven(games int) error {
	if games < 2 || games%2 != 0 {
		return fmt.Errorf("%d games per pairing: want an even number of at least 2", games)
	}
	return nil
}
