package cluster_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/agents/builtin"
	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/sdk"
)

// The test binary is also an agent host (hostArg) and a cluster worker
// (workerArg), so workers are real processes that can be killed.
const (
	hostArg   = "__cluster_test_agent"
	workerArg = "__cluster_test_worker"
)

var testAgents = []string{"random", "greedy"}

// longRunning skips a test under -short: the short suite keeps the
// leagues over one embedded server and the refusals, and leaves out the
// redelivery, republishing and permission checks that wait on the
// server's timers (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("waits on the cluster's redelivery and lease timers: runs without -short")
	}
}

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		a, err := builtin.New(strings.TrimPrefix(os.Args[2], "builtin:"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sdk.Serve(a)
		return
	}
	if len(os.Args) > 4 && os.Args[1] == workerArg {
		if err := runWorker(os.Args[2], os.Args[3], os.Args[4]); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func launcher() referee.Launcher {
	return referee.HostLauncher(&host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: testAgents, Isolation: host.IsolationOff})
}

// runWorker is one worker process: its own slots (as on a machine of its
// own), a short ack wait, until killed.
func runWorker(token, name, slotDir string) error {
	ep, err := cluster.ParseToken(token)
	if err != nil {
		return err
	}
	mach, err := slots.Detect(2)
	if err != nil {
		return err
	}
	pool, err := slots.New(slotDir, mach)
	if err != nil {
		return err
	}
	w := &cluster.Worker{
		Endpoint: ep, Registry: all.Registry(), Launch: launcher(), Slots: pool, Concurrency: 1,
		Machine: cluster.ThisMachine(name, pool.Size()), Config: testConfig, Log: os.Stderr,
	}
	return w.Run(context.Background())
}

// testConfig: workers are measured with 100 playouts, not the
// benchmark's 4000.
var testConfig = cluster.Config{AckWait: 2 * time.Second, ChallengePlayouts: 100}

// join is worker name's endpoint on srv.
func join(t testing.TB, srv *cluster.Server, name string) cluster.Endpoint {
	t.Helper()
	ep, err := srv.Join(name)
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

func loadSpec(t *testing.T, out string, gpp int) *leaguefile.Spec {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "cl.yaml")
	body := fmt.Sprintf(`
name: cl
game: bohnenspiel
games_per_pairing: %d
seed: 11
agents:
  - name: random
    agent: random
  - name: greedy
    agent: greedy
  - name: random2
    agent: random
  - name: greedy2
    agent: greedy
`, gpp)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type worker struct {
	cmd  *exec.Cmd
	name string
}

func startWorker(t *testing.T, srv *cluster.Server, name string) *worker {
	t.Helper()
	cmd := exec.Command(os.Args[0], workerArg, join(t, srv, name).Token(), name, filepath.Join(t.TempDir(), "slots"))
	cmd.Stderr = &prefixWriter{name: name}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &worker{cmd: cmd, name: name}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return w
}

// prefixWriter drops the workers' per-game lines but keeps other output
// for a failing test's log.
type prefixWriter struct{ name string }

func (p *prefixWriter) Write(b []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line != "" && !strings.HasPrefix(line, "played ") {
			fmt.Fprintf(os.Stderr, "[%s] %s\n", p.name, line)
		}
	}
	return len(b), nil
}

type row struct {
	W, D, L int
	Score   float64
}

func storedStandings(t *testing.T, dir string) (map[string]row, []results.Game) {
	t.Helper()
	st, err := resultsdb.OpenDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := standings.Report(context.Background(), st, "cl")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]row{}
	for _, r := range rep.Rows {
		out[r.Agent] = row{r.W, r.D, r.L, r.Score}
	}
	games, err := st.Games(context.Background(), "cl")
	if err != nil {
		t.Fatal(err)
	}
	return out, games
}

// A league of 72 games through an embedded JetStream server and three
// worker processes: one is SIGKILLed in the middle of a game, another
// joins late. Every game is stored exactly once, each names the worker
// that played it, and the standings equal those of the same league run
// locally.
func TestClusterLeagueSurvivesAKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four processes and plays 72 games")
	}
	t.Parallel()
	// 6 pairings: 72 games, the kill after the 12th is stored. The 60
	// left are for the late worker: it joins within a game or two of
	// its start (it played 86 of the 174 left when there were 204), and
	// the killed worker's game cannot be stored before its ack wait.
	const gpp, killAfter = 12, 12
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := cluster.Serve("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	coord, err := cluster.Dial(ctx, srv.Coordinator(), testConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()

	out := filepath.Join(t.TempDir(), "cluster")
	s := loadSpec(t, out, gpp)
	w1 := startWorker(t, srv, "w1")
	startWorker(t, srv, "w2")
	killed := make(chan struct{})
	stored := 0
	var runErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		runErr = league.Run(ctx, s, league.RunOptions{
			Launch: launcher(), Remote: coord,
			OnGame: func(p league.Progress) {
				stored++
				if stored == killAfter {
					close(killed)
				}
			},
		})
	}()
	select {
	case <-killed:
	case <-done:
		t.Fatalf("league over before the kill: %v", runErr)
	}
	// Kill w1 while its agents run: in the middle of a game, which must be
	// replayed by another worker.
	for !hasChildren(w1.cmd.Process.Pid) {
		select {
		case <-done:
			t.Fatalf("league over before the kill: %v", runErr)
		case <-time.After(time.Millisecond):
		}
	}
	if err := w1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	startWorker(t, srv, "w3")
	<-done
	if runErr != nil {
		t.Fatal(runErr)
	}

	got, games := storedStandings(t, out)
	if len(games) != 6*gpp {
		t.Fatalf("%d games stored, want %d", len(games), 6*gpp)
	}
	seen := map[string]bool{}
	byWorker := map[string]int{}
	for _, g := range games {
		if seen[g.Match.ID] {
			t.Fatalf("match %s stored twice", g.Match.ID)
		}
		seen[g.Match.ID] = true
		if g.Record.Worker == nil || g.Record.Worker.CPU == "" || g.Record.Worker.Cores < 1 {
			t.Fatalf("game %s: worker %+v", g.Match.ID, g.Record.Worker)
		}
		byWorker[g.Record.Worker.Name]++
	}
	if byWorker["w3"] == 0 || byWorker["w2"] == 0 {
		t.Fatalf("games by worker: %v", byWorker)
	}
	t.Logf("games by worker: %v", byWorker)
	st, err := resultsdb.OpenDirReadOnly(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := standings.ReportByWorker(ctx, st, "cl")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.Played != byWorker[g.Worker.Name] {
			t.Fatalf("standings of worker %s count %d games, it played %d", g.Worker.Name, g.Played, byWorker[g.Worker.Name])
		}
	}
	if len(groups) != len(byWorker) {
		t.Fatalf("%d worker tables for %d workers", len(groups), len(byWorker))
	}

	// The same league, locally: the same agents' code with the same seeds,
	// run in this process to keep the test short.
	local := filepath.Join(t.TempDir(), "local")
	ls := loadSpec(t, local, gpp)
	if err := league.Run(ctx, ls, league.RunOptions{Launch: inProcessLauncher, Slots: mustPool(t)}); err != nil {
		t.Fatal(err)
	}
	want, _ := storedStandings(t, local)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("cluster standings %v\nlocal standings %v", got, want)
	}
}

// hasChildren reports whether a process has a child now (a worker's agent).
func hasChildren(pid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			return true
		}
	}
	return false
}

func mustPool(t *testing.T) *slots.Pool {
	m, err := slots.Detect(2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := slots.New(t.TempDir(), m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
