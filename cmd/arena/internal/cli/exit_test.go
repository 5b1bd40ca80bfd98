package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

// TestExitStatusTable runs each row of the exit-status table through the
// CLI in-process: what the command returns, the status main exits with,
// and what main prints.
func TestExitStatusTable(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	dir := t.TempDir()
	syntax := clitest.WriteScript(t, dir, "syntax.lua", "function choose_move(s)\n  return 1\nend end\n", 0o644)
	league := filepath.Join(dir, "l.yaml")
	if err := os.WriteFile(league, []byte("name: l\ngame: bohnenspiel\nagents:\n  - {name: r, agent: random}\n  - {name: s, agent: \"lua:syntax.lua\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		code  int
		print []string // in what main prints
	}{
		{"unknown subcommand", []string{"league", "frobnicate", "x.yaml"}, ExitSetup, []string{`unknown command "frobnicate" for arena league`, "Usage: arena league COMMAND"}},
		{"unknown command", []string{"foo"}, ExitSetup, []string{`unknown command "foo" for arena`, "Usage: arena COMMAND"}},
		{"missing subcommand", []string{"rules"}, ExitSetup, []string{"arena rules needs a command: verify"}},
		{"wrong arguments", []string{"play", "bohnenspiel"}, ExitSetup, []string{"accepts 3 arg(s)", "Usage: arena play GAME AGENT1 AGENT2"}},
		{"unknown flag", []string{"play", "--gamez", "3", "a", "b", "c"}, ExitSetup, []string{"unknown flag: --gamez", "Usage: arena play"}},
		{"missing required flag", []string{"check", "random"}, ExitSetup, []string{"required flag --game not set", "Usage: arena check"}},
		{"missing agent file", []string{"play", "bohnenspiel", "random", "lua:" + filepath.Join(dir, "none.lua")}, ExitSetup, []string{"none.lua"}},
		{"lua syntax error in play", []string{"play", "bohnenspiel", "random", "lua:" + syntax}, ExitBroken, []string{"syntax.lua:3:"}},
		{"lua syntax error in a league", []string{"league", "run", league}, ExitBroken, []string{"syntax.lua:3:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, out, _ := testEnv(t)
			err := run(t, e, c.args...)
			if got := exitStatus(context.Background(), err); got != c.code {
				t.Fatalf("exit status %d, want %d (%v)", got, c.code, err)
			}
			var printed bytes.Buffer
			reportError(&printed, err)
			for _, w := range c.print {
				if !strings.Contains(printed.String(), w) {
					t.Errorf("printed lacks %q:\n%s", w, printed.String())
				}
			}
			if strings.Contains(out.String(), "Available Commands") {
				t.Errorf("help printed instead of an error:\n%s", out)
			}
		})
	}
}

// TestInterruptedExits130: whatever error an interruption causes, the
// status is 130; an error without one keeps its own status.
func TestInterruptedExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e, _, _ := testEnv(t)
	root := NewRoot(e)
	root.SetArgs([]string{"play", "bohnenspiel", "random", "greedy", "--games", "2"})
	err := root.ExecuteContext(ctx)
	if err == nil {
		t.Fatal("an interrupted play returned no error")
	}
	if got := exitStatus(ctx, err); got != ExitInterrupted {
		t.Fatalf("interrupted play: exit status %d (%v)", got, err)
	}
	if got := exitStatus(context.Background(), &agentRefusedError{errors.New("x")}); got != ExitBroken {
		t.Fatalf("refusal: exit status %d", got)
	}
	if got := exitStatus(ctx, nil); got != ExitOK {
		t.Fatalf("a command that ended well after a signal (serve): exit status %d", got)
	}
}
