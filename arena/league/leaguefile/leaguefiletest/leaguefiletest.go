// Package leaguefiletest helps tests load league files: a file written
// into a fresh temporary folder, and the load options tests share (every
// game registered, no ARENA_* environment, two cores).
package leaguefiletest

import (
	"os"
	"path/filepath"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/games/all"
)

// Options loads with every game, ignores the environment and plans for
// two cores, so a test's concurrency does not depend on the machine.
func Options() leaguefile.Options {
	return leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2}
}

// Write writes a league file named name into a fresh directory and
// returns its path.
func Write(t testing.TB, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
