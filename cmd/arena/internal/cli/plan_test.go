package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// league plan prints a stage per line for a staged league and plays
// nothing: no league directory appears.
func TestLeaguePlanCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cup.yaml")
	body := "game: bohnenspiel\nformat: knockout\nqualifier: {format: round-robin, advance: 2}\nagents:\n" +
		"  - {name: a, agent: greedy}\n  - {name: b, agent: random}\n  - {name: c, agent: random}\n"
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "plan", file, "--workers", "3", "--cores", "6"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"league cup: round-robin qualifier, best 2 to a knockout, 3 game(s) at a time",
		"round-robin qualifier  6 ", "knockout               2 ", "total                  8 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "arena-results")); !os.IsNotExist(err) {
		t.Errorf("league plan made the league directory (%v)", err)
	}
}
