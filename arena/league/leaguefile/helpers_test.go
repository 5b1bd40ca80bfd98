package leaguefile_test

import (
	"os"
	"path/filepath"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/games/all"
)

func loadOpts() leaguefile.Options {
	return leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2}
}

// writeFile writes a league file into a fresh directory.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
