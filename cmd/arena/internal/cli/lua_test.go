package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

// TestPlayReportsLuaSyntaxErrorFirst: a Lua agent that does not compile
// is reported with its file and line before any game starts.
func TestPlayReportsLuaSyntaxErrorFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.lua")
	src := "function choose_move(state)\n  return state:legal_moves()[1]\nend end\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, _ := testEnv(t)
	// No agent may start: a launch would fail loudly.
	e.Launcher.Self = []string{filepath.Join(t.TempDir(), "no-such-arena")}
	e.Launcher.Init = os.Args[0] // the sandbox's init still exists
	err := run(t, e, "play", "bohnenspiel", "lua:"+path+"?depth=2", "random", "--games", "3")
	if err == nil || !strings.Contains(err.Error(), path+":3: syntax error near 'end'") {
		t.Fatalf("error %v; want the script's file and line", err)
	}
	if out.Len() != 0 {
		t.Fatalf("output before the error: %q", out.String())
	}
}

// TestPlayLuaAgent plays a Lua example against builtin random through the
// CLI, the script running in the arena binary as an agent subprocess.
func TestPlayLuaAgent(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	e, out, _ := testEnv(t)
	ref := "lua:../../../../agents/lua/examples/bohnenspiel.lua?depth=2"
	if err := run(t, e, "play", "bohnenspiel", ref, "random", "--games", "2", "--seed", "3"); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	var row string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "bohnenspiel.lua ") {
			row = line
		}
	}
	f := strings.Fields(row)
	// AGENT GAMES W D L POINTS AVG-SCORE PENALTIES
	if len(f) != 8 || f[1] != "2" || f[2] != "2" || f[7] != "-" {
		t.Fatalf("want two clean wins for the script:\n%s", out)
	}
}
