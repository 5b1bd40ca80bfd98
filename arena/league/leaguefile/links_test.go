package leaguefile_test

import (
	"testing"

	"arena/internal/linkcheck"
)

// Reading league files needs no results store: this package (and plan and
// standings, built on it) links results' types without SQLite, whose link
// costs about a CPU second in every test binary that carries it.
func TestLeagueFilesLinkNoDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	linkcheck.Refuse(t, true, "modernc.org/sqlite", "arena/arena/results/resultsdb")
}
