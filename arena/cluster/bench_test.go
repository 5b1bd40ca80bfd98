package cluster_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/agents/builtin"
	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// inProcess is an agent run inside the test process, so that a benchmark
// measures scheduling, not process start-up.
type inProcess struct{ protocol.Agent }

func (inProcess) Kill()                           {}
func (inProcess) CPUTime() (time.Duration, error) { return 0, nil }
func (inProcess) MemoryExceeded() <-chan struct{} { return nil }
func (inProcess) Stderr() string                  { return "" }

func inProcessLauncher(ctx context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
	a, err := builtin.New(p.Ref)
	if err != nil {
		return nil, err
	}
	impl := sdk.ServeConfig(a).Plugins[protocol.PluginName].(*protocol.Plugin).Impl
	return inProcess{impl}, nil
}

func benchSpec(b *testing.B, out string, gpp int) *leaguefile.Spec {
	b.Helper()
	file := filepath.Join(b.TempDir(), "bench.yaml")
	body := fmt.Sprintf("name: bench\ngame: bohnenspiel\ngames_per_pairing: %d\nconcurrency: 1\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n", gpp)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkSchedulingLocal is the time per game of a league of in-process
// agents through the local pool (one game at a time).
func BenchmarkSchedulingLocal(b *testing.B) {
	s := benchSpec(b, filepath.Join(b.TempDir(), "l"), 2*b.N)
	b.ResetTimer()
	if err := league.Run(context.Background(), s, league.RunOptions{Launch: inProcessLauncher, Store: memStore(b)}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(2*b.N)/1000, "ms/game")
}

// BenchmarkSchedulingJetStream is the same league through an embedded
// JetStream server and one in-process worker: the difference per game is
// the cluster's scheduling overhead (publish, fetch, result, store,
// acknowledgements).
func BenchmarkSchedulingJetStream(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := cluster.Serve("127.0.0.1:0", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cluster.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer coord.Close()
	w := &cluster.Worker{Endpoint: join(b, srv, "bench"), Registry: all.Registry(), Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		p.Ref = p.Name
		return inProcessLauncher(ctx, p, o)
	}, Concurrency: 1, Machine: cluster.ThisMachine("bench", 1)}
	go w.Run(ctx)
	s := benchSpec(b, filepath.Join(b.TempDir(), "c"), 2*b.N)
	b.ResetTimer()
	if err := league.Run(ctx, s, league.RunOptions{Launch: inProcessLauncher, Remote: coord, Store: memStore(b)}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(2*b.N)/1000, "ms/game")
}

// memStore is a SQLite store in a temporary directory, the same store the
// league run uses.
func memStore(b *testing.B) results.Store {
	st, err := resultsdb.OpenDir(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}
