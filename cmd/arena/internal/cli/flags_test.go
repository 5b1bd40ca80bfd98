package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

// league standings --format json gives the rows for scripts; the deprecated
// flag names still work, with a message.
func TestLeagueStandingsJSONAndFlagAliases(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "fj.yaml", "")
	e, out, errb := testEnv(t)
	// --format is the deprecated name of --league-format on league run.
	if err := run(t, e, "league", "run", file, "--format", "round-robin"); err != nil {
		t.Fatalf("run: %v\n%s%s", err, out, errb)
	}
	if !strings.Contains(out.String()+errb.String(), "--format has been deprecated, use --league-format") {
		t.Errorf("no deprecation message for --format:\n%s%s", out, errb)
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "standings", file, "--format", "json"); err != nil {
		t.Fatalf("standings --format json: %v\n%s", err, out)
	}
	var got []struct {
		League string `json:"league"`
		Played int    `json:"played"`
		Rows   []struct {
			Agent string `json:"agent"`
			Games int    `json:"games"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got) != 1 || got[0].League != "fj" || got[0].Played != 2 || len(got[0].Rows) != 2 || got[0].Rows[0].Games != 2 {
		t.Errorf("standings JSON: %+v\n%s", got, out)
	}
	e, _, _ = testEnv(t)
	if err := run(t, e, "league", "standings", file, "--format", "xml"); ExitCode(err) != ExitSetup || !strings.Contains(err.Error(), "want text, json or csv") {
		t.Errorf("--format xml: %v", err)
	}
	// --cluster-url is the deprecated name of --cluster: an unreachable
	// server fails the run, naming it, after the message.
	e, out, errb = testEnv(t)
	err := run(t, e, "league", "run", file, "--cluster-url", "nats://127.0.0.1:1", "--output", filepath.Join(root, "other"))
	if err == nil || !strings.Contains(err.Error(), "nats://127.0.0.1:1") || !strings.Contains(out.String()+errb.String(), "--cluster-url has been deprecated, use --cluster") {
		t.Errorf("--cluster-url: %v\n%s%s", err, out, errb)
	}
}

// Numeric flags are typed in help; empty defaults print nothing; the
// Cachex budget says how it follows n.
func TestFlagTypesAndGamesHelp(t *testing.T) {
	e, out, _ := testEnv(t)
	root := NewRoot(e)
	root.SetArgs([]string{"league", "run", "--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--games-per-pairing int", "--concurrency int", "--sprt-elo1 float", "--cluster string", "--league-format string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("league run --help lacks %q", want)
		}
	}
	for _, hidden := range []string{"--cluster-url", "--format "} {
		if strings.Contains(out.String(), hidden) {
			t.Errorf("league run --help shows the deprecated %s", hidden)
		}
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "games", "--verbose"); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "(default )") || !strings.Contains(s, "CPU budget per player per game n² seconds (n=9: 81s)") {
		t.Errorf("games --verbose:\n%s", s)
	}
}

// A --cluster-agents-unused outside its bounds is refused by name before
// any server starts.
func TestClusterAgentsUnusedIsRefusedByName(t *testing.T) {
	file := clitest.LeagueFile(t, t.TempDir(), "cu.yaml", "")
	e, out, errb := testEnv(t)
	err := run(t, e, "league", "run", file, "--serve-cluster", "127.0.0.1:0", "--cluster-agents-unused", "1m")
	if err == nil || !strings.Contains(err.Error(), "--cluster-agents-unused 1m0s: want between 3h0m0s and 720h0m0s") {
		t.Fatalf("got %v\n%s%s", err, out, errb)
	}
	if strings.Contains(out.String()+errb.String(), "league token") {
		t.Fatalf("a join token was printed before the refusal:\n%s%s", out, errb)
	}
}
