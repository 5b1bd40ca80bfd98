package league_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/agents"
	"arena/agents/builtin"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/internal/testparallel"
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

var testAgents = []string{"random", "greedy", "slow", "erring", "ninety", "dozy", "counting", "forfeit1", "forfeit2", "forfeit3"}

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
	flag.Parse()
	if err := testparallel.Default(waitingParallel); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dir, err := slots.UseOwnDir("arena-league-test-slots-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// waitingParallel is how many of its parallel tests run at once unless
// -parallel says otherwise: their leagues wait on agent processes, fsyncs
// and a killed child far more than they compute, and none judges a move
// by the clock. The tests of contention and pinned CPUs stay serial: they
// run alone, first.
const waitingParallel = 4

// longRunning skips a test under -short: the short suite keeps the
// configuration, schedule and standings tests, one league of known
// results (TestStandingsFromKnownResults), one cancelled and resumed with
// openings and one joined by a late agent, and leaves out the leagues
// that resume after a kill, replay, reuse processes, pin CPUs, build
// agents or play hundreds of games (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays leagues with real agent processes: runs without -short")
	}
}

func serveAgent(name string) {
	// Served as the arena serves its built-in agents: a new agent per
	// game, so a process kept across games carries nothing over.
	var fresh func() sdk.Agent
	switch name {
	case "slow":
		fresh = func() sdk.Agent { return &slow{} }
	case "erring":
		fresh = func() sdk.Agent { return &erring{} }
	case "ninety":
		fresh = func() sdk.Agent { return &ninety{} }
	case "dozy":
		fresh = func() sdk.Agent { return &dozy{} }
	case "counting":
		fresh = func() sdk.Agent { return &counting{} }
	case "forfeit1", "forfeit2", "forfeit3":
		at := int(name[len(name)-1] - '0')
		fresh = func() sdk.Agent { return &forfeiter{at: at} }
	case "random", "greedy":
		agents.Serve("builtin:" + name)
		return
	default:
		fmt.Fprintln(os.Stderr, "unknown test agent", name)
		os.Exit(2)
	}
	sdk.Serve(fresh(), sdk.WithFreshAgent(fresh))
}

// counting chooses its moves by the number of games it has started: the
// same in every game only if each game starts with a new agent.
type counting struct{ games int }

func (c *counting) Start(context.Context, sdk.Game) error { c.games++; return nil }

func (c *counting) Move(_ context.Context, t sdk.Turn) (string, error) {
	return t.Legal[(c.games*7+t.Ply)%len(t.Legal)], nil
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

// dozy sleeps 700 ms on its second move of a game, using no CPU: past the
// 500 ms limit its leagues set whatever the machine does, and 800 ms
// inside Bohnenspiel's 1 s cushion, so the reply is a late one, not a
// silence.
type dozy struct {
	builtin.Random
	moves int
}

func (d *dozy) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if d.moves++; d.moves == 2 {
		time.Sleep(700 * time.Millisecond)
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
	return referee.HostLauncher(testHost())
}

func runChild(file, out string) error {
	opt := leaguefiletest.Options()
	opt.Sources.Sets = []string{"output=" + out}
	s, err := leaguefile.Load(file, opt)
	if err != nil {
		return err
	}
	// Store commits are held back for the whole run: every finished game
	// is in the journal only, so a kill tests the journal alone.
	return league.Run(context.Background(), s, league.RunOptions{Launch: testLauncher(), CommitEvery: 1 << 20, CommitInterval: time.Hour})
}

// loadLeague loads a league file with its results going to a fresh
// directory, which it returns.
func loadLeague(t *testing.T, file string) (*leaguefile.Spec, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "league")
	opt := leaguefiletest.Options()
	opt.Sources.Sets = []string{"output=" + out}
	s, err := leaguefile.Load(file, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, out
}
