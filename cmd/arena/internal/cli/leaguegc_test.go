package cli

import (
	"runtime/debug"
	"testing"
)

func TestLeagueGCTarget(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	debug.SetGCPercent(100)
	leagueGC()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GOGC unset: collector target %d %%, want 400", got)
	}
	// The user's GOGC (which the runtime read at start) is left alone.
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	leagueGC()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GOGC=50: collector target %d %%, want 50 kept", got)
	}
}
