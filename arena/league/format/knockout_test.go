package format

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBracketOrder(t *testing.T) {
	if got := fmt.Sprint(BracketOrder(8)); got != "[1 8 4 5 2 7 3 6]" {
		t.Errorf("BracketOrder(8) = %s", got)
	}
	if got := fmt.Sprint(BracketOrder(2)); got != "[1 2]" {
		t.Errorf("BracketOrder(2) = %s", got)
	}
}

// higherWins has the entrant earlier in seeds win every game.
func higherWins(seeds []string) func(Game) float64 {
	return func(g Game) float64 {
		if slices.Index(seeds, g.A) < slices.Index(seeds, g.B) {
			return 1
		}
		return 0
	}
}

func TestKnockoutByes(t *testing.T) {
	seeds := names(5)
	k, err := NewKnockout(0, seeds, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	first := k.Next(nil)
	// Eight slots for five: seeds 1, 2 and 3 have byes; 4 meets 5.
	if len(first) != 2 || first[0].Pairing() != "e03-vs-e04" {
		t.Fatalf("first round %v, want e03-vs-e04 only", first)
	}
	res := playWith(t, k, higherWins(seeds))
	if len(res) != k.Planned() {
		t.Errorf("%d games, planned %d", len(res), k.Planned())
	}
	b := k.Bracket(res)
	var got []string
	for r, ms := range b.Rounds {
		for _, m := range ms {
			got = append(got, fmt.Sprintf("%d:%s-%s>%s(%s)", r+1, m.A, m.B, m.Winner, m.By))
		}
	}
	want := "[1:e00->e00(bye) 1:e03-e04>e03(points) 1:e01->e01(bye) 1:e02->e02(bye) " +
		"2:e00-e03>e00(points) 2:e01-e02>e01(points) 3:e00-e01>e00(points)]"
	if fmt.Sprint(got) != want {
		t.Errorf("bracket\n got %v\nwant %s", got, want)
	}
	var text strings.Builder
	b.WriteText(&text)
	for _, want := range []string{"round 1: e00 bye; e03 2-0 e04: e03 (points); e01 bye; e02 bye", "winner: e00"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("bracket text lacks %q:\n%s", want, text.String())
		}
	}
	if r := k.Ranking(res); fmt.Sprint(r) != "[e00 e01 e02 e03 e04]" {
		t.Errorf("ranking %v", r)
	}
}

func TestKnockoutTieBreak(t *testing.T) {
	seeds := []string{"top", "low"}
	// Every game a draw: one extra pair, then the higher seed.
	k, _ := NewKnockout(0, seeds, 2, 1)
	res := playWith(t, k, func(Game) float64 { return 0.5 })
	if len(res) != 4 {
		t.Fatalf("%d games, want 2 + one extra pair", len(res))
	}
	if m := k.Bracket(res).Rounds[0][0]; m.Winner != "top" || m.By != "higher seed" {
		t.Errorf("drawn match: %+v, want top by higher seed", m)
	}
	// Tied after the match, the lower seed wins the extra pair.
	res = playWith(t, k, func(g Game) float64 {
		if g.Pair == 0 {
			return float64(g.Index % 2) // one win each
		}
		return 0
	})
	if m := k.Bracket(res).Rounds[0][0]; m.Winner != "low" || m.By != "extra pairs" || m.Games != 4 {
		t.Errorf("match won in the extra pair: %+v", m)
	}
	// No extra pairs: straight to the higher seed.
	k0, _ := NewKnockout(0, seeds, 2, 0)
	res = playWith(t, k0, func(Game) float64 { return 0.5 })
	if m := k0.Bracket(res).Rounds[0][0]; len(res) != 2 || m.Winner != "top" || m.By != "higher seed" {
		t.Errorf("drawn match without extra pairs: %d games, %+v", len(res), m)
	}
}

func TestKnockoutFields(t *testing.T) {
	for n := 2; n <= 33; n++ {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		k, err := NewKnockout(0, names(n), 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		res := play(t, k, rng)
		b := k.Bracket(res)
		byes := 0
		for _, m := range b.Rounds[0] {
			if m.By == "bye" {
				byes++
			}
		}
		slots := 1
		for slots < n {
			slots *= 2
		}
		if byes != slots-n {
			t.Errorf("%d entrants: %d byes, want %d", n, byes, slots-n)
		}
		last := b.Rounds[len(b.Rounds)-1]
		if len(last) != 1 || last[0].Winner == "" {
			t.Errorf("%d entrants: no champion: %+v", n, last)
		}
		if r := k.Ranking(res); len(r) != n || r[0] != last[0].Winner {
			t.Errorf("%d entrants: ranking %v", n, r)
		}
	}
}

func TestStaticSchedules(t *testing.T) {
	rr, _ := RoundRobin([]string{"a", "b", "c"}, 4)
	all := rr.All()
	if len(all) != rr.Planned() || rr.Planned() != 12 {
		t.Fatalf("round robin: %d games, planned %d", len(all), rr.Planned())
	}
	if g := all[3]; g.Pairing() != "a-vs-c" || g.Index != 1 || g.Seats() != [2]string{"c", "a"} {
		t.Errorf("fourth game %+v", g)
	}
	g, _ := Gauntlet("c", []string{"a", "b", "c"}, 2)
	var got []string
	for _, x := range g.All() {
		got = append(got, x.Pairing())
	}
	if fmt.Sprint(got) != "[c-vs-a c-vs-a c-vs-b c-vs-b]" {
		t.Errorf("gauntlet %v", got)
	}
	res := playWith(t, rr, func(g Game) float64 { return map[string]float64{"a-vs-b": 0, "a-vs-c": 1, "b-vs-c": 1}[g.Pairing()] })
	if r := rr.Ranking(res); fmt.Sprint(r) != "[b a c]" {
		t.Errorf("ranking %v", r)
	}
	if rr.Next(res) != nil {
		t.Error("a played round robin hands out games")
	}
	if _, err := RoundRobin([]string{"a", "b"}, 3); err == nil {
		t.Error("odd games per pairing accepted")
	}
}

func TestStaged(t *testing.T) {
	ent := names(7)
	q, _ := NewSwiss(ent, 3, 2)
	s, err := NewStaged(q, len(ent), 4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	res := playWith(t, s, higherWins(ent))
	var ko []Result
	for _, r := range res {
		if r.Stage == 1 {
			ko = append(ko, r)
		}
	}
	if len(res)-len(ko) != q.Planned() || len(ko) != 3*2 {
		t.Fatalf("%d qualifier and %d knockout games", len(res)-len(ko), len(ko))
	}
	seeds := q.Ranking(res)[:4]
	if got := s.Knockout(res).entrants; fmt.Sprint(got) != fmt.Sprint(seeds) {
		t.Errorf("knockout seeds %v, want the qualifier's top four %v", got, seeds)
	}
	if r := s.Ranking(res); r[0] != "e00" || len(r) != 7 {
		t.Errorf("ranking %v", r)
	}
	if _, err := NewStaged(q, 7, 8, 2, 1); err == nil {
		t.Error("advancing more than the field accepted")
	}
}
