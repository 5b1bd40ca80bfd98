package cluster_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/cluster"
	"arena/arena/cluster/workerbook"
	"arena/arena/league"
	"arena/arena/league/standings"
	"arena/arena/referee"
	"arena/arena/results/resultsdb"
	"arena/games/all"
	"arena/plugins/host"
)

// fixedScore is a benchmark that measures nothing: what a worker
// reports of itself, which the coordinator does not believe.
func fixedScore(s float64) func(context.Context) (float64, error) {
	return func(context.Context) (float64, error) { return s, nil }
}

// The fairness tests' coordinator: a reference of 0.1 playouts per
// millisecond, so that a worker answering its 100-playout challenge in
// under a second and a half is fast enough (threshold at most 0.075) on
// any machine, however loaded, and one whose answer takes six seconds on
// the coordinator's clock is not.
const (
	fairReference = 0.1
	slowProof     = 6 * time.Second
)

// movedClock is the coordinator's clock (Config.Now): the real one, moved
// on by slow workers as they answer, so that a worker stands for a slow
// machine without the test waiting for one.
type movedClock struct{ by atomic.Int64 }

func (c *movedClock) now() time.Time { return time.Now().Add(time.Duration(c.by.Load())) }

// startMeasured starts an in-process worker that reports a benchmark
// score of a million (a lie the coordinator must not believe) and answers
// the coordinator's speed challenge; with slow set, the answer moves the
// coordinator's clock on by slowProof first.
func startMeasured(t *testing.T, ctx context.Context, srv *cluster.Server, name string, slow *movedClock, cfg cluster.Config) {
	t.Helper()
	wctx, wcancel := context.WithCancel(ctx)
	t.Cleanup(wcancel)
	w := &cluster.Worker{Endpoint: join(t, srv, name), Registry: all.Registry(), Concurrency: 1, Benchmark: fixedScore(1e6),
		Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
			p.Ref = p.Name
			return inProcessLauncher(ctx, p, o)
		}, Machine: cluster.ThisMachine(name, 1), Config: cfg}
	if slow != nil {
		w.Prove = func(_ context.Context, seed uint64, n int) (uint64, error) {
			slow.by.Add(int64(slowProof))
			return cluster.ProofOf(seed, n), nil
		}
	}
	go w.Run(wctx)
}

// workerClasses is the worker and class of every stored game.
func workerClasses(t *testing.T, out string) []string {
	t.Helper()
	var got []string
	for _, g := range storedGames(t, out) {
		got = append(got, g.Record.Worker.Name+"/"+g.Record.Worker.Class)
	}
	return got
}

// Under a wall-clock profile (Bohnenspiel's) and slow_workers: refuse, a
// worker whose measured score is under min_speed × the coordinator's is
// refused every game, whatever score it reports, with the scores and the
// threshold said on the coordinator's console; a fast worker then plays
// them all, recorded in class standard.
func TestSlowWorkerIsRefused(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("measures two workers' speed and plays a league: runs without -short (the classes' other cases run)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	logs := &syncBuffer{}
	cfg := testConfig
	out := filepath.Join(t.TempDir(), "out")
	book, err := workerbook.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	clock := &movedClock{}
	cfg.Log, cfg.ReferenceScore, cfg.MinSpeed, cfg.SlowWorkers, cfg.Book, cfg.Now = logs, fairReference, 0.5, cluster.SlowRefuse, book, clock.now
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			coord.Close()
		}
	}()
	done := make(chan error, 1)
	go func() {
		done <- league.Run(ctx, smallSpec(t, out), league.RunOptions{Launch: inProcessLauncher, Remote: coord})
	}()
	startMeasured(t, ctx, srv, "laggard", clock, cfg)
	want := "is under the league's threshold 0.1 (cluster.min_speed 0.50 × the coordinator's 0.1)"
	for !strings.Contains(logs.String(), "refused worker laggard: benchmark score ") || !strings.Contains(logs.String(), want) {
		select {
		case <-ctx.Done():
			t.Fatalf("the coordinator did not refuse the slow worker:\n%s", logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !strings.Contains(logs.String(), "worker laggard measured by the coordinator") || !strings.Contains(logs.String(), "it reported 1000000.0") {
		t.Fatalf("the coordinator did not say how it measured the worker:\n%s", logs.String())
	}
	startMeasured(t, ctx, srv, "quick", nil, cfg)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := workerClasses(t, out); len(got) != 2 || got[0] != "quick/standard" || got[1] != "quick/standard" {
		t.Fatalf("stored games by worker/class: %v", got)
	}
	// The coordinator's book (the viewer's workers page) says the same.
	coord.Close()
	closed = true
	ws, err := book.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 {
		t.Fatalf("workers book: %+v", ws)
	}
	lag, quick := ws[0], ws[1]
	if lag.Name != "laggard" || lag.Class != cluster.ClassSlow || lag.Score >= 0.5*fairReference || lag.Games != 0 || lag.Refusals == 0 || !strings.Contains(lag.LastRefusal, "slow") || lag.LastSeen.IsZero() {
		t.Fatalf("laggard in the book: %+v", lag)
	}
	if quick.Name != "quick" || quick.Class != cluster.ClassStandard || quick.Games != 2 || quick.Refusals != 0 || quick.InProgress != 0 || quick.Cores != 1 {
		t.Fatalf("quick in the book: %+v", quick)
	}
}

// With slow_workers: class (the default) a slow worker plays, and its
// games carry class slow; the standings split by class put them apart.
func TestSlowWorkerPlaysInItsOwnClass(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	cfg := testConfig
	clock := &movedClock{}
	cfg.ReferenceScore, cfg.Now = fairReference, clock.now
	out := filepath.Join(t.TempDir(), "out")
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	startMeasured(t, ctx, srv, "laggard", clock, cfg)
	if err := league.Run(ctx, smallSpec(t, out), league.RunOptions{Launch: inProcessLauncher, Remote: coord}); err != nil {
		t.Fatal(err)
	}
	if got := workerClasses(t, out); len(got) != 2 || got[0] != "laggard/slow" || got[1] != "laggard/slow" {
		t.Fatalf("stored games by worker/class: %v", got)
	}
	st, err := resultsdb.OpenDirReadOnly(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	groups, err := standings.ReportByWorkerClass(ctx, st, "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 || groups[0].Worker.Class != cluster.ClassSlow || groups[0].Played != 2 || groups[0].Worker.Score >= cluster.DefaultMinSpeed*fairReference {
		t.Fatalf("standings by class: %+v", groups)
	}
}

// The benchmark's workload is fixed: every playout ends, and a score
// comes back (how big is the machine's business, not the test's).
func TestBenchmarkWorkloadIsFixed(t *testing.T) {
	if n := cluster.BenchmarkPlayouts(50); n != 50 {
		t.Fatalf("%d of 50 playouts ended", n)
	}
	if s, err := cluster.Benchmark(context.Background()); err != nil || s <= 0 {
		t.Fatalf("score %v, %v", s, err)
	}
}
