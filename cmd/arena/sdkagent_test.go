package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayAgentBinaryByPath(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "sdkagent")
	build := exec.Command("go", "build", "-o", bin, "./testdata/sdkagent")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the SDK agent: %v\n%s", err, out)
	}
	e, out, errb := testEnv(t)
	if err := run(t, e, "play", "pentago-twist", bin, "random", "--games", "2"); err != nil {
		t.Fatalf("play: %v\n%s", err, errb)
	}
	// The binary's row: 2 games, no penalties.
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "sdkagent" {
			if f[1] != "2" || f[len(f)-1] != "-" {
				t.Fatalf("row %q: want 2 games and no penalties", line)
			}
			return
		}
	}
	t.Fatalf("no row for the binary:\n%s", out)
}
