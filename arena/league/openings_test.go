package league_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/league/standings"
	"arena/arena/record"
	"arena/arena/results/resultsdb"
)

// bohnenspielSuite is an opening file of three Bohnenspiel prefixes.
const bohnenspielSuite = `# three openings
PIT 0 2; PIT 1 3
PIT 0 5; PIT 1 0; PIT 0 1
PIT 0 0   # one ply
`

func openingsLeague(t *testing.T, extra string) string {
	t.Helper()
	file := leaguefiletest.Write(t, "op.yaml", `
name: op
game: bohnenspiel
games_per_pairing: 4
concurrency: 2
seed: 9
agents:
  - {name: g1, agent: greedy}
  - {name: g2, agent: greedy}
  - {name: r1, agent: random}
`+extra)
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "bohnenspiel.txt"), []byte(bohnenspielSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A league with an opening suite, cancelled part-way and resumed, plays
// every game once, each from the opening its pair is given, both games of
// a pair from the same opening with the colours swapped, and a pairing's
// two pairs from two openings.
func TestOpeningsLeagueCancelledAndResumed(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	spec, out := loadLeague(t, openingsLeague(t, "openings: {file: '{game}.txt'}\n"))
	l := spec.Leagues[0]
	if l.Openings.Len() != 3 {
		t.Fatalf("%d openings loaded, want 3", l.Openings.Len())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pool := ownSlots(t, spec)
	run := func(stopAfter int) error {
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		played := 0
		return league.Run(rctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnGame: func(league.Progress) {
			if played++; played == stopAfter {
				stop()
			}
		}})
	}
	if err := run(4); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want cancelled", err)
	}
	if n := len(storedGames(t, out, "op")); n < 4 || n >= 12 {
		t.Fatalf("%d games stored after the cancel", n)
	}
	if err := run(0); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "op")
	if len(games) != 12 {
		t.Fatalf("%d games stored, want 3 pairings × 4", len(games))
	}
	ids := map[string]bool{}
	pairs := map[string]*record.Game{}
	used := map[string]map[int]bool{}
	for _, g := range games {
		if ids[g.Match.ID] {
			t.Errorf("match %s stored twice", g.Match.ID)
		}
		ids[g.Match.ID] = true
		rec, want := g.Record, l.OpeningOf(g.Match)
		if rec.Opening == nil || rec.Opening.Index != want.Index || !slices.Equal(rec.Opening.Moves, want.Moves) {
			t.Fatalf("%s played from %+v, want %+v", g.Match.ID, rec.Opening, want)
		}
		for i, m := range want.Moves {
			if rec.Moves[i].Source != record.SourceOpening || rec.Moves[i].Text != m {
				t.Errorf("%s: move %d %+v, want the opening's %q", g.Match.ID, i, rec.Moves[i], m)
			}
		}
		// Agents that did not see the opening as history would answer for
		// another position: illegal moves.
		for _, e := range rec.Events {
			if e.Kind == "illegal" || e.Kind == "unparseable" {
				t.Errorf("%s: %s at ply %d: %s", g.Match.ID, e.Kind, e.Ply, e.Detail)
			}
		}
		key := g.Match.Pairing + "#" + string(rune('0'+g.Match.Pair))
		if other, ok := pairs[key]; ok {
			if other.Opening.Index != rec.Opening.Index || other.Agents[0].Name != rec.Agents[1].Name {
				t.Errorf("pair %s: openings %d and %d, seats %v and %v", key, other.Opening.Index, rec.Opening.Index, other.Agents, rec.Agents)
			}
		}
		pairs[key] = rec
		if used[g.Match.Pairing] == nil {
			used[g.Match.Pairing] = map[int]bool{}
		}
		used[g.Match.Pairing][rec.Opening.Index] = true
	}
	for p, u := range used {
		if len(u) != 2 {
			t.Errorf("pairing %s played openings %v, want its two pairs on two", p, u)
		}
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := standings.Report(ctx, st, "op")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Pairs {
		if p.Penta.N() != 2 || p.Unpaired != 0 {
			t.Errorf("pairing %s: %v pairs, %d unpaired; want its two pairs, one per opening", p.Pairing, p.Penta, p.Unpaired)
		}
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "openings: 3 from a file (sha256 ") {
		t.Errorf("the standings do not name the suite:\n%s", text.String())
	}
}

// A suite is either a file or generated, not both; a bad line is an error
// naming the key, the file, its line and the move; a course agent cannot
// be given a position, so a league with one is refused.
func TestOpeningsKeysRefused(t *testing.T) {
	opt := leaguefiletest.Options()
	cases := []struct{ extra, want string }{
		{"openings: {file: bohnenspiel.txt, random: {plies: 2, count: 2}}\n", "not both"},
		{"openings: {random: {plies: 0, count: 2}}\n", "openings.random"},
		{"openings: {random: {plies: 4, count: 5000}}\n", "count 5000"},
		{"openings: {file: none.txt}\n", "openings.file"},
		{"openings: {random: {plies: 2, count: 2, deep: 3}}\n", "openings.random.deep"},
	}
	for _, c := range cases {
		_, err := leaguefile.Load(openingsLeague(t, c.extra), opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.extra, err, c.want)
		}
	}
	file := openingsLeague(t, "openings: {file: bohnenspiel.txt}\n")
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "bohnenspiel.txt"), []byte("PIT 0 2\nPIT 0 3; PIT 0 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := leaguefile.Load(file, opt)
	if err == nil || !strings.Contains(err.Error(), `bohnenspiel.txt:2: ply 1 "PIT 0 4"`) || !strings.Contains(err.Error(), "openings.file") {
		t.Errorf("error %v, want the key, the file, line 2, ply 1 and the move", err)
	}
	course := filepath.Join(filepath.Dir(file), "student")
	if err := os.MkdirAll(course, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(course, "agent.py"), []byte("def calculate_move(state):\n    return None\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(file)
	withCourse := strings.Replace(string(body), "  - {name: r1, agent: random}", "  - {name: r1, agent: random}\n  - {name: st, agent: 'course:student'}", 1)
	if err := os.WriteFile(file, []byte(withCourse), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "bohnenspiel.txt"), []byte(bohnenspielSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = leaguefile.Load(file, opt)
	if err == nil || !strings.Contains(err.Error(), "course agent") {
		t.Errorf("error %v, want a course agent refused", err)
	}
}

// The suite is part of the league's hash: an edited file is a changed
// league, and a league without a suite hashes as before suites existed.
func TestOpeningsInTheHash(t *testing.T) {
	file := openingsLeague(t, "openings: {file: bohnenspiel.txt}\n")
	a, _ := loadLeague(t, file)
	if err := os.WriteFile(filepath.Join(filepath.Dir(file), "bohnenspiel.txt"), []byte("PIT 0 2; PIT 1 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := loadLeague(t, file)
	if a.Leagues[0].Hash == b.Leagues[0].Hash {
		t.Error("an edited openings file left the league's hash as it was")
	}
	plain, _ := loadLeague(t, openingsLeague(t, ""))
	if strings.Contains(plain.Leagues[0].Config, "openings") || plain.Leagues[0].Openings != nil {
		t.Errorf("a league without openings has them in its configuration: %s", plain.Leagues[0].Config)
	}
	gen, _ := loadLeague(t, openingsLeague(t, "openings: {random: {plies: 4, count: 5}}\n"))
	if gen.Leagues[0].Openings.Len() != 5 || !strings.Contains(gen.Leagues[0].Config, `"random":{"plies":4,"count":5}`) {
		t.Errorf("generated suite: %d openings, configuration %s", gen.Leagues[0].Openings.Len(), gen.Leagues[0].Config)
	}
}

// The documented rule, applied by hand from the match ids: pair k of a
// pairing plays opening (s + k) mod N, s the seed in its g000 id.
func TestOpeningRuleFromMatchIDs(t *testing.T) {
	spec, _ := loadLeague(t, openingsLeague(t, "openings: {file: bohnenspiel.txt}\n"))
	l := spec.Leagues[0]
	first := map[string]uint64{}
	matches := l.Schedule()
	for _, m := range matches {
		if m.Index == 0 {
			_, seed, _ := strings.Cut(m.ID, "-s")
			s, err := strconv.ParseUint(seed, 10, 64)
			if err != nil {
				t.Fatalf("match id %s: %v", m.ID, err)
			}
			first[m.Pairing] = s
		}
	}
	for _, m := range matches {
		want := int((first[m.Pairing] + uint64(m.Pair)) % 3)
		if got := l.OpeningOf(m); got == nil || got.Index != want || !slices.Equal(got.Moves, l.Openings.Openings[want].Moves) {
			t.Errorf("%s (pair %d): opening %+v, want %d", m.ID, m.Pair, got, want)
		}
	}
}
