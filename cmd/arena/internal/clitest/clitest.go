// Package clitest is what the tests of the arena command share: the
// programs they run (the arena, its init and lean agent host, fixture
// agents), built once per test binary run from a cache kept between runs;
// the set-up of their test binaries (Main); running the arena binary as a
// command; and small file helpers. The commands' tests are in
// cmd/arena/internal/cli and, for those that play leagues or build agents,
// in the packages under cmd/arena/internal/clitest, so that each package
// stays short enough to run by itself.
package clitest

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"arena/agents"
	"arena/arena/record"
	"arena/arena/slots"
	"arena/internal/testparallel"
)

// Main is the body of a command test package's TestMain, and returns the
// status to exit with. The test binary serves an agent when started as
// an agent host (agents.HostArg); otherwise it runs the tests with:
//   - the garbage collector at its default target: the in-process league
//     runs would raise it to 400 % (leagueGC), the heap would grow to
//     about 250 MB, and every sandboxed start forks the test binary,
//     copying its page tables (bench/forkcost: 5 ms more per 100 MB on
//     this project's 2-core machine);
//   - four parallel tests at a time on a machine with fewer CPUs, unless
//     -test.parallel says: they mostly wait on the processes they start;
//   - CPU slots of the run's own for the leagues, in process and in the
//     arena processes the tests start, instead of a user's;
//   - the programs linked in the background from the start of a full run,
//     and removed at its end.
func Main(m *testing.M) int {
	if len(os.Args) > 2 && os.Args[1] == agents.HostArg {
		if err := agents.Serve(os.Args[2]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 1
		}
		return 0
	}
	flag.Parse()
	if os.Getenv("GOGC") == "" {
		os.Setenv("GOGC", "100")
	}
	if runtime.GOMAXPROCS(0) < waitingParallel {
		if err := testparallel.Default(waitingParallel); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			return 2
		}
	}
	slotDir, err := slots.UseOwnDir("arena-cmd-test-slots-")
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 2
	}
	linked := builds.prefetch()
	code := m.Run()
	<-linked
	if err := builds.remove(); err != nil {
		os.Stderr.WriteString("the tests' programs: " + err.Error() + "\n")
	}
	os.RemoveAll(slotDir)
	return code
}

// waitingParallel is how many parallel tests run at once where the
// machine has fewer CPUs: these tests mostly wait on the processes they
// start (agents, leagues, builds, a browser). Idle, four at a time took
// as long as two on a 2-core machine (111 s and 118 s, the tests being
// bound by CPU); under other load, two at a time left them less of the
// CPU than their neighbours got, and they ran 555 s of go test's 600
// under sixteen CPU burners.
const waitingParallel = 4

// LongRunning skips a test under -short. The short suite keeps the quick
// tests of each command and leaves out those that play many games, build
// agents or start many processes (docs/testing.md).
func LongRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays many games, builds agents or starts many processes: runs without -short")
	}
}

// Result is what a run of the arena binary printed, and how it ended.
type Result struct {
	Stdout, Stderr string
	Err            error
}

// Arena runs the arena binary bin with args.
func Arena(t *testing.T, ctx context.Context, bin string, args ...string) Result {
	t.Helper()
	return ArenaEnv(t, ctx, bin, nil, args...)
}

// ArenaEnv runs the arena binary bin with args and env added to the
// test's environment.
func ArenaEnv(t *testing.T, ctx context.Context, bin string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return Result{out.String(), errb.String(), err}
}

// FirstRecord is the first game record of a JSON-lines records file,
// read and checked as the arena reads records (record.Reader).
func FirstRecord(t *testing.T, path string) *record.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := record.NewReader(f).Next()
	if errors.Is(err, io.EOF) {
		t.Fatalf("%s is empty", path)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g
}

// WriteScript writes an executable or a Lua script into dir.
func WriteScript(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// LeagueFile writes a Bohnenspiel league of greedy and random, with extra
// lines before its agents, into dir.
func LeagueFile(t *testing.T, dir, name, extra string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return WriteScript(t, dir, name, "game: bohnenspiel\n"+extra+"agents:\n  - {name: greedy, agent: greedy}\n  - {name: random, agent: random}\n", 0o644)
}

// CopyTree copies the files of src into dst, as a student copies a
// scaffold somewhere of their own.
func CopyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := CopyDir(src, dst); err != nil {
		t.Fatal(err)
	}
}

// CopyDir is CopyTree for a goroutine other than the test's.
func CopyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// Say sends s on ch unless no one is waiting and its buffer is full.
func Say(ch chan string, s string) {
	select {
	case ch <- s:
	default:
	}
}
