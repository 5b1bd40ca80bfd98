package league_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league"
	"arena/arena/record"
	"arena/arena/results"
	"arena/engine"
	"arena/games/all"
)

// A league file may override a profile's penalty for a failure kind; the
// override is applied, shown like any other and part of the league's
// configuration hash.
func TestPenaltyOverride(t *testing.T) {
	dir := t.TempDir()
	load := func(body string) (*league.Spec, error) {
		file := filepath.Join(dir, "hex.yaml")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return league.Load(file, league.Options{Registry: all.Registry(), Cores: 2})
	}
	base := "game: hex-crossout\nparams:\n  free: \"20\"\n" + twoAgents
	plain, err := load(base)
	if err != nil {
		t.Fatal(err)
	}
	s, err := load(base + "penalties:\n  dead: loss\n")
	if err != nil {
		t.Fatal(err)
	}
	l := s.Leagues[0]
	if got := l.Profile.PenaltyFor(engine.FailDead); got != engine.Loss {
		t.Fatalf("dead penalty %s, want loss", got)
	}
	if plain.Leagues[0].Profile.PenaltyFor(engine.FailDead) != engine.SkipTurn {
		t.Fatal("the course profile's own dead-agent rule changed")
	}
	found := false
	for _, o := range l.Overrides {
		found = found || o.String() == "penalty.dead: skip-turn -> loss"
	}
	if !found || l.Hash == plain.Leagues[0].Hash {
		t.Fatalf("override not recorded: %v (hash changed: %v)", l.Overrides, l.Hash != plain.Leagues[0].Hash)
	}
	for body, want := range map[string]string{
		base + "penalties:\n  crash: loss\n":                                             `penalties.crash`,
		base + "penalties:\n  dead: lose\n":                                              `want one of loss, random-move`,
		base + "penalties:\n  timeout: as-timeout\n":                                     `refers back to itself`,
		"game: cachex\nparams:\n  n: \"5\"\npenalties:\n  dead: skip-turn\n" + twoAgents: `no skipped turns`,
	} {
		if _, err := load(body); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}

// Games decided by the dead-agent rule (turns skipped) are marked in the
// standings, with who had turns skipped.
func TestStandingsMarkSkippedGames(t *testing.T) {
	game := func(id string, skippedSeat int, winner int) results.Game {
		rec := &record.Game{Schema: record.SchemaVersion, ID: id, Game: "hex-crossout",
			Agents: [2]record.Agent{{Name: "crasher"}, {Name: "steady"}},
			Result: record.Result{Winner: winner}}
		rec.Moves = append(rec.Moves, record.Move{Ply: 0, Seat: 0, Source: record.SourceAgent, Text: "0,0,1,1"})
		if skippedSeat >= 0 {
			rec.Moves = append(rec.Moves, record.Move{Ply: 1, Seat: skippedSeat, Source: record.SourceSkip})
		}
		return results.Game{Match: results.Match{ID: id, Pairing: "crasher-vs-steady"}, Record: rec}
	}
	l := results.League{Name: "hex", Game: "hex-crossout", Profile: "nycu-aicap-2023", Format: league.RoundRobin,
		Overrides: []string{"penalty.dead: skip-turn -> loss"}}
	s := league.Compute(l, []string{"crasher", "steady"}, 3, []results.Game{game("a", 0, 0), game("b", -1, 1), game("c", 0, 0)})
	if s.Skipped != 2 {
		t.Fatalf("%d skipped games, want 2", s.Skipped)
	}
	var buf bytes.Buffer
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"override penalty.dead: skip-turn -> loss", "crasher *", "steady *", "* 2 game(s) decided with a dead agent's turns skipped", "crasher 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("standings lack %q:\n%s", want, out)
		}
	}
	rows := league.GameRows([]results.Game{game("a", 0, 0), game("b", -1, 1)})
	if len(rows[0].Skipped) != 1 || rows[0].Skipped[0] != "crasher" || rows[1].Skipped != nil {
		t.Errorf("games export marks %v and %v", rows[0].Skipped, rows[1].Skipped)
	}
	buf.Reset()
	if err := league.WriteStandings(&buf, "json", []*league.Standings{s}); err != nil || !strings.Contains(buf.String(), `"skipped_games": 2`) {
		t.Errorf("standings JSON lacks the skipped games (%v):\n%s", err, buf.String())
	}
}
