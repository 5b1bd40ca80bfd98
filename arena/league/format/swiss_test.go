package format

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// play drives a format to its end, drawing each unplayed game's result
// from rng, and returns the results in the order the games were handed out.
func play(t *testing.T, f Format, rng *rand.Rand) []Result {
	t.Helper()
	return playWith(t, f, func(Game) float64 { return float64(rng.IntN(3)) / 2 })
}

// playWith drives a format to its end with each game's result from outcome.
func playWith(t *testing.T, f Format, outcome func(Game) float64) []Result {
	t.Helper()
	var res []Result
	played := map[key]bool{}
	for step := 0; ; step++ {
		if step > 10000 {
			t.Fatal("format never ends")
		}
		games := f.Next(res)
		if games == nil {
			return res
		}
		progressed := false
		for _, g := range games {
			if played[g.key()] {
				continue
			}
			played[g.key()] = true
			progressed = true
			res = append(res, Result{Game: g, PointsA: outcome(g)})
		}
		if !progressed {
			t.Fatalf("Next handed out a round whose games are all played: %v", games)
		}
	}
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("e%02d", i)
	}
	return out
}

// pairable reports whether the entrants (a bitmask over n) can be paired
// with nobody meeting an earlier opponent: brute force, the property
// tests' independent judge.
func pairable(mask uint, n int, met func(i, j int) bool) bool {
	if mask == 0 {
		return true
	}
	i := 0
	for mask&(1<<i) == 0 {
		i++
	}
	for j := i + 1; j < n; j++ {
		if mask&(1<<j) != 0 && !met(i, j) && pairable(mask&^(1<<i|1<<j), n, met) {
			return true
		}
	}
	return false
}

func TestSwissProperties(t *testing.T) {
	for iter := range 400 {
		rng := rand.New(rand.NewPCG(uint64(iter), 7))
		n := 2 + rng.IntN(12)
		ent := names(n)
		rounds := 1 + rng.IntN(n-1+n%2)
		games := 2 * (1 + rng.IntN(2))
		s, err := NewSwiss(ent, rounds, games)
		if err != nil {
			t.Fatal(err)
		}
		res := play(t, s, rng)
		checkSwiss(t, iter, s, res)
		// The same results in another order give the same tournament.
		shuffled := slices.Clone(res)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if a, b := s.Table(res), s.Table(shuffled); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("iter %d: table depends on the results' order:\n%v\n%v", iter, a, b)
		}
		// Replayed with the same results, the same games in the same order.
		got := map[key]float64{}
		for _, x := range res {
			got[x.key()] = x.PointsA
		}
		again := playWith(t, s, func(g Game) float64 { return got[g.key()] })
		if fmt.Sprint(again) != fmt.Sprint(res) {
			t.Fatalf("iter %d: not deterministic", iter)
		}
	}
}

func checkSwiss(t *testing.T, iter int, s *Swiss, res []Result) {
	t.Helper()
	n := len(s.entrants)
	if len(res) != s.Planned() {
		t.Fatalf("iter %d: %d games, planned %d", iter, len(res), s.Planned())
	}
	met := map[[2]int]bool{}
	byes := map[string]bool{}
	for r := range s.rounds {
		var round []Result
		for _, x := range res {
			if x.Round == r {
				round = append(round, x)
			}
		}
		in := map[string]bool{}
		opp := map[string]string{}
		for _, x := range round {
			for _, p := range [][2]string{{x.A, x.B}, {x.B, x.A}} {
				if o, ok := opp[p[0]]; ok && o != p[1] {
					t.Fatalf("iter %d round %d: %s meets %s and %s", iter, r, p[0], o, p[1])
				}
				opp[p[0]] = p[1]
				in[p[0]] = true
			}
		}
		var bye []string
		for _, e := range s.entrants {
			if !in[e] {
				bye = append(bye, e)
			}
		}
		if len(bye) != n%2 {
			t.Fatalf("iter %d round %d: byes %v in a field of %d", iter, r, bye, n)
		}
		for _, b := range bye {
			if byes[b] {
				t.Fatalf("iter %d round %d: second bye for %s", iter, r, b)
			}
		}
		// Could this round have been paired without a repeat?
		avoidable := false
		metIJ := func(i, j int) bool { return met[[2]int{i, j}] || met[[2]int{j, i}] }
		all := uint(1)<<n - 1
		if n%2 == 0 {
			avoidable = pairable(all, n, metIJ)
		}
		for i, e := range s.entrants {
			if n%2 == 1 && !byes[e] && pairable(all&^(1<<i), n, metIJ) {
				avoidable = true
			}
		}
		for _, x := range round {
			i, j := s.start[x.A], s.start[x.B]
			if avoidable && metIJ(i, j) {
				t.Fatalf("iter %d round %d: %s meets %s again though a round without repeats existed", iter, r, x.A, x.B)
			}
		}
		for _, x := range round {
			met[[2]int{s.start[x.A], s.start[x.B]}] = true
		}
		for _, b := range bye {
			byes[b] = true
		}
	}
	checkLeads(t, iter, res)
	// Colour: over any prefix of the games in schedule order, an entrant's
	// first-seat and second-seat games differ by at most one.
	diff := map[string]int{}
	for _, x := range res {
		seats := x.Seats()
		diff[seats[0]]++
		diff[seats[1]]--
		for _, e := range seats {
			if diff[e] > 1 || diff[e] < -1 {
				t.Fatalf("iter %d: %s's colours differ by %d", iter, e, diff[e])
			}
		}
	}
}

// checkLeads: in each round, the entrant moving first in a pairing's
// first game has not moved first more often than its opponent.
func checkLeads(t *testing.T, iter int, res []Result) {
	t.Helper()
	leads := map[string]int{}
	seen := map[[3]string]bool{}
	var round []string
	last := -1
	for _, x := range res {
		if x.Round != last {
			for _, e := range round {
				leads[e]++
			}
			round, last = nil, x.Round
		}
		k := [3]string{fmt.Sprint(x.Round), x.A, x.B}
		if seen[k] {
			continue
		}
		seen[k] = true
		s := x.Seats()
		if leads[s[0]] > leads[s[1]] {
			t.Fatalf("iter %d round %d: %s leads with %d leads against %s's %d", iter, x.Round, s[0], leads[s[0]], s[1], leads[s[1]])
		}
		round = append(round, s[0])
	}
}

// TestSwissWorkedExample is the example of docs/leagues.md ("Swiss").
func TestSwissWorkedExample(t *testing.T) {
	s, err := NewSwiss([]string{"alpha", "bravo", "charlie", "delta", "echo"}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	// A's points in the pairing's game with A first, then with B first.
	outcomes := map[string][2]float64{
		"0 alpha-vs-bravo": {1, 1}, "0 charlie-vs-delta": {1, 0},
		"1 alpha-vs-charlie": {1, 0.5}, "1 delta-vs-echo": {1, 1},
		"2 alpha-vs-delta": {1, 0}, "2 bravo-vs-echo": {0.5, 0.5},
	}
	var rounds []string
	res := playWith(t, s, func(g Game) float64 {
		o, ok := outcomes[fmt.Sprint(g.Round, " ", g.Pairing())]
		if !ok {
			t.Fatalf("unexpected pairing in round %d: %s", g.Round+1, g.Pairing())
		}
		rounds = append(rounds, fmt.Sprintf("%d:%s-%s", g.Round+1, g.Seats()[0], g.Seats()[1]))
		return o[g.Index%2]
	})
	wantGames := "[1:alpha-bravo 1:bravo-alpha 1:charlie-delta 1:delta-charlie " +
		"2:alpha-charlie 2:charlie-alpha 2:echo-delta 2:delta-echo " +
		"3:delta-alpha 3:alpha-delta 3:bravo-echo 3:echo-bravo]"
	if got := fmt.Sprint(rounds); got != wantGames {
		t.Errorf("games\n got %s\nwant %s", got, wantGames)
	}
	var table []string
	for _, r := range s.Table(res).Rows {
		line := fmt.Sprintf("%d %s %g Bh %g SB %g:", r.Rank, r.Entrant, r.Points, r.Buchholz, r.SonnebornBerger)
		for _, rd := range r.Rounds {
			opp := rd.Opponent
			if opp == "" {
				opp = "bye"
			}
			line += fmt.Sprintf(" %s %g", opp, rd.Points)
		}
		table = append(table, line)
	}
	want := []string{
		"1 alpha 4.5 Bh 10.5 SB 15.25: bravo 2 charlie 1.5 delta 1",
		"2 delta 4 Bh 11 SB 14: charlie 1 echo 2 alpha 1",
		"3 charlie 3.5 Bh 8.5 SB 6.25: delta 1 alpha 0.5 bye 2",
		"4 bravo 3 Bh 7.5 SB 3: alpha 0 bye 2 echo 1",
		"5 echo 3 Bh 7 SB 3: bye 2 delta 0 bravo 1",
	}
	if fmt.Sprint(table) != fmt.Sprint(want) {
		t.Errorf("table\n got %q\nwant %q", table, want)
	}
	tbl := s.Table(res)
	var text strings.Builder
	if err := tbl.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"swiss, 3 of 3 rounds complete", "15.25", "bravo* 2", "charlie* 1.5", "bye 2", "echo* 1"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("table text lacks %q:\n%s", want, text.String())
		}
	}
}
