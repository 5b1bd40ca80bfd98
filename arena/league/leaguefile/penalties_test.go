package leaguefile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/engine"
	"arena/games/all"
)

// A league file may override a profile's penalty for a failure kind; the
// override is applied, shown like any other and part of the league's
// configuration hash.
func TestPenaltyOverride(t *testing.T) {
	dir := t.TempDir()
	load := func(body string) (*leaguefile.Spec, error) {
		file := filepath.Join(dir, "hex.yaml")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Cores: 2})
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
