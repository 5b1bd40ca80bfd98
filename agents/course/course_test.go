package course_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/agents"
	"arena/agents/builtin"
	"arena/agents/course"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

// TestMain lets the test binary stand in for the arena binary as agent
// host, as the arena re-executes itself.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == agents.HostArg {
		if err := agents.Serve(os.Args[2]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		return
	}
	if ref := os.Getenv(checkRefEnv); ref != "" {
		// The arena's stand-in for TestCompilerDiesWithTheArena.
		if err := course.CheckRef(context.Background(), ref, "pentago-twist"); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	// Compiled repositories are shared by every test of the run, and by
	// later runs: the cache is keyed by the sources' content, so an edit
	// compiles anew and an unchanged fixture compiles once.
	if os.Getenv("ARENA_COURSE_CACHE") == "" {
		dir, err := testCache()
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Setenv("ARENA_COURSE_CACHE", dir)
	}
	os.Exit(m.Run())
}

// testCache is the compiled-fixture cache: under the user's cache folder
// where there is one, else a folder of this run.
func testCache() (string, error) {
	if d, err := os.UserCacheDir(); err == nil {
		dir := filepath.Join(d, "arena", "course-tests")
		if err := os.MkdirAll(dir, 0o755); err == nil {
			return dir, nil
		}
	}
	return os.MkdirTemp("", "arena-course-tests-")
}

// longRunning skips a test under -short: the short suite keeps the checks of
// references and folders and one game of a Python bot, and leaves out the
// games of JVM clients and the many games of broken bots (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays course agents' games (JVMs, many Python games): runs without -short")
	}
}

// numpyMissing tries the import once per test binary run: each try starts
// an interpreter and loads numpy (0.4 s of CPU), and most tests ask.
var numpyMissing = sync.OnceValue(func() error { return exec.Command("/usr/bin/python3", "-c", "import numpy").Run() })

// needPython skips where the machine has no Python with numpy (CI installs
// them: .ci/run).
func needPython(t *testing.T) {
	t.Helper()
	if err := numpyMissing(); err != nil {
		t.Skipf("no /usr/bin/python3 with numpy (%v): apt-get install python3 python3-numpy", err)
	}
}

// match is one game to referee through real agent processes.
type match struct {
	game   string
	params engine.Params
	refs   [2]string
	seed   uint64
	tune   func(*engine.Profile)
}

// gameLauncher starts the agents of every game the tests play: one
// launcher, as an arena has one for a whole league, so the machine's
// sandbox probe (a sandboxed start of its own) and the cgroup discovery
// run once, not once per game.
var gameLauncher = sync.OnceValue(func() *host.Launcher {
	return &host.Launcher{Self: []string{os.Args[0], agents.HostArg}, Builtins: builtin.Names(), Prepare: course.Prepare}
})

func play(t *testing.T, m match) *record.Game {
	t.Helper()
	g, err := all.Registry().Lookup(m.game)
	if err != nil {
		t.Fatal(err)
	}
	if m.params == nil {
		m.params = engine.Params{}
	}
	prof, err := g.Profile(m.params)
	if err != nil {
		t.Fatal(err)
	}
	if m.tune != nil {
		m.tune(&prof)
	}
	l := gameLauncher()
	// Each agent is held to its runtime's memory rule, as the CLI does.
	r := &referee.Referee{Launch: referee.HostLauncher(l), Runtime: func(p referee.Player) engine.Runtime { return course.Runtime(p.Ref) }}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec, err := r.Play(ctx, referee.Match{
		ID: t.Name(), Game: g, Params: m.params, Profile: prof, Seed: m.seed,
		Players: [2]referee.Player{{Name: "A", Ref: m.refs[0]}, {Name: "B", Ref: m.refs[1]}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// cleanFromBothSeats plays ref against builtin:random from each seat (seed
// and seed+1) and fails unless both games are clean, with at least
// minMoves of the agent's own moves and every text of logged in the
// agent's stderr log.
func cleanFromBothSeats(t *testing.T, game, ref string, seed uint64, minMoves int, logged ...string) {
	t.Helper()
	for seat := range 2 {
		refs := [2]string{"builtin:random", "builtin:random"}
		refs[seat] = ref
		rec := play(t, match{game: game, refs: refs, seed: seed + uint64(seat)})
		if len(rec.Events) > 0 || rec.Result.Forfeit != "" {
			t.Fatalf("seat %d: want a clean game:\n%s", seat, events(rec))
		}
		if agentMoves(rec, seat) < minMoves {
			t.Fatalf("seat %d: the agent made %d moves", seat, agentMoves(rec, seat))
		}
		for _, want := range logged {
			if !strings.Contains(rec.Stderr[seat], want) {
				t.Fatalf("seat %d: no %q in the agent's log: %q", seat, want, rec.Stderr[seat])
			}
		}
	}
}

// events renders a record's events for failure messages.
func events(rec *record.Game) string {
	var b strings.Builder
	for _, e := range rec.Events {
		b.WriteString(e.Kind + "/" + e.Penalty + " seat " + string(rune('0'+e.Seat)) + ": " + e.Detail + "\n")
	}
	b.WriteString("stderr 0: " + rec.Stderr[0] + "\nstderr 1: " + rec.Stderr[1])
	return b.String()
}

// agentMoves counts the moves seat played itself.
func agentMoves(rec *record.Game, seat int) int {
	n := 0
	for _, m := range rec.Moves {
		if m.Seat == seat && m.Source == record.SourceAgent {
			n++
		}
	}
	return n
}

// firstEvent is seat's first failure event, or nil.
func firstEvent(rec *record.Game, seat int) *record.Event {
	for i, e := range rec.Events {
		if e.Seat == seat && e.Kind != "launch" && e.Kind != "restart" {
			return &rec.Events[i]
		}
	}
	return nil
}
