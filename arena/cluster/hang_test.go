package cluster_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/referee"
	"arena/games/all"
	"arena/plugins/host"
)

// With no worker, the coordinator says so after NoWorkerAfter, and it
// publishes no more jobs than its window.
func TestNoWorkerIsSaidAndJobsStayInTheWindow(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	var logs syncBuffer
	cfg := cluster.Config{AckWait: 2 * time.Second, Window: 3, CheckEvery: 100 * time.Millisecond, NoWorkerAfter: 300 * time.Millisecond, Log: &logs}
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	s := loadSpec(t, filepath.Join(t.TempDir(), "out"), 4) // 24 games
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- league.Run(rctx, s, league.RunOptions{Launch: inProcessLauncher, Remote: coord}) }()
	for !strings.Contains(logs.String(), "no live worker: 3 job(s) waiting, no worker has connected") {
		select {
		case <-ctx.Done():
			t.Fatalf("no word of the missing workers:\n%s", logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	nc, err := cluster.RawConn(ctx, srv.Coordinator())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	jobs, _, _ := cluster.Subjects(cluster.DefaultScope)
	st, err := js.Stream(ctx, jobs)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 3 {
		t.Fatalf("%d jobs in the stream, the window is 3", info.State.Msgs)
	}
	stop()
	<-done
}

// The same league run again into a new directory against the same server
// (its jobs' match ids still in the duplicate window) plays every game.
func TestRerunAgainstTheSameServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	w := &cluster.Worker{Endpoint: join(t, srv, "w"), Registry: all.Registry(), Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		p.Ref = strings.TrimSuffix(p.Name, "2") // random2 is random
		return inProcessLauncher(ctx, p, o)
	},
		Concurrency: 1, Machine: cluster.ThisMachine("w", 1), Config: testConfig}
	go w.Run(wctx)
	for run := range 2 {
		coord, err := cluster.Dial(ctx, srv.Coordinator(), testConfig)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		played := 0
		err = league.Run(ctx, loadSpec(t, out, 2), league.RunOptions{Launch: inProcessLauncher, Remote: coord, OnGame: func(league.Progress) { played++ }})
		coord.Close()
		if err != nil || played != 12 {
			t.Fatalf("run %d: %d game(s) played, %v", run+1, played, err)
		}
	}
}
