package classleague

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/league/preflightcache"
	"arena/cmd/arena/internal/clitest"
)

// A league run again in its directory does not start again an agent that
// passed the pre-flight check and is unchanged; a changed one is checked
// again, and a broken change is refused, not passed from the cache. The
// built-in, which has no content hash, is checked every run.
func TestPreflightPassKeptForUnchangedAgents(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	ann := filepath.Join(subs, "ann.lua")
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(ann, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(firstLegalLua)
	if err := os.WriteFile(filepath.Join(subs, "bob.lua"), []byte(firstLegalLua), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "class.yaml")
	if err := os.WriteFile(file, []byte("game: bohnenspiel\nentrants:\n  dir: submissions\nagents:\n  - name: house\n    agent: builtin:random\ngames_per_pairing: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	league := filepath.Join(dir, "out")
	kept := func(n string) string {
		return "pre-flight check: " + n + " agent(s) passed it in an earlier run and are unchanged"
	}

	_, stderr := submissionsRun(t, file, league)
	if !strings.Contains(stderr, "starting 3 agent(s)") || strings.Contains(stderr, "passed it in an earlier run") {
		t.Fatalf("first run: want every agent started:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(league, preflightcache.File)); err != nil {
		t.Fatalf("no pre-flight cache after a run: %v", err)
	}

	_, stderr = submissionsRun(t, file, league)
	if !strings.Contains(stderr, kept("2")) || !strings.Contains(stderr, "starting 1 agent(s)") {
		t.Errorf("unchanged run: want ann and bob kept and only the built-in started:\n%s", stderr)
	}

	write("-- second version\n" + firstLegalLua)
	_, stderr = submissionsRun(t, file, league)
	if !strings.Contains(stderr, kept("1")) || !strings.Contains(stderr, "starting 2 agent(s)") {
		t.Errorf("resubmission: want bob kept, ann and the built-in checked:\n%s", stderr)
	}

	write("local cfg = nil\ncfg.depth = 3\n" + firstLegalLua)
	stdout, stderr := submissionsRun(t, file, league)
	if !strings.Contains(stdout, "ann refused this run") || strings.Contains(stderr, kept("2")) {
		t.Errorf("broken resubmission: want ann checked and refused:\n%s\n%s", stdout, stderr)
	}
}
