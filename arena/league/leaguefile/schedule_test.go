package leaguefile_test

import (
	"fmt"
	"strings"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
)

func agentsYAML(names ...string) string {
	var b strings.Builder
	b.WriteString("agents:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  - name: %s\n    agent: builtin:random\n", n)
	}
	return b.String()
}

func load(t *testing.T, body string) *leaguefile.Spec {
	t.Helper()
	s, err := leaguefile.Load(leaguefiletest.Write(t, "sched.yaml", body), leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRoundRobinSchedule(t *testing.T) {
	s := load(t, "game: bohnenspiel\ngames_per_pairing: 6\nseed: 5\n"+agentsYAML("a", "b", "c", "d"))
	l := s.Leagues[0]
	sched := l.Schedule()
	if want := 4 * 3 / 2 * 6; len(sched) != want {
		t.Fatalf("%d games, want %d", len(sched), want)
	}
	perPairing := map[string]int{}
	perAgent := map[string]int{}
	firstMover := map[string]int{}
	ids := map[string]bool{}
	for i, m := range sched {
		if m.Seq != i || m.League != l.Name {
			t.Fatalf("match %d: %+v", i, m)
		}
		if ids[m.ID] {
			t.Fatalf("duplicate id %s", m.ID)
		}
		ids[m.ID] = true
		perPairing[m.Pairing]++
		perAgent[m.Seats[0]]++
		perAgent[m.Seats[1]]++
		firstMover[m.Seats[0]]++
		if m.Seed >= 1<<52 {
			t.Errorf("seed %d over 52 bits", m.Seed)
		}
	}
	if len(perPairing) != 6 {
		t.Errorf("pairings %v", perPairing)
	}
	for p, n := range perPairing {
		if n != 6 {
			t.Errorf("pairing %s has %d games", p, n)
		}
	}
	for a, n := range perAgent {
		if n != 18 || firstMover[a] != 9 {
			t.Errorf("agent %s: %d games, %d moving first", a, n, firstMover[a])
		}
	}
	// Colour-swapped pairs: consecutive games of a pairing, seats swapped,
	// same seed; different pairs have different seeds.
	seeds := map[uint64]string{}
	for i := 0; i < len(sched); i += 2 {
		x, y := sched[i], sched[i+1]
		if x.Pairing != y.Pairing || x.Pair != y.Pair || x.Index != 2*x.Pair || y.Index != x.Index+1 {
			t.Fatalf("games %d, %d are not a pair: %+v %+v", i, i+1, x, y)
		}
		if x.Seats[0] != y.Seats[1] || x.Seats[1] != y.Seats[0] {
			t.Fatalf("pair %+v %+v does not swap colours", x, y)
		}
		if x.Seed != y.Seed {
			t.Fatalf("pair %s/%d has seeds %d and %d", x.Pairing, x.Pair, x.Seed, y.Seed)
		}
		if prev, dup := seeds[x.Seed]; dup {
			t.Fatalf("seed %d used by %s and %s/%d", x.Seed, prev, x.Pairing, x.Pair)
		}
		seeds[x.Seed] = fmt.Sprintf("%s/%d", x.Pairing, x.Pair)
		if !strings.Contains(x.ID, "-ab-") || !strings.Contains(y.ID, "-ba-") || !strings.Contains(x.ID, fmt.Sprint(x.Seed)) {
			t.Fatalf("ids %s, %s do not show seat order and seed", x.ID, y.ID)
		}
	}
	// The first pair of every pairing comes before any second pair.
	for i := range 6 * 2 {
		if sched[i].Pair != 0 {
			t.Fatalf("game %d is of pair %d before all first pairs", i, sched[i].Pair)
		}
	}

	// Deterministic: the same file gives the same schedule; another seed
	// or league name gives other ids and seeds.
	again := load(t, "game: bohnenspiel\ngames_per_pairing: 6\nseed: 5\n"+agentsYAML("a", "b", "c", "d")).Leagues[0].Schedule()
	for i := range sched {
		if sched[i] != again[i] {
			t.Fatalf("schedule differs at %d: %+v vs %+v", i, sched[i], again[i])
		}
	}
	other := load(t, "game: bohnenspiel\ngames_per_pairing: 6\nseed: 6\n"+agentsYAML("a", "b", "c", "d")).Leagues[0].Schedule()
	if other[0].Seed == sched[0].Seed || other[0].ID == sched[0].ID {
		t.Error("another base seed gives the same first game")
	}
	// Adding games keeps the existing ones (ids and seeds): a league
	// extended with --force keeps its played games.
	more := load(t, "game: bohnenspiel\ngames_per_pairing: 8\nseed: 5\n"+agentsYAML("a", "b", "c", "d")).Leagues[0].Schedule()
	moreIDs := map[string]bool{}
	for _, m := range more {
		moreIDs[m.ID] = true
	}
	for id := range ids {
		if !moreIDs[id] {
			t.Fatalf("game %s is gone from the longer schedule", id)
		}
	}
}

func TestGauntletSchedule(t *testing.T) {
	s := load(t, "game: bohnenspiel\nformat: gauntlet\nchallenger: c\ngames_per_pairing: 4\n"+agentsYAML("a", "b", "c", "d"))
	sched := s.Leagues[0].Schedule()
	if len(sched) != 3*4 {
		t.Fatalf("%d games, want 12", len(sched))
	}
	for _, m := range sched {
		if m.Seats[0] != "c" && m.Seats[1] != "c" {
			t.Fatalf("game without the challenger: %+v", m)
		}
		if !strings.HasPrefix(m.Pairing, "c-vs-") {
			t.Fatalf("pairing %s does not start with the challenger", m.Pairing)
		}
	}
}

func TestABSchedule(t *testing.T) {
	s := load(t, "game: bohnenspiel\nformat: ab\ngames_per_pairing: 10\n"+agentsYAML("new", "old"))
	sched := s.Leagues[0].Schedule()
	if len(sched) != 10 || sched[0].Pairing != "new-vs-old" || sched[0].Seats != [2]string{"new", "old"} || sched[1].Seats != [2]string{"old", "new"} {
		t.Fatalf("schedule %+v", sched)
	}
	if _, err := leaguefile.Load(leaguefiletest.Write(t, "x.yaml", "game: bohnenspiel\nformat: ab\n"+agentsYAML("a", "b", "c")), leaguefiletest.Options()); err == nil {
		t.Fatal("ab with three agents loaded")
	}
}
