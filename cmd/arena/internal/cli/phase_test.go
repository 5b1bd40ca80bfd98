package cli

import (
	"strings"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
)

// A phase says what it is doing once it has run past the delay, and how
// long it took; a quick phase says nothing.
func TestAnnounceSlow(t *testing.T) {
	e, _, errb := testEnv(t)
	e.PhaseAfter = time.Hour
	e.announceSlow("building")()
	if errb.Len() != 0 {
		t.Errorf("a phase ended before the delay printed %q", errb)
	}
	e.PhaseAfter = -1
	e.announceSlow("building")()
	if errb.String() != "building...\n" {
		t.Errorf("printed %q", errb)
	}
}

// league run says what it does from its first moment: loading the file,
// then the pre-flight check, before any game.
func TestLeagueRunSpeaksAtOnce(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	file := clitest.LeagueFile(t, t.TempDir(), "s.yaml", "")
	e, out, errb := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	lines := strings.Split(errb.String(), "\n")
	if lines[0] != "league file "+file+": loading, checking and building agents" {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.Contains(errb.String(), "pre-flight check: starting 2 agent(s) once each") {
		t.Errorf("no pre-flight line:\n%s", errb)
	}
}
