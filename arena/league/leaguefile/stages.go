package leaguefile

import (
	"encoding/json"
	"fmt"

	"arena/arena/league/format"
	"arena/arena/results"
)

// checkStages checks the keys of swiss and knockout that need no agents.
func checkStages(ld *loader, c Config) error {
	if c.Rounds < 0 {
		return ld.errorf("rounds", "%d: want 0 (automatic) or more", c.Rounds)
	}
	if c.Rounds > 0 && c.Format != Swiss {
		return ld.errorf("rounds", "%d: rounds are for format swiss (the qualifier's are qualifier.rounds)", c.Rounds)
	}
	if c.TiebreakPairs < 0 {
		return ld.errorf("tiebreak_pairs", "%d: want 0 or more", c.TiebreakPairs)
	}
	q := c.Qualifier
	if q == (QualifierConfig{}) {
		return nil
	}
	if c.Format != Knockout {
		return ld.errorf("qualifier", "a qualifier feeds a knockout: set format: knockout, or drop the qualifier")
	}
	switch q.Format {
	case RoundRobin, Swiss:
	default:
		return ld.errorf("qualifier.format", "%q: want %s or %s", q.Format, RoundRobin, Swiss)
	}
	if q.Rounds < 0 || (q.Rounds > 0 && q.Format != Swiss) {
		return ld.errorf("qualifier.rounds", "%d: want 0 (automatic) or more, and only for a swiss qualifier", q.Rounds)
	}
	if q.Advance < 2 {
		return ld.errorf("qualifier.advance", "%d: want the number of agents the qualifier sends to the knockout, at least 2", q.Advance)
	}
	return nil
}

// buildTournament makes the league's format from its agents, and puts the
// keys that decide it into the league's hash.
func (l *League) buildTournament(ld *loader, c Config, h *Hashed) error {
	l.Rounds, l.TiebreakPairs, l.Qualifier = c.Rounds, c.TiebreakPairs, c.Qualifier
	names := make([]string, len(l.Agents))
	for i, a := range l.Agents {
		names[i] = a.Name
	}
	key, err := l.newTournament(names)
	if err != nil {
		return ld.errorf(key, "league %s: %v", l.Name, err)
	}
	switch l.Format {
	case Swiss:
		h.Rounds = l.Rounds
	case Knockout:
		tp := l.TiebreakPairs
		h.TiebreakPairs = &tp
		if l.Qualifier.Format != "" {
			q := l.Qualifier
			h.Qualifier = &q
		}
	}
	return nil
}

// newTournament sets l.Tournament from the league's keys, filling in the
// automatic rounds; on error it names the key to blame.
func (l *League) newTournament(names []string) (string, error) {
	var err error
	switch l.Format {
	case Gauntlet:
		l.Tournament, err = format.Gauntlet(l.Challenger, names, l.GamesPerPairing)
		return "format", err
	case Swiss:
		if l.Rounds <= 0 {
			l.Rounds = format.DefaultRounds(len(names))
		}
		l.Tournament, err = format.NewSwiss(names, l.Rounds, l.GamesPerPairing)
		return "rounds", err
	case Knockout:
		l.Tournament, err = l.knockout(names)
		return "qualifier", err
	}
	l.Tournament, err = format.RoundRobin(names, l.GamesPerPairing)
	return "format", err
}

// knockout is a bracket of the agents in file order, or after a qualifier.
func (l *League) knockout(names []string) (format.Format, error) {
	q := &l.Qualifier
	if q.Format == "" {
		return format.NewKnockout(0, names, l.GamesPerPairing, l.TiebreakPairs)
	}
	var first format.Ranker
	var err error
	if q.Format == Swiss {
		if q.Rounds <= 0 {
			q.Rounds = format.DefaultRounds(len(names))
		}
		first, err = format.NewSwiss(names, q.Rounds, l.GamesPerPairing)
	} else {
		first, err = format.RoundRobin(names, l.GamesPerPairing)
	}
	if err != nil {
		return nil, err
	}
	return format.NewStaged(first, len(names), q.Advance, l.GamesPerPairing, l.TiebreakPairs)
}

// Stored rebuilds a stored league's format from its stored
// configuration (Hashed), for standings and plans.
func Stored(sl results.League) (*League, error) {
	var h Hashed
	if err := json.Unmarshal([]byte(sl.Config), &h); err != nil {
		return nil, fmt.Errorf("league %s: stored configuration: %w", sl.Name, err)
	}
	l := &League{Name: sl.Name, Format: h.Format, Challenger: h.Challenger, GamesPerPairing: h.GamesPerPairing,
		Seed: h.Seed, Rounds: h.Rounds, TiebreakPairs: 1}
	if h.TiebreakPairs != nil {
		l.TiebreakPairs = *h.TiebreakPairs
	}
	if h.Qualifier != nil {
		l.Qualifier = *h.Qualifier
	}
	names := make([]string, len(h.Agents))
	for i, a := range h.Agents {
		names[i] = a.Name
	}
	if _, err := l.newTournament(names); err != nil {
		return nil, fmt.Errorf("league %s: stored configuration: %w", sl.Name, err)
	}
	return l, nil
}

// stagePrefix names a knockout's pairings after a qualifier, so its
// games' ids and seeds differ from the qualifier's.
const stagePrefix = "ko/"

// Match is the stored match of a format's game; seq orders the schedule.
func (l *League) Match(g format.Game, seq int) results.Match {
	pairing := g.Pairing()
	if g.Stage > 0 {
		pairing = stagePrefix + pairing
	}
	seed := pairSeed(l.Seed, l.Name, pairing, g.Pair)
	return results.Match{
		ID: MatchID(l.Name, pairing, g.Index, seed), League: l.Name, Pairing: pairing,
		Pair: g.Pair, Index: g.Index, Seq: seq, Seats: g.Seats(), Seed: seed,
	}
}

// Walk replays the league's format over stored games (match id -> the
// first seat's points) and returns the results of the stored games it
// hands out and the matches of the first round that still misses a game,
// played ones included (nil once the format is over).
func (l *League) Walk(stored map[string]float64) ([]format.Result, []results.Match, error) {
	res, pending, _, err := l.WalkRound(stored)
	return res, pending, err
}

// WalkRound is Walk, which also says the number of the round it returns
// (the rounds handed out so far; a knockout round handed out again with its
// tie-break pairs keeps its number).
func (l *League) WalkRound(stored map[string]float64) ([]format.Result, []results.Match, int, error) {
	var res []format.Result
	have := map[string]bool{} // match ids in res
	round := 0
	for {
		games := l.Tournament.Next(res)
		if games == nil {
			return res, nil, round, nil
		}
		// A knockout round hands out its played games again with the
		// tie-break pairs it now needs.
		base, fresh, complete := len(res), 0, true
		matches := make([]results.Match, len(games))
		for i, g := range games {
			matches[i] = l.Match(g, base+i)
			if !have[matches[i].ID] {
				fresh++
			}
			_, played := stored[matches[i].ID]
			complete = complete && played
		}
		if fresh == len(games) {
			round++
		}
		if !complete {
			return res, matches, round, nil
		}
		if fresh == 0 {
			return nil, nil, round, fmt.Errorf("league %s: format %s hands out a played round again", l.Name, l.Format)
		}
		for i, g := range games {
			if have[matches[i].ID] {
				continue
			}
			have[matches[i].ID] = true
			p := stored[matches[i].ID]
			if g.Index%2 == 1 { // A had the second seat
				p = 1 - p
			}
			res = append(res, format.Result{Game: g, PointsA: p})
		}
	}
}

// FormatName is the format with its stages, for set-up lines and plans.
func (l *League) FormatName() string {
	switch {
	case l.Format == Swiss:
		return fmt.Sprintf("swiss of %d rounds", l.Rounds)
	case l.Format == Knockout && l.Qualifier.Format != "":
		q := l.Qualifier.Format
		if q == Swiss {
			q = fmt.Sprintf("swiss of %d rounds", l.Qualifier.Rounds)
		}
		return fmt.Sprintf("%s qualifier, best %d to a knockout", q, l.Qualifier.Advance)
	}
	return l.Format
}
