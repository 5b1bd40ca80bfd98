package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

// TestMain lets the test binary stand in for the arena binary itself (the
// signal tests run it so); otherwise it is the command tests' set-up
// (clitest.Main).
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_TEST_RUN_MAIN") == "1" {
		os.Args = append([]string{"arena"}, strings.Fields(os.Getenv("ARENA_TEST_ARGS"))...)
		Main()
		os.Exit(0)
	}
	os.Exit(clitest.Main(m))
}

// testEnv is an environment for one command run with its output
// captured, as beside an installed arena: the lean host serves the agents
// and the lean init starts each SDK binary's sandbox. The test binary
// links everything and costs more CPU to start (45 ms against 32 ms on
// this project's 2-core machine), and hundreds of agents start in these
// tests. TestSandboxInitChoice plays with the agent host as the init.
func testEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	agentHost, init := clitest.LeanPrograms(t)
	var out, errb bytes.Buffer
	return NewEnv(&out, &errb, agentHost, init), &out, &errb
}

// run executes the CLI in-process with args.
func run(t *testing.T, e *Env, args ...string) error {
	t.Helper()
	return e.Run(context.Background(), args...)
}

func TestRulesVerifyAllVectorFiles(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	files, err := filepath.Glob(clitest.Path("games/*/testdata/*.jsonl"))
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
	src, err := os.ReadFile(clitest.Path("games/cachex/testdata/cachex.jsonl"))
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
	if err == nil || ExitCode(err) != ExitVerdict {
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
