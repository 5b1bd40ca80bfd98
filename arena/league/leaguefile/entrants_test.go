package leaguefile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
)

// entrantsDir makes a league file beside a submissions folder holding the
// given files (contents: a Lua agent that plays its first legal move).
func entrantsDir(t *testing.T, league string, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, "submissions", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		src := "function choose_move(state, clock) return state:legal_moves()[1] end\n"
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "class.yaml")
	if err := os.WriteFile(file, []byte(league), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A folder of submissions enters as agents beside the listed ones, each
// named after its file or folder; a submission arena cannot classify is
// left out with its reason, and the league is played among the rest.
func TestEntrantsFromFolder(t *testing.T) {
	file := entrantsDir(t, "game: bohnenspiel\nentrants:\n  dir: submissions\nagents:\n  - name: house\n    agent: builtin:greedy\n",
		"ann.lua", "bob/bot.lua", "cy/notes.txt", "bad name.lua")
	s, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range s.Leagues[0].Agents {
		names = append(names, a.Name+"="+string(a.Kind))
	}
	if got := strings.Join(names, " "); got != "house=builtin ann=lua bob=lua" {
		t.Errorf("agents %s, want house, ann and bob", got)
	}
	if len(s.Entrants) != 2 {
		t.Errorf("entrants %+v, want ann and bob", s.Entrants)
	}
	var refused []string
	for _, r := range s.Refused {
		refused = append(refused, filepath.Base(r.Source))
		if r.Reason == "" || r.Fix == "" {
			t.Errorf("refusal without reason or fix: %+v", r)
		}
	}
	if got := strings.Join(refused, " "); got != "cy bad name.lua" {
		t.Errorf("refused %q, want cy (nothing to run) and the unnamable one", got)
	}
}

// An entrant whose name a listed agent already has stops the load, naming
// the submission and the agent.
func TestEntrantNameClash(t *testing.T) {
	file := entrantsDir(t, "game: bohnenspiel\nentrants:\n  dir: submissions\nagents:\n  - name: ann\n    agent: builtin:greedy\n", "ann.lua", "bob.lua")
	_, err := leaguefile.Load(file, leaguefiletest.Options())
	if err == nil || !strings.Contains(err.Error(), "ann.lua") || !strings.Contains(err.Error(), "agents[0]") || !strings.Contains(err.Error(), "entrants.dir") {
		t.Fatalf("err %v, want the clash named with the key", err)
	}
	file = entrantsDir(t, "game: bohnenspiel\nentrants:\n  dir: nowhere\n")
	if _, err := leaguefile.Load(file, leaguefiletest.Options()); err == nil || !strings.Contains(err.Error(), "entrants.dir") {
		t.Fatalf("missing folder: %v", err)
	}
	file = entrantsDir(t, "game: bohnenspiel\nentrants:\n  glob: \"submissions/*.lua\"\n", "ann.lua", "bob.lua")
	s, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil || len(s.Leagues[0].Agents) != 2 || s.Leagues[0].Agents[1].Name != "bob" {
		t.Fatalf("glob: %v", err)
	}
}
