package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
)

// A class's league, then its feedback: one page per entrant and an index
// with --all, one entrant's Markdown on standard output, and progress on
// standard error.
func TestLeagueReportWritesFeedback(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "function choose_move(state, clock) return state:legal_moves()[1] end\n"
	if err := os.WriteFile(filepath.Join(subs, "ann.lua"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "class.yaml")
	// The course's 6 s start-up allowance is not this test's subject: a
	// loaded machine (load average 43) once took longer to start the
	// built-in agent, and the pre-flight check refused it.
	league := "game: hex-crossout\nparams: {free: 12, seed: 2}\nentrants:\n  dir: submissions\nagents:\n  - name: house\n    agent: builtin:greedy\noverrides:\n  startup-timeout: 2m\n"
	if err := os.WriteFile(file, []byte(league), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	e, stdout, stderr := testEnv(t)
	e.PreflightTimeout = 2 * time.Minute
	if err := run(t, e, "league", "run", file, "--output", out, "--quiet"); err != nil {
		t.Fatalf("league run: %v\n%s\n%s", err, stdout, stderr)
	}
	pages := filepath.Join(dir, "feedback")
	e, stdout, stderr = testEnv(t)
	if err := run(t, e, "league", "report", out, "--all", pages, "--nodes", "20000"); err != nil {
		t.Fatalf("league report --all: %v\n%s", err, stderr)
	}
	for _, want := range []string{"feedback for house (1 of 2)", "feedback for ann (2 of 2)", "analysing lost game 1 of 1: class/", "wrote 2 page(s)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	index, err := os.ReadFile(filepath.Join(pages, "index.html"))
	if err != nil || !strings.Contains(string(index), `href="ann.html"`) {
		t.Errorf("index: %v\n%.400s", err, index)
	}
	for _, name := range []string{"ann", "house"} {
		page, err := os.ReadFile(filepath.Join(pages, name+".html"))
		if err != nil || !strings.Contains(string(page), "Feedback for "+name) || !strings.Contains(string(page), "<iframe") {
			t.Errorf("%s's page: %v", name, err)
		}
	}
	e, stdout, stderr = testEnv(t)
	if err := run(t, e, "league", "report", out, "--entrant", "ann", "--format", "md", "--max-games", "-1"); err != nil {
		t.Fatalf("league report --entrant: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout.String(), "# Feedback for ann") || !strings.Contains(stdout.String(), "0 of ") {
		t.Errorf("Markdown with no game analysed:\n%s", stdout)
	}
	e, _, _ = testEnv(t)
	if err := run(t, e, "league", "report", out); err == nil || !strings.Contains(err.Error(), "--entrant NAME or --all DIR") {
		t.Errorf("neither --entrant nor --all: %v", err)
	}
}
