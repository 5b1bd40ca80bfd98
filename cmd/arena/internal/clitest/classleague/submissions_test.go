package classleague

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/cmd/arena/internal/cli"
	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
)

const firstLegalLua = "function choose_move(state, clock) return state:legal_moves()[1] end\n"

// submissionsRun runs league run on the class file and returns its output,
// failing the test on an error.
func submissionsRun(t *testing.T, file, out string, extra ...string) (string, string) {
	t.Helper()
	e, stdout, stderr := inproc.Env(t)
	// Generous: a JVM or an SDK binary starting on a loaded machine must
	// pass every run's pre-flight check, or it would leave the league.
	e.PreflightTimeout = 2 * time.Minute
	args := append([]string{"league", "run", file, "--output", out}, extra...)
	if err := inproc.Run(t, e, args...); err != nil {
		t.Fatalf("league run %v: %v\n%s\n%s", extra, err, stdout, stderr)
	}
	return stdout.String(), stderr.String()
}

// playedGames is the count in the run's closing "N game(s) played" line.
func playedGames(t *testing.T, stdout string) string {
	t.Helper()
	m := regexp.MustCompile(`\n(\d+) game\(s\) played`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no closing line:\n%s", stdout)
	}
	return m[1]
}

// A class's submissions over time: a folder with a Go package, an SDK
// binary, a Lua script and (where Java is installed) a COMP424 repository
// plays among the entrants that work; broken submissions (a Lua syntax
// error, a crash at start, a Go package that does not build, a script
// failing at its top level) are left out with their reasons; two that
// would share a name stop the load; a late submission plays only its new
// games; a resubmission's games are played again and the old ones kept
// as superseded; an unchanged folder plays nothing.
func TestSubmissionsOverTime(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	if testing.Short() {
		t.Skip("builds two Go agents and plays a league four times")
	}
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	put := func(rel, body string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(subs, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	// The Go package as a student gets it from arena new-agent; the SDK
	// binary built from the smallest SDK agent.
	e, out, errb := inproc.Env(t)
	if err := inproc.Run(t, e, "new-agent", "--game", "bohnenspiel", "--lang", "go", filepath.Join(subs, "gopher")); err != nil {
		t.Fatalf("new-agent: %v\n%s%s", err, out, errb)
	}
	clitest.BuiltCopy(t, clitest.SDKAgentPkg, filepath.Join(subs, "binbot"))
	put("ann.lua", firstLegalLua, 0o644)
	put("typo.lua", "function choose_move(state\n", 0o644)
	put("topfail/agent.lua", "local cfg = nil\ncfg.depth = 3\n"+firstLegalLua, 0o644)
	put("crashy", "#!/bin/sh\nexit 3\n", 0o755)
	put("nobuild/main.go", "package main\n\nfunc main() { undefined() }\n", 0o644)
	put("nobuild/go.mod", "module nobuild\n\ngo 1.22\n", 0o644)
	want := []string{"ann", "binbot", "gopher"}
	if _, err := exec.LookPath("javac"); err == nil {
		clitest.CopyTree(t, clitest.Path("agents/course/testdata/comp424/bohnenspiel"), filepath.Join(subs, "java-team"))
		want = append(want, "java-team")
	} else {
		t.Log("no javac: the COMP424 repository is left out of this test")
	}
	// Two submissions that would both be named "zed".
	put("zed.lua", firstLegalLua, 0o644)
	put("zed/agent.lua", firstLegalLua, 0o644)

	file := filepath.Join(dir, "class.yaml")
	if err := os.WriteFile(file, []byte("game: bohnenspiel\nentrants:\n  dir: submissions\ngames_per_pairing: 2\noverrides:\n  startup-timeout: 2m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	league := filepath.Join(dir, "out")

	e, out, errb = inproc.Env(t)
	err := inproc.Run(t, e, "league", "run", file, "--output", league)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(subs, "zed")) || !strings.Contains(err.Error(), filepath.Join(subs, "zed.lua")) {
		t.Fatalf("colliding names: %v, want both named", err)
	}
	// Neither plays: each kind of entrant is already in the league, and
	// every entrant more adds games to each of the runs below.
	if err := os.Remove(filepath.Join(subs, "zed.lua")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(subs, "zed")); err != nil {
		t.Fatal(err)
	}
	pairs := len(want) * (len(want) - 1) / 2

	// First run: the working submissions play, the broken ones are left out.
	stdout, stderr := submissionsRun(t, file, league)
	if got, w := playedGames(t, stdout), strconv.Itoa(2*pairs); got != w {
		t.Errorf("first run played %s games, want %s:\n%s", got, w, stdout)
	}
	report, err := os.ReadFile(filepath.Join(league, cli.RefusedFile))
	if err != nil {
		t.Fatal(err)
	}
	for name, reason := range map[string]string{
		"typo.lua": "typo.lua", "topfail": "attempt to index", "crashy": "plugin handshake", "nobuild": "does not build",
	} {
		line := lineWith(string(report), filepath.Join(subs, name)+":")
		if !strings.Contains(line, reason) {
			t.Errorf("refused.txt: %s: %q, want its reason (%s):\n%s", name, line, reason, report)
		}
		if !strings.Contains(stderr, filepath.Join(subs, name)+":") {
			t.Errorf("%s not reported on stderr:\n%s", name, stderr)
		}
	}
	if strings.Count(string(report), "fix: ") != 4 {
		t.Errorf("refused.txt: want a fix for each of the 4:\n%s", report)
	}
	for _, name := range want {
		if !strings.Contains(stdout, name) {
			t.Errorf("standings lack %s:\n%s", name, stdout)
		}
	}

	// The Go package that does not build goes, once its refusal is shown:
	// each run more would spend three go commands on it (list, env, a
	// failing build). The other broken submissions stay, so the runs below
	// still show refusals leave a stored league's counts alone.
	if err := os.RemoveAll(filepath.Join(subs, "nobuild")); err != nil {
		t.Fatal(err)
	}

	// A late submission plays only its games against the others.
	put("late.lua", firstLegalLua, 0o644)
	stdout, _ = submissionsRun(t, file, league)
	if got, w := playedGames(t, stdout), strconv.Itoa(2*len(want)); got != w {
		t.Errorf("late run played %s games, want %s (late's only):\n%s", got, w, stdout)
	}
	if !strings.Contains(stdout, strconv.Itoa(2*len(want))+" new game(s) for late") || !strings.Contains(stdout, strconv.Itoa(2*pairs)+" stored game(s) kept") {
		t.Errorf("late run did not say what it adds and keeps:\n%s", stdout)
	}
	want = append(want, "late")
	total := len(want) * (len(want) - 1)

	// A resubmission: --dry-run says what would happen and changes nothing.
	put("ann.lua", "-- second version\n"+firstLegalLua, 0o644)
	annGames := 2 * (len(want) - 1)
	stdout, _ = submissionsRun(t, file, league, "--dry-run")
	if !strings.Contains(stdout, strconv.Itoa(annGames)+" game(s) of ann replayed (resubmitted: ann hash ") || strings.Contains(stdout, "game(s) played") {
		t.Errorf("dry run:\n%s", stdout)
	}
	if n := len(superseded(t, league)); n != 0 {
		t.Fatalf("dry run superseded %d games", n)
	}
	stdout, _ = submissionsRun(t, file, league)
	if got := playedGames(t, stdout); got != strconv.Itoa(annGames) {
		t.Errorf("resubmission run played %s games, want ann's %d:\n%s", got, annGames, stdout)
	}
	old := superseded(t, league)
	if len(old) != annGames {
		t.Fatalf("%d superseded games, want ann's %d", len(old), annGames)
	}
	for _, g := range old {
		if g.Match.Seats[0] != "ann" && g.Match.Seats[1] != "ann" || !strings.Contains(g.Why, "ann resubmitted") {
			t.Errorf("superseded %s (%s): not ann's resubmission", g.Match.ID, g.Why)
		}
	}
	games, annHash := live(t, league)
	if len(games) != total {
		t.Errorf("%d live games, want %d", len(games), total)
	}
	for _, g := range old {
		for seat, a := range g.Record.Agents {
			if a.Name == "ann" && a.Hash == annHash {
				t.Errorf("superseded game %s seat %d has the new version's hash", g.Match.ID, seat)
			}
		}
	}

	// Nothing changed: nothing is played.
	stdout, _ = submissionsRun(t, file, league)
	if got := playedGames(t, stdout); got != "0" || !strings.Contains(stdout, "nothing to play; "+strconv.Itoa(total)+" stored game(s) kept") {
		t.Errorf("unchanged run played %s:\n%s", got, stdout)
	}

	// A broken resubmission leaves the league: its games are superseded,
	// none is played, and refused.txt says why.
	put("ann.lua", "local cfg = nil\ncfg.depth = 3\n"+firstLegalLua, 0o644)
	stdout, _ = submissionsRun(t, file, league)
	if got := playedGames(t, stdout); got != "0" || !strings.Contains(stdout, "ann refused this run: "+strconv.Itoa(annGames)+" stored game(s) superseded") {
		t.Errorf("broken resubmission run played %s:\n%s", got, stdout)
	}
	if games, _ := live(t, league); len(games) != total-annGames {
		t.Errorf("%d live games after ann was refused, want %d", len(games), total-annGames)
	}
	if n := len(superseded(t, league)); n != 2*annGames {
		t.Errorf("%d superseded games, want both versions' %d", n, 2*annGames)
	}
	if report, _ := os.ReadFile(filepath.Join(league, cli.RefusedFile)); !strings.Contains(lineWith(string(report), filepath.Join(subs, "ann.lua")+":"), "attempt to index") {
		t.Errorf("refused.txt does not name ann with its reason:\n%s", report)
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func superseded(t *testing.T, dir string) []resultsdb.Superseded {
	t.Helper()
	st, err := resultsdb.OpenDirReadOnly(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	old, err := st.SupersededGames(context.Background(), "class")
	if err != nil {
		t.Fatal(err)
	}
	return old
}

// live is the league's counted games and ann's current content hash.
func live(t *testing.T, dir string) ([]results.Game, string) {
	t.Helper()
	st, err := resultsdb.OpenDirReadOnly(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.Games(context.Background(), "class")
	if err != nil {
		t.Fatal(err)
	}
	_, agents, err := st.League(context.Background(), "class")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range agents {
		if a.Name == "ann" {
			return games, a.Hash
		}
	}
	t.Fatal("ann not stored")
	return nil, ""
}

// A Cachex-shaped package in a submissions folder is detected and plays
// (it needs the course's Python with numpy).
func TestSubmissionsCachexPackage(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	if err := exec.Command("/usr/bin/python3", "-c", "import numpy").Run(); err != nil {
		t.Skipf("no /usr/bin/python3 with numpy (%v): apt-get install python3 python3-numpy", err)
	}
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	clitest.CopyTree(t, clitest.Path("agents/course/testdata/cachex/team_a"), filepath.Join(subs, "team_a"))
	if err := os.WriteFile(filepath.Join(subs, "ann.lua"), []byte(firstLegalLua), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "class.yaml")
	if err := os.WriteFile(file, []byte("game: cachex\nparams:\n  n: 4\nentrants:\n  dir: submissions\ngames_per_pairing: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _ := submissionsRun(t, file, filepath.Join(dir, "out"))
	if got := playedGames(t, stdout); got != "2" || !strings.Contains(stdout, "team_a") || !strings.Contains(stdout, "ann") {
		t.Fatalf("played %s games:\n%s", got, stdout)
	}
}
