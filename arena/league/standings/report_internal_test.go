package standings

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/results"
)

// Intervals the games cannot give print as such, never as a point or as
// infinite at both ends; infinite at one end is a one-sided bound.
func TestIntervalText(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		lo, hi float64
		want   string
	}{
		{-50, 120, "[-50, +120]"},
		{0, 0, naInterval},
		{inf, inf, naInterval},
		{-inf, inf, naInterval},
		{math.NaN(), math.NaN(), naInterval},
		{238, inf, "≥ +238"},
		{-inf, -238, "≤ -238"},
	}
	for _, c := range cases {
		if got := fmtInterval(c.lo, c.hi); got != c.want {
			t.Errorf("fmtInterval(%v, %v) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// pairGames builds n colour-swapped pairs of a vs b where a scores
// scores[k] (its two games' points) in pair k.
func pairGames(scores [][2]float64) []results.Game {
	var out []results.Game
	for k, s := range scores {
		for idx := range 2 {
			aSeat := idx % 2
			rec := &record.Game{ID: "g", Started: time.Unix(0, 0)}
			rec.Agents[aSeat].Name, rec.Agents[1-aSeat].Name = "a", "b"
			switch s[idx] {
			case 1:
				rec.Result = record.Result{Winner: aSeat}
			case 0.5:
				rec.Result = record.Result{Winner: -1, Draw: true}
			default:
				rec.Result = record.Result{Winner: 1 - aSeat}
			}
			out = append(out, results.Game{
				Match:  results.Match{Pairing: "a-vs-b", Pair: k, Index: 2*k + idx},
				Record: rec,
			})
		}
	}
	return out
}

// With every pair won, the pair Elo is +inf and the interval a one-sided
// bound from the binomial; with every pair drawn it is unknown; with
// varied pairs it is a two-sided interval. Exports keep the sign of an
// infinite value as a string.
func TestPairIntervalsDegenerate(t *testing.T) {
	l := results.League{Name: "x", Format: leaguefile.RoundRobin}
	won := Compute(l, []string{"a", "b"}, 6, pairGames([][2]float64{{1, 1}, {1, 1}, {1, 1}}))
	p := won.Pairs[0]
	wantLo := ratings.EloFromScore(math.Pow(0.025, 1.0/3))
	if !math.IsInf(p.Elo, 1) || !math.IsInf(p.EloHi, 1) || math.Abs(p.EloLo-wantLo) > 1e-9 || !strings.Contains(p.Note, "all 3 pair(s) won") {
		t.Errorf("all won: %+v, want +inf, lower bound %.1f", p, wantLo)
	}
	var text strings.Builder
	if err := won.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "≥ "+fmtElo(wantLo)+" (one-sided") || strings.Contains(text.String(), "[+inf") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(text.String(), "pair ELO: the first agent over the second from these pairs alone") {
		t.Errorf("no line on pair Elo against fitted Elo:\n%s", text.String())
	}
	var js strings.Builder
	if err := WriteStandings(&js, "json", []*Standings{won}); err != nil {
		t.Fatal(err)
	}
	var decoded []struct {
		Pairs []map[string]any `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(js.String()), &decoded); err != nil {
		t.Fatal(err)
	}
	if got := decoded[0].Pairs[0]["elo"]; got != "+inf" {
		t.Errorf("JSON pair elo = %#v, want the string +inf", got)
	}
	if got := decoded[0].Pairs[0]["elo_hi"]; got != "+inf" {
		t.Errorf("JSON pair elo_hi = %#v, want the string +inf", got)
	}
	var csv strings.Builder
	if err := WriteStandings(&csv, "csv", []*Standings{won}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(csv.String(), "Inf") {
		t.Errorf("CSV spells infinity Go's way:\n%s", csv.String())
	}

	drawn := Compute(l, []string{"a", "b"}, 4, pairGames([][2]float64{{1, 0}, {0, 1}}))
	if p := drawn.Pairs[0]; !math.IsNaN(p.EloLo) || p.Note != "too few games" {
		t.Errorf("all pairs 1-1: %+v, want no interval", p)
	}
	text.Reset()
	_ = drawn.WriteText(&text)
	if !strings.Contains(text.String(), naInterval) || strings.Contains(text.String(), "[0, 0]") {
		t.Errorf("text:\n%s", text.String())
	}

	varied := Compute(l, []string{"a", "b"}, 8, pairGames([][2]float64{{1, 0}, {1, 0.5}, {0, 0.5}, {1, 1}}))
	if p := varied.Pairs[0]; p.Note != "" || !(p.EloLo < p.Elo && p.Elo < p.EloHi) || math.IsInf(p.EloHi, 0) {
		t.Errorf("varied pairs: %+v, want a finite two-sided interval", p)
	}
}

// Agents with equal results share a rank.
func TestTiesShareRank(t *testing.T) {
	l := results.League{Name: "x", Format: leaguefile.RoundRobin}
	// a and b split their pair; c loses both pairs to each.
	games := pairGames([][2]float64{{1, 0}})
	for _, g := range pairGames([][2]float64{{1, 1}}) {
		g.Match.Pairing = "a-vs-c"
		for s := range 2 {
			if g.Record.Agents[s].Name == "b" {
				g.Record.Agents[s].Name = "c"
			}
		}
		games = append(games, g)
	}
	for _, g := range pairGames([][2]float64{{1, 1}}) {
		g.Match.Pairing = "b-vs-c"
		for s := range 2 {
			switch g.Record.Agents[s].Name {
			case "a":
				g.Record.Agents[s].Name = "b"
			case "b":
				g.Record.Agents[s].Name = "c"
			}
		}
		games = append(games, g)
	}
	s := Compute(l, []string{"a", "b", "c"}, len(games), games)
	ranks := map[string]int{}
	for _, r := range s.Rows {
		ranks[r.Agent] = r.Rank
	}
	if ranks["a"] != 1 || ranks["b"] != 1 || ranks["c"] != 3 {
		t.Errorf("ranks %v, want a and b tied first, c third", ranks)
	}
}
