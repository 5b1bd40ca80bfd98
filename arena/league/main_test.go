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
	hogArg  = "__test_hog"
)

var testAgents = []string{"random", "greedy", "slow", "erring", "ninety", "dozy"}

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		serveAgent(strings.TrimPrefix(os.Args[2], "builtin:"))
		return
	}
	if len(os.Args) > 1 && os.Args[1] == hogArg {
		// A CPU hog outside the arena: spin until killed.
		for x := 0; ; x++ {
			_ = x
		}
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
	case "ninety":
		sdk.Serve(&ninety{})
	case "dozy":
		sdk.Serve(&dozy{})
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

// ninety thinks, spinning on its CPU, for 90% of the time to its deadline
// on its first three moves of a game, the way course agents budget their
// time by the clock, then plays at once.
type ninety struct {
	builtin.Random
	moves int
}

func (n *ninety) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if n.moves++; n.moves <= 3 {
		end := time.Now().Add(time.Until(t.Deadline) * 9 / 10)
		for time.Now().Before(end) {
		}
	}
	return n.Random.Move(ctx, t)
}

// dozy sleeps 1 s on its second move of a game, using no CPU.
type dozy struct {
	builtin.Random
	moves int
}

func (d *dozy) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if d.moves++; d.moves == 2 {
		time.Sleep(time.Second)
	}
	return d.Random.Move(ctx, t)
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
