// Command coordload measures what a cluster coordinator costs per game:
// the process that runs `league run --serve-cluster` (the embedded
// JetStream server, the coordinator publishing jobs a window at a time,
// granting leases, replaying every record against its job, and the league
// runner storing each game) plays a round-robin whose games are answered
// at once by a worker in another process. That worker plays no agents: it
// plays each game with moves drawn from the job's seed through the
// engine, and publishes a record that passes verification, so what is
// measured is the coordinator's share alone. It prints the coordinator
// process's CPU time per game and its peak resident memory.
//
//	go run ./bench/coordload -entrants 200 -gpp 2 -game pentago-twist
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

const roleWorker = "__coordload_worker"

func main() {
	if len(os.Args) > 2 && os.Args[1] == roleWorker {
		if err := instantWorker(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		return
	}
	entrants := flag.Int("entrants", 200, "entrants of the round-robin")
	gpp := flag.Int("gpp", 2, "games per pairing")
	game := flag.String("game", "pentago-twist", "the game")
	heap := flag.String("heapprofile", "", "write the coordinator process's live heap when the last game is stored, and when the run has ended (FILE.end), to this file (go tool pprof)")
	flag.Parse()
	if err := measure(*entrants, *gpp, *game, *heap); err != nil {
		fmt.Fprintln(os.Stderr, "coordload:", err)
		os.Exit(1)
	}
}

func measure(entrants, gpp int, game, heap string) error {
	dir, err := os.MkdirTemp("", "arena-coordload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	fmt.Fprintf(&b, "name: load\ngame: %s\nseed: 3\ngames_per_pairing: %d\nagents:\n", game, gpp)
	for i := range entrants {
		fmt.Fprintf(&b, "  - {name: e%03d, agent: random}\n", i)
	}
	file := filepath.Join(dir, "load.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return err
	}
	out := filepath.Join(dir, "out")
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
	if err != nil {
		return err
	}
	ctx := context.Background()
	srv, err := cluster.Serve("127.0.0.1:0", out)
	if err != nil {
		return err
	}
	defer srv.Close()
	ep, err := srv.Join("instant")
	if err != nil {
		return err
	}
	w := exec.Command(os.Args[0], roleWorker, ep.Token())
	w.Stderr = os.Stderr
	w.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := w.Start(); err != nil {
		return err
	}
	defer func() { _ = w.Process.Kill(); _ = w.Wait() }()
	// The reference score only classes workers; no benchmark is timed here.
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cluster.Config{ReferenceScore: 1})
	if err != nil {
		return err
	}
	defer coord.Close()
	peak := sampleRSS()
	before, start := cpu(), time.Now()
	played, total := 0, 0
	for _, l := range s.Leagues {
		total += len(l.Agents) * (len(l.Agents) - 1) / 2 * gpp
	}
	var tenths, goMem []string // RSS, and the Go heap's live objects / all Go memory, after each tenth of the games
	var playPeak int64         // the peak when the last game was stored: before the run's end writes the records export
	var heapErr error
	var at1000 int64 // RSS after 1,000 games: the start of the flat-memory bar (within 20 % of it at 100,000)
	err = league.Run(ctx, s, league.RunOptions{Launch: noAgents, Remote: coord, OnGame: func(league.Progress) {
		played++
		if played == 1000 {
			at1000 = rss()
		}
		if total >= 10 && played%(total/10) == 0 {
			// File-backed pages apart: the binary's and mapped files'.
			tenths = append(tenths, fmt.Sprintf("%d/%d", rss()>>20, status("RssFile:")>>20))
			goMem = append(goMem, goMemory())
		}
		if played == total {
			playPeak = maxRSS()
			if heap != "" {
				// While the runner, the coordinator and the server still
				// hold what the league made them keep.
				heapErr = writeHeap(heap)
			}
		}
	}})
	wall, used := time.Since(start), cpu()-before
	peakRSS := peak()
	if err != nil {
		return err
	}
	if heap != "" {
		if err := errors.Join(heapErr, writeHeap(heap+".end")); err != nil {
			return err
		}
	}
	fmt.Printf("coordload: %s round-robin, %d entrants, %d games stored in %v; coordinator process (embedded server, coordinator, runner, store): CPU %v (%.2f ms per game), peak RSS %d MiB (getrusage max %d MiB; %d MiB when the last game was stored), RSS after 1,000 games %d MiB, after each tenth of the games (all/file-backed) %s MiB (Go heap objects/all Go memory %s MiB)\n",
		game, entrants, played, wall.Round(time.Second), used.Round(time.Millisecond), float64(used.Microseconds())/1000/float64(max(played, 1)), peakRSS>>20, maxRSS()>>20, playPeak>>20, at1000>>20, strings.Join(tenths, " "), strings.Join(goMem, " "))
	return nil
}

// noAgents refuses to start agents: every game is played remotely.
func noAgents(context.Context, referee.Player, host.Options) (referee.Handle, error) {
	return nil, errors.New("coordload: agents are not started on the coordinator")
}

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func maxRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss << 10
}

// sampleRSS reads this process's resident set every 200 ms; the returned
// function stops sampling and gives the peak.
func sampleRSS() func() int64 {
	var mu sync.Mutex
	var peak int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			if v := rss(); v > 0 {
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		return peak
	}
}

func rss() int64 { return status("VmRSS:") }

// status is a size /proc/self/status gives (in kB) under key, in bytes.
func status(key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// instantWorker answers every job at once with a game played by the
// engine from the job's seed, under a lease, as a worker would.
func instantWorker(token string) error {
	ep, err := cluster.ParseToken(token)
	if err != nil {
		return err
	}
	ctx := context.Background()
	nc, err := cluster.Connect(ctx, ep, "coordload worker")
	if err != nil {
		return err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	wire := cluster.WireOf(ep.Scope)
	var cons jetstream.Consumer
	for cons == nil {
		if cons, err = js.Consumer(ctx, wire.JobsStream, wire.WorkerConsumer); err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	for {
		batch, err := cons.Fetch(64, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		for msg := range batch.Messages() {
			if err := answer(ctx, js, nc.RequestWithContext, wire, ep.User, msg); err != nil {
				fmt.Fprintln(os.Stderr, "worker:", err)
				_ = msg.Nak()
			}
		}
	}
}

type requester = func(ctx context.Context, subj string, data []byte) (*nats.Msg, error)

// answer claims the job's lease, plays and publishes its game.
func answer(ctx context.Context, js jetstream.JetStream, request requester, wire cluster.Wire, user string, msg jetstream.Msg) error {
	var job cluster.Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil {
		return msg.Term()
	}
	meta, err := msg.Metadata()
	if err != nil {
		return err
	}
	// Measured by the coordinator before its first lease.
	lease, err := cluster.Claim(ctx, cluster.LeaseRequest{MatchID: job.MatchID, Delivery: meta.NumDelivered},
		func(ctx context.Context, body []byte) ([]byte, error) {
			rep, err := request(ctx, wire.Lease(user), body)
			if err != nil {
				return nil, err
			}
			return rep.Data, nil
		}, nil)
	if err != nil {
		return err
	}
	if !lease.OK {
		return msg.Ack() // stored already, or another delivery holds it
	}
	rec, err := play(&job)
	if err != nil {
		return err
	}
	res, _ := json.Marshal(cluster.Result{League: job.League, MatchID: job.MatchID, Lease: lease.Token, Record: rec})
	if _, err := js.Publish(ctx, wire.Results(user), res, jetstream.WithMsgID(job.MatchID+"/"+lease.Token)); err != nil {
		return err
	}
	return msg.Ack()
}

// play plays the job's game with moves drawn from its seed.
func play(job *cluster.Job) (*record.Game, error) {
	g, err := all.Registry().Lookup(job.Game)
	if err != nil {
		return nil, err
	}
	st, err := g.NewState(engine.Params(job.Params))
	if err != nil {
		return nil, err
	}
	rec := job.NewRecord(st.Text())
	r := rand.New(rand.NewPCG(job.Seed, 7))
	for !st.Terminal() {
		legal := st.LegalMoves(nil)
		m := legal[r.IntN(len(legal))]
		rec.Moves = append(rec.Moves, record.Move{Ply: len(rec.Moves), Seat: st.ToMove(), Text: st.FormatMove(m), Source: record.SourceAgent})
		st.Apply(m)
	}
	res := st.Result()
	rec.Result = record.Result{Winner: res.Winner, Draw: res.Draw, Reason: res.Reason}
	if g.Info().HasScores {
		rec.Result.Scores = []int{res.Scores[0], res.Scores[1]}
	}
	rec.Final = st.Text()
	return rec, nil
}

// writeHeap writes the live heap after a collection.
func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.WriteHeapProfile(f)
}

// goMemory is the Go heap's objects and all memory the Go runtime maps,
// in MiB: what RSS holds beyond it is SQLite's (its C heap, translated to
// Go, is not the Go heap's) or memory returned and not yet reused.
func goMemory() string {
	ms := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(ms)
	return fmt.Sprintf("%d/%d", ms[0].Value.Uint64()>>20, ms[1].Value.Uint64()>>20)
}
