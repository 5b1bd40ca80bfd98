package cluster_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/cluster"
	"arena/arena/cluster/workerbook"
	"arena/arena/league"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/games/all"
	"arena/plugins/host"
)

// fixedScore is a benchmark that measures nothing: tests give scores.
func fixedScore(s float64) func(context.Context) (float64, error) {
	return func(context.Context) (float64, error) { return s, nil }
}

// startScored starts an in-process worker with a given benchmark score.
func startScored(t *testing.T, ctx context.Context, srv *cluster.Server, name string, score float64, cfg cluster.Config) {
	t.Helper()
	wctx, wcancel := context.WithCancel(ctx)
	t.Cleanup(wcancel)
	w := &cluster.Worker{Endpoint: join(t, srv, name), Registry: all.Registry(), Concurrency: 1, Benchmark: fixedScore(score),
		Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
			p.Ref = p.Name
			return inProcessLauncher(ctx, p, o)
		}, Machine: cluster.ThisMachine(name, 1), Config: cfg}
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
// worker whose benchmark score is under min_speed × the coordinator's is
// refused every game, with the scores and the threshold said on the
// coordinator's console; a fast worker then plays them all, recorded in
// class standard.
func TestSlowWorkerIsRefused(t *testing.T) {
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
	cfg.Log, cfg.ReferenceScore, cfg.MinSpeed, cfg.SlowWorkers, cfg.Book = logs, 100, 0.5, cluster.SlowRefuse, book
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
	startScored(t, ctx, srv, "laggard", 40, cfg)
	want := "refused worker laggard: benchmark score 40.0 is under the league's threshold 50.0 (cluster.min_speed 0.50 × the coordinator's 100.0)"
	for !strings.Contains(logs.String(), want) {
		select {
		case <-ctx.Done():
			t.Fatalf("the coordinator did not refuse the slow worker:\n%s", logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	startScored(t, ctx, srv, "quick", 60, cfg)
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
	if lag.Name != "laggard" || lag.Class != cluster.ClassSlow || lag.Score != 40 || lag.Games != 0 || lag.Refusals == 0 || !strings.Contains(lag.LastRefusal, "slow") || lag.LastSeen.IsZero() {
		t.Fatalf("laggard in the book: %+v", lag)
	}
	if quick.Name != "quick" || quick.Class != cluster.ClassStandard || quick.Games != 2 || quick.Refusals != 0 || quick.InProgress != 0 || quick.Cores != 1 {
		t.Fatalf("quick in the book: %+v", quick)
	}
}

// With slow_workers: class (the default) a slow worker plays, and its
// games carry class slow; the standings split by class put them apart.
func TestSlowWorkerPlaysInItsOwnClass(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	cfg := testConfig
	cfg.ReferenceScore = 100
	out := filepath.Join(t.TempDir(), "out")
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	startScored(t, ctx, srv, "laggard", 74, cfg)
	if err := league.Run(ctx, smallSpec(t, out), league.RunOptions{Launch: inProcessLauncher, Remote: coord}); err != nil {
		t.Fatal(err)
	}
	if got := workerClasses(t, out); len(got) != 2 || got[0] != "laggard/slow" || got[1] != "laggard/slow" {
		t.Fatalf("stored games by worker/class: %v", got)
	}
	st, err := results.OpenDirReadOnly(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	groups, err := league.ReportByWorkerClass(ctx, st, "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 || groups[0].Worker.Class != cluster.ClassSlow || groups[0].Played != 2 || groups[0].Worker.Score != 74 {
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
