package classleague

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/cli"
	"arena/cmd/arena/internal/clitest/inproc"
)

// A league of a submissions folder plays among the submissions arena can
// run, says which it left out and why, and writes that beside the results.
// It is the package's test under -short: six games.
func TestLeagueFromSubmissionsFolder(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	script := "function choose_move(state, clock) return state:legal_moves()[1] end\n"
	for name, body := range map[string]string{
		"ann.lua":       script,
		"bob/agent.lua": script,
		"cy/notes.txt":  "nothing to run\n",
	} {
		p := filepath.Join(subs, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "class.yaml")
	if err := os.WriteFile(file, []byte("game: bohnenspiel\nentrants:\n  dir: submissions\nagents:\n  - name: house\n    agent: builtin:random\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	e, stdout, stderr := inproc.Env(t)
	if err := inproc.Run(t, e, "league", "run", file, "--output", out); err != nil {
		t.Fatalf("league run: %v\n%s\n%s", err, stdout, stderr)
	}
	for _, want := range []string{"1 submission(s) left out", filepath.Join(subs, "cy"), "fix: add arena-entrant.yaml"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	report, err := os.ReadFile(filepath.Join(out, cli.RefusedFile))
	if err != nil || !strings.Contains(string(report), filepath.Join(subs, "cy")) {
		t.Errorf("report %q, %v: want cy named", report, err)
	}
	for _, name := range []string{"ann", "bob", "house"} {
		if !strings.Contains(stdout.String(), name) {
			t.Errorf("standings lack %s:\n%s", name, stdout)
		}
	}
}
