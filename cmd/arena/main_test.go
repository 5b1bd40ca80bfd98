package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"arena/agents"
	"arena/arena/slots"
)

// TestMain lets the test binary stand in for the arena binary as an agent
// host: commands run in-process re-execute it with agents.HostArg.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_TEST_RUN_MAIN") == "1" {
		// Stand in for the arena binary itself (signal tests).
		os.Args = append([]string{"arena"}, strings.Fields(os.Getenv("ARENA_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	if len(os.Args) > 2 && os.Args[1] == agents.HostArg {
		if err := agents.Serve(os.Args[2]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		return
	}
	flag.Parse()
	// The in-process league runs would raise the whole test binary's
	// collector target to 400 % (leagueGC); its heap then grows to about
	// 250 MB, and every sandboxed start forks it, copying its page tables
	// (bench/forkcost: 5 ms more per 100 MB here). Left at the default,
	// the package took 2–7 % less CPU in three alternated runs.
	// TestLeagueGCTarget still checks leagueGC with GOGC unset.
	if os.Getenv("GOGC") == "" {
		os.Setenv("GOGC", "100")
	}
	setParallel(4)
	// The leagues these tests run, in process and in the arena processes
	// they start, share slots of their own instead of a user's.
	slotDir, err := slots.UseOwnDir("arena-cmd-test-slots-")
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	linked := builds.prefetch()
	code := m.Run()
	<-linked
	builds.remove()
	os.RemoveAll(slotDir)
	os.Exit(code)
}

// testEnv is the default environment with captured output and the test
// binary as agent host.
func testEnv(t *testing.T) (*env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	e := defaultEnv()
	var out, errb bytes.Buffer
	e.stdout, e.stderr = &out, &errb
	// The lean host serves the agents and the lean init starts each SDK
	// binary's sandbox, as beside an installed arena: the test binary
	// links everything and costs more CPU to start (45 ms against 32 ms
	// on this project's 2-core machine), and hundreds of agents start in
	// this package. TestSandboxInitChoice plays with the agent host as the
	// init.
	host, err := builds.binary(leanHostPkg)
	if err != nil {
		t.Fatal(err)
	}
	e.launcher.Self = []string{host, agents.HostArg}
	init, err := builds.binary(initPkg)
	if err != nil {
		t.Fatal(err)
	}
	e.launcher.Init = init
	e.isTerminal = func() bool { return false }
	return e, &out, &errb
}

// longRunning skips a test under -short. The short suite keeps the quick tests
// of each command and leaves out those that play many games, build agents
// or start many processes (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays many games, builds agents or starts many processes: runs without -short")
	}
}

// run executes the CLI in-process with args.
func run(t *testing.T, e *env, args ...string) error {
	t.Helper()
	return runCLI(e, args...)
}

// runCLI is run for a goroutine other than the test's.
func runCLI(e *env, args ...string) error {
	root := newRoot(e)
	root.SetArgs(args)
	return root.ExecuteContext(context.Background())
}

func TestRulesVerifyAllVectorFiles(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	files, err := filepath.Glob("../../games/*/testdata/*.jsonl")
	if err != nil || len(files) != 5 {
		t.Fatalf("want the five course vector files, found %v (%v)", files, err)
	}
	if testing.Short() {
		files = firstRecords(t, files, 20)
	}
	e, out, _ := testEnv(t)
	if err := run(t, e, append([]string{"rules", "verify"}, files...)...); err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	last := strings.TrimSpace(out.String())
	if !strings.HasSuffix(last, " passed, 0 failed") || strings.HasPrefix(last, "0 passed") {
		t.Fatalf("closing line: %q", last)
	}
}

// firstRecords copies the first n records of each vector file to a
// temporary folder, under the same names: -short verifies every game's
// file through the command, not all of its 1,000-odd games.
func firstRecords(t *testing.T, files []string, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(src), "\n")
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, []byte(strings.Join(lines[:min(n, len(lines))], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func TestRulesVerifyReportsMismatch(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	src, err := os.ReadFile("../../games/cachex/testdata/cachex.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(src), "\n")
	broken := strings.Replace(first, `"legal_count": `, `"legal_count": 1000`, 1)
	if broken == first {
		broken = strings.Replace(first, `"legal_count":`, `"legal_count":1000`, 1)
	}
	path := filepath.Join(t.TempDir(), "broken.jsonl")
	if err := os.WriteFile(path, []byte(first+"\n"+broken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, _ := testEnv(t)
	err = run(t, e, "rules", "verify", path)
	if err == nil || exitCode(err) != exitVerdict {
		t.Fatalf("a failing file must exit 2: %v", err)
	}
	s := out.String()
	if !strings.Contains(s, "1 passed, 1 failed") || !strings.Contains(s, "legal_count") || !strings.Contains(s, "broken.jsonl:2") {
		t.Fatalf("output:\n%s", s)
	}
}

func TestPlayPrintsTable(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	e, out, errb := testEnv(t)
	if err := run(t, e, "play", "bohnenspiel", "random", "builtin:greedy", "--games", "4", "--seed", "3", "--show"); err != nil {
		t.Fatalf("play: %v\n%s", err, errb)
	}
	s := out.String()
	for _, want := range []string{"AGENT", "random", "greedy", "AVG SCORE", "game 4:", "in store"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// Four games, each counted once per agent: W+D+L = 4 on each row.
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && (f[0] == "random" || f[0] == "greedy") && f[1] != "4" {
			t.Errorf("row %q: want 4 games", line)
		}
	}
	if !strings.Contains(errb.String(), "[4/4]") {
		t.Errorf("no progress line on stderr: %q", errb.String())
	}
}

func TestPlayErrors(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	cases := [][]string{
		{"play", "chess", "random", "random"},
		{"play", "bohnenspiel", "random", "nosuch"},
		{"play", "cachex", "random", "random", "--param", "n=99"},
		{"play", "bohnenspiel", "random", "random", "--set", "budget=3s"},
		{"play", "bohnenspiel", "random", "random", "--param", "x=1"},
		{"play", "bohnenspiel", "random", "random", "--set", "move-limit=2h"},
		{"check", "random", "--game", "bohnenspiel", "--set", "startup-timeout=1h"},
	}
	wants := []string{"known: bohnenspiel", "builtin:greedy", "n", "budget", "x", "move-limit 2h0m0s: at most 1h0m0s", "startup-timeout 1h0m0s: at most 10m0s"}
	for i, args := range cases {
		e, _, _ := testEnv(t)
		err := run(t, e, args...)
		if err == nil || !strings.Contains(err.Error(), wants[i]) {
			t.Errorf("%v: error %v, want mention of %q", args, err, wants[i])
		}
	}
}

func TestGamesListsAllWithProfiles(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	e, out, _ := testEnv(t)
	if err := run(t, e, "games", "--verbose"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bohnenspiel", "comp424-2017", "pentago-twist", "comp424-2021", "cachex", "comp30024-2022",
		"dots-and-boxes", "aigaming-cs4386-2020", "hex-crossout", "nycu-aicap-2023", "cushion 1s", "CPU budget",
		"rules: docs/games/cachex.md"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("games output lacks %q", want)
		}
	}
}

// setParallel runs up to n parallel tests at once unless -test.parallel
// was given. The testing package's default, GOMAXPROCS, suits tests that
// compute; this package's parallel tests mostly wait on the processes they
// start (agents, leagues, builds, a browser). Idle, four at a time take as
// long as two on a 2-core machine (111 s and 118 s, the package being
// bound by CPU); under other load, two at a time leave this package less
// of the CPU than its neighbours get, and it ran 555 s of go test's 600
// under sixteen CPU burners.
func setParallel(n int) {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && runtime.GOMAXPROCS(0) < n {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
}
