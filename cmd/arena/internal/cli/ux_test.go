package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
	"arena/internal/forksafe"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Every kind of agent that cannot play is refused before the first game,
// with its reason and exit status 3, and nothing is printed on stdout.
func TestPreflightRefusesBrokenAgents(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	dir := t.TempDir()
	hang := clitest.WriteScript(t, dir, "hang.sh", "#!/bin/sh\nexec sleep 120\n", 0o755)
	top := clitest.WriteScript(t, dir, "top.lua", "local cfg = nil\ncfg.depth = 3\nfunction choose_move(s) return s:legal_moves()[1] end\n", 0o644)
	ini := clitest.WriteScript(t, dir, "init.lua", "function init(info)\n  error(\"no opening book\")\nend\nfunction choose_move(s) return s:legal_moves()[1] end\n", 0o644)
	cases := []struct {
		name, ref string
		want      []string
	}{
		{"not an agent", "/bin/true", []string{"agent true (/bin/true)", "did not complete the plugin handshake", "arena SDK"}},
		{"hangs", hang, []string{"agent hang.sh", "within 5s", "hang"}},
		{"lua top level", "lua:" + top, []string{"agent top.lua", "loading the script", top + ":2:", "attempt to index"}},
		{"lua init", "lua:" + ini, []string{"agent init.lua", "lua init", ini + ":2: no opening book"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, out, _ := testEnv(t)
			e.PreflightTimeout = 5 * time.Second
			start := time.Now()
			err := run(t, e, "play", "bohnenspiel", c.ref, "random", "--games", "2")
			if err == nil {
				t.Fatalf("accepted; output:\n%s", out)
			}
			if code := ExitCode(err); code != ExitBroken {
				t.Errorf("exit status %d, want %d (%v)", code, ExitBroken, err)
			}
			for _, w := range append(c.want, "failed the pre-flight check", "no game was played", "--allow-broken") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if out.Len() != 0 {
				t.Errorf("output before the refusal: %q", out.String())
			}
			// The hanging agent costs one pre-flight deadline, not a
			// start-up timeout per game.
			if el := time.Since(start); el > 60*time.Second {
				t.Errorf("refusal took %v", el)
			}
		})
	}
}

// A Go package directory that is not package main is refused when it is
// built, before any game, with exit status 3.
func TestLeagueRefusesNonMainPackage(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "notmain")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	clitest.WriteScript(t, pkg, "go.mod", "module notmain\n\ngo 1.22\n", 0o644)
	clitest.WriteScript(t, pkg, "bot.go", "package bot\n\nfunc Move() string { return \"\" }\n", 0o644)
	file := clitest.WriteScript(t, dir, "l.yaml", "game: bohnenspiel\nagents:\n  - {name: mine, agent: ./notmain}\n  - {name: random, agent: random}\n", 0o644)
	e, out, _ := testEnv(t)
	err := run(t, e, "league", "run", file, "--cache-dir", filepath.Join(dir, "cache"))
	if err == nil || ExitCode(err) != ExitBroken {
		t.Fatalf("error %v (exit %d), want exit %d", err, ExitCode(err), ExitBroken)
	}
	for _, w := range []string{"agent mine (./notmain)", "is package bot, not package main"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("output before the refusal: %q", out.String())
	}
}

// --allow-broken enters a failing agent: its games are played and recorded,
// the penalties are printed, and the exit status still says it never
// played.
func TestAllowBrokenPlaysAndExitsThree(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	ini := clitest.WriteScript(t, t.TempDir(), "init.lua", "function init(info)\n  error(\"no opening book\")\nend\nfunction choose_move(s) return s:legal_moves()[1] end\n", 0o644)
	e, out, errb := testEnv(t)
	err := run(t, e, "play", "bohnenspiel", "lua:"+ini, "random", "--games", "2", "--allow-broken")
	if err == nil || ExitCode(err) != ExitBroken || !strings.Contains(err.Error(), "entered despite a failed pre-flight check: agent init.lua") {
		t.Fatalf("error %v (exit %d)", err, ExitCode(err))
	}
	if !strings.Contains(errb.String(), "entered anyway (--allow-broken)") {
		t.Errorf("no warning on stderr:\n%s", errb)
	}
	s := out.String()
	if !strings.Contains(s, "penalty: init.lua, game play-bohnenspiel-s1-g0") || !strings.Contains(s, "AGENT") {
		t.Errorf("want penalty lines and the table:\n%s", s)
	}
}

// The console of a short play with a Lua agent that fails at every move:
// each penalty with its game, ply and the script's error, the repeats
// collapsed into one line, the table, and where the full records are.
func TestPlayConsoleGolden(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	records := filepath.Join(t.TempDir(), "games.jsonl")
	e, out, _ := testEnv(t)
	err := run(t, e, "play", "bohnenspiel", "lua:testdata/failing.lua", "random", "--games", "2", "--seed", "5", "--parallel", "1", "--records", records,
		// A generous clock: the golden must not depend on the machine's load.
		"--set", "move-limit=20s")
	if err == nil || ExitCode(err) != ExitBroken {
		t.Fatalf("error %v (exit %d): an agent that never moved must exit %d", err, ExitCode(err), ExitBroken)
	}
	wd, _ := os.Getwd()
	got := strings.ReplaceAll(out.String(), records, "GAMES.jsonl")
	got = strings.ReplaceAll(got, wd+string(filepath.Separator), "")
	golden := filepath.Join("testdata", "play-failing-lua.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestPlayConsoleGolden -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("console differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
	// --quiet drops the penalty lines and nothing else.
	e, quiet, _ := testEnv(t)
	_ = run(t, e, "play", "bohnenspiel", "lua:testdata/failing.lua", "random", "--games", "2", "--seed", "5", "--parallel", "1", "--quiet")
	if strings.Contains(quiet.String(), "penalty:") || !strings.Contains(quiet.String(), "error=") {
		t.Errorf("--quiet output:\n%s", quiet)
	}
}

// The league directory follows the league file: run from elsewhere, the
// same file resumes the same league; standings and export find it too.
func TestLeagueResultsFollowTheFile(t *testing.T) {
	clitest.LongRunning(t)
	root := t.TempDir()
	cfgDir := filepath.Join(root, "configs")
	file := clitest.LeagueFile(t, cfgDir, "bs.yaml", "")
	elsewhere := filepath.Join(root, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}

	t.Chdir(elsewhere)
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	want := filepath.Join(cfgDir, "arena-results", "bs")
	if _, err := os.Stat(filepath.Join(want, "results.db")); err != nil {
		t.Fatalf("no store beside the file: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "arena-results")); err == nil {
		t.Errorf("a league directory appeared in the current directory")
	}

	t.Chdir(cfgDir)
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "run", "bs.yaml"); err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	if s := out.String(); !strings.Contains(s, "(2 already played)") || !strings.Contains(s, "0 game(s) played") {
		t.Errorf("the run from the file's directory did not resume:\n%s", s)
	}
	t.Chdir(root)
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "standings", "configs/bs.yaml"); err != nil || !strings.Contains(out.String(), "2 of 2 games played") ||
		!strings.Contains(out.String(), "`arena replay "+filepath.Join(want, "records.jsonl")+" --game ID`") {
		t.Errorf("standings: %v\n%s", err, out)
	}
}

// dirState lists a directory's files with their sizes and times.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, en := range ents {
		fi, err := en.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %s\n", en.Name(), fi.Size(), fi.ModTime())
	}
	return b.String()
}

// standings and export only read the store: they change nothing in the
// league directory and work when it cannot be written.
func TestReportsReadOnly(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "ro.yaml", "")
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dir := filepath.Join(root, "arena-results", "ro")
	before := dirState(t, dir)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	db := filepath.Join(dir, "results.db")
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "standings", file); err != nil || !strings.Contains(out.String(), "2 of 2 games played") {
		t.Fatalf("standings on a read-only directory: %v\n%s", err, out)
	}
	exported := filepath.Join(root, "games.csv")
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "export", dir, "--format", "csv", "-o", exported); err != nil {
		t.Fatalf("export from a read-only directory: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(exported); err != nil || strings.Count(string(b), "\n") != 3 {
		t.Errorf("export: %v\n%s", err, b)
	}
	if after := dirState(t, dir); after != before {
		t.Errorf("the reports changed the league directory:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// A second run on a directory in use is refused before it prints
// anything; a refused run never claims games or records.
func TestSecondRunRefusedBeforeOutput(t *testing.T) {
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "busy.yaml", "")
	dir := filepath.Join(root, "arena-results", "busy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	e, out, _ := testEnv(t)
	err = run(t, e, "league", "run", file)
	if err == nil || !strings.Contains(err.Error(), "in use by another arena league run") || ExitCode(err) != 1 {
		t.Fatalf("error %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("printed before the refusal:\n%s", out)
	}
}

// --force with a changed schedule says what it keeps and plays, and
// refuses to mix old and new games until given twice.
func TestForceTwiceToMixSchedules(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "f.yaml", "")
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	e, _, _ = testEnv(t)
	if err := run(t, e, "league", "run", file, "--seed", "2"); err == nil || !strings.Contains(err.Error(), "seed: 1 -> 2") {
		t.Fatalf("changed seed: %v", err)
	}
	e, out, _ = testEnv(t)
	err := run(t, e, "league", "run", file, "--seed", "2", "--force")
	for _, w := range []string{"keeps 0 stored game(s) of the new schedule, plays 2 missing game(s)", "2 stored game(s) are not in the new schedule", "--force --force"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("one --force: error lacks %q: %v", w, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("printed before the refusal:\n%s", out)
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "run", file, "--seed", "2", "--force", "--force"); err != nil {
		t.Fatalf("--force --force: %v\n%s", err, out)
	}
	if s := out.String(); !strings.Contains(s, "\n2 game(s) played") || !strings.Contains(s, "4 of 4 games played") {
		t.Errorf("mixed run:\n%s", s)
	}
}

// A directory holds one league: another name is refused unless --output
// names the directory on purpose.
func TestSecondLeagueNameRefused(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "n.yaml", "output: shared\n")
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	e, out, _ = testEnv(t)
	err := run(t, e, "league", "run", file, "--name", "other")
	if err == nil || !strings.Contains(err.Error(), "holds league n, not other") || out.Len() != 0 {
		t.Fatalf("second name: %v\n%s", err, out)
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "run", file, "--name", "other", "--output", filepath.Join(root, "shared")); err != nil {
		t.Fatalf("--output given on purpose: %v\n%s", err, out)
	}
}

// A kill at any moment of `league export -o` leaves the target either as
// it was or complete, never truncated.
func TestExportAtomicUnderKill(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "x.yaml", "games_per_pairing: 40\n")
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dir := filepath.Join(root, "arena-results", "x")
	full, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil || len(full) == 0 {
		t.Fatalf("records: %v", err)
	}
	target := filepath.Join(root, "export.jsonl")
	const old = "the previous export\n"
	for i := range 8 {
		if err := os.WriteFile(target, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ARENA_TEST_RUN_MAIN=1", "ARENA_TEST_ARGS=league export "+dir+" --format jsonl -o "+target)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill at staggered moments, from at once to after it finished;
		// whichever moment it is, the target is whole.
		time.Sleep(time.Duration(i) * 15 * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		got, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != old && !bytes.Equal(got, full) {
			t.Fatalf("kill %d: target holds %d bytes, neither the old file nor the %d-byte export", i, len(got), len(full))
		}
	}
	// And uninterrupted, it is the export.
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "export", dir, "--format", "jsonl", "-o", target); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, full) {
		t.Errorf("export differs from records.jsonl")
	}
}

// Unknown ARENA_ variables are named on stderr with the closest key.
func TestLeagueWarnsUnknownEnvironment(t *testing.T) {
	clitest.LongRunning(t)
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "w.yaml", "")
	t.Setenv("ARENA_GAMES_PER_PAIRNG", "4")
	e, out, errb := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`warning: \$ARENA_GAMES_PER_PAIRNG matches no league key.*\$ARENA_GAMES_PER_PAIRING`).MatchString(errb.String()) {
		t.Errorf("stderr:\n%s", errb)
	}
}

// play refuses a negative seed with the words a league file gets.
func TestPlayNegativeSeed(t *testing.T) {
	e, out, _ := testEnv(t)
	err := run(t, e, "play", "bohnenspiel", "random", "random", "--seed", "-1")
	if err == nil || err.Error() != "--seed: -1 is negative: want a non-negative whole number" || out.Len() != 0 {
		t.Fatalf("error %v, output %q", err, out)
	}
}

// A league entered with a broken agent (--allow-broken) plays its games,
// prints each penalty and the standings, names the records to replay, and
// exits 3.
func TestLeagueAllowBrokenPrintsPenaltiesAndExitsThree(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	root := t.TempDir()
	clitest.WriteScript(t, root, "bad.lua", "function init(info)\n  error(\"no opening book\")\nend\nfunction choose_move(s) return s:legal_moves()[1] end\n", 0o644)
	file := clitest.WriteScript(t, root, "b.yaml", "game: bohnenspiel\nagents:\n  - {name: bad, agent: lua:bad.lua}\n  - {name: random, agent: random}\n", 0o644)
	e, out, _ := testEnv(t)
	err := run(t, e, "league", "run", file)
	if err == nil || ExitCode(err) != ExitBroken || !strings.Contains(err.Error(), "agent bad (lua:bad.lua)") || out.Len() != 0 {
		t.Fatalf("without --allow-broken: %v (exit %d)\n%s", err, ExitCode(err), out)
	}
	e, out, _ = testEnv(t)
	err = run(t, e, "league", "run", file, "--allow-broken")
	if err == nil || ExitCode(err) != ExitBroken {
		t.Fatalf("with --allow-broken: %v (exit %d)", err, ExitCode(err))
	}
	s := out.String()
	records := filepath.Join(root, "arena-results", "b", "records.jsonl")
	for _, w := range []string{"penalty: bad, game b/bad-vs-random/g000-ab-", "no opening book", "RANK  AGENT", "2 game(s) played", "`arena replay " + records + " --game ID`"} {
		if !strings.Contains(s, w) {
			t.Errorf("output lacks %q:\n%s", w, s)
		}
	}
}

// Run as root, the permission bits above do not stop writes. This test
// runs the report as an unprivileged user for whom the league directory is
// really read-only.
func TestReportsReadOnlyForAnotherUser(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	if os.Getuid() != 0 {
		t.Skip("needs root to run the report as another user; TestReportsReadOnly covers non-root runs")
	}
	root, err := os.MkdirTemp("", "arena-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	file := clitest.LeagueFile(t, root, "ro.yaml", "")
	e, out, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	// The test binary stands in for the arena; the other user must be able
	// to run it.
	bin := filepath.Join(root, "arena.test")
	if err := forksafe.Copy(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "arena-results", "ro")
	for _, p := range []string{root, filepath.Join(root, "arena-results"), dir} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "results.db"), 0o644); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	report := func(args string) (string, error) {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "ARENA_TEST_RUN_MAIN=1", "ARENA_TEST_ARGS="+args, "HOME="+root)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		var o, eb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &eb
		err := cmd.Run()
		return o.String() + eb.String(), err
	}
	// The directory and the store belong to root: the report cannot write.
	if s, err := report("league standings " + file); err != nil || !strings.Contains(s, "2 of 2 games played") {
		t.Fatalf("standings as another user: %v\n%s", err, s)
	}
	if s, err := report("league export " + dir + " --format csv"); err != nil || strings.Count(s, "\n") != 3 {
		t.Fatalf("export as another user: %v\n%s", err, s)
	}
	// An unreadable directory is reported as such, not as "no results".
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := report("league standings " + dir)
	if err == nil || !strings.Contains(s, "permission denied") || strings.Contains(s, "run the league first") {
		t.Errorf("unreadable directory: %v\n%s", err, s)
	}
}

// lockedLog is stdout and stderr of a command that may be written from
// several goroutines; at the first penalty line it counts this process's
// children, the agent processes of the games in progress.
type lockedLog struct {
	mu          sync.Mutex
	out         bytes.Buffer
	sawPenalty  bool
	kidsAtFirst int
}

type lockedWriter struct {
	l      *lockedLog
	stdout bool
}

func (w lockedWriter) Write(b []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	if !w.stdout {
		return len(b), nil
	}
	if !w.l.sawPenalty && bytes.Contains(b, []byte("penalty: ")) {
		w.l.sawPenalty = true
		w.l.kidsAtFirst = len(children(os.Getpid()))
	}
	return w.l.out.Write(b)
}

// A penalty is printed when it happens, not when its game is over: when
// the first penalty line of a one-game play is written, the game's agent
// processes are still running (they are stopped when a game ends).
func TestPenaltyPrintedAsItHappens(t *testing.T) {
	clitest.LongRunning(t)
	e, _, _ := testEnv(t)
	l := &lockedLog{}
	e.Stdout, e.Stderr = lockedWriter{l, true}, lockedWriter{l, false}
	_ = run(t, e, "play", "bohnenspiel", "lua:testdata/failing.lua", "random", "--games", "1")
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.sawPenalty {
		t.Fatalf("no penalty line:\n%s", l.out.String())
	}
	if l.kidsAtFirst < 2 {
		t.Errorf("%d agent process(es) running at the first penalty line, want the game's 2: it was printed after the game", l.kidsAtFirst)
	}
	deadline := time.Now().Add(15 * time.Second)
	for len(children(os.Getpid())) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(children(os.Getpid())); n != 0 {
		t.Errorf("%d agent process(es) still running after play", n)
	}
}
