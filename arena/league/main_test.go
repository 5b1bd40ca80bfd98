package league_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/agents/builtin"
	"arena/arena/league"
	"arena/arena/referee"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/sdk"
)

// The test binary doubles as an agent host and as a league runner: the
// launcher re-executes it with hostArg to serve an agent, and the resume
// test re-executes it with runArg to run a league in a child process it can
// kill.
const (
	hostArg = "__test_agent"
	runArg  = "__test_league"
)

var testAgents = []string{"random", "greedy", "slow", "erring", "forfeit1", "forfeit2", "forfeit3"}

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		serveAgent(strings.TrimPrefix(os.Args[2], "builtin:"))
		return
	}
	if len(os.Args) > 3 && os.Args[1] == runArg {
		if err := runChild(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, "league child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveAgent(name string) {
	switch name {
	case "slow":
		sdk.Serve(&slow{})
	case "erring":
		sdk.Serve(&erring{})
	case "forfeit1", "forfeit2", "forfeit3":
		sdk.Serve(&forfeiter{at: int(name[len(name)-1] - '0')})
	default:
		a, err := builtin.New(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sdk.Serve(a)
	}
}

// slow plays random moves a little slowly, so a league of it lasts long
// enough to be killed part-way.
type slow struct{ builtin.Random }

func (s *slow) Move(ctx context.Context, t sdk.Turn) (string, error) {
	time.Sleep(5 * time.Millisecond)
	return s.Random.Move(ctx, t)
}

// erring reports an error instead of its first move of each game.
type erring struct {
	builtin.Random
	moves int
}

func (e *erring) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if e.moves++; e.moves == 1 {
		return "", fmt.Errorf("no move for you")
	}
	return e.Random.Move(ctx, t)
}

func testLauncher() referee.Launcher {
	return referee.HostLauncher(&host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: testAgents, StderrBytes: 4096})
}

func loadOpts() league.Options {
	return league.Options{Registry: all.Registry(), Sources: league.Sources{NoEnv: true}, Cores: 2}
}

func runChild(file, out string) error {
	opt := loadOpts()
	opt.Sources.Sets = []string{"output=" + out}
	s, err := league.Load(file, opt)
	if err != nil {
		return err
	}
	return league.Run(context.Background(), s, league.RunOptions{Launch: testLauncher()})
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
