package authoring

import (
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
)

func TestPlayAgentBinaryByPath(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	bin, err := clitest.Binary(clitest.SDKAgentPkg)
	if err != nil {
		t.Fatal(err)
	}
	e, out, errb := inproc.Env(t)
	if err := inproc.Run(t, e, "play", "pentago-twist", bin, "random", "--games", "2"); err != nil {
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
