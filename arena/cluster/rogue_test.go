package cluster_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

// honest plays a job's game with the first legal move each turn: a record
// any referee could have written, with the result the moves give.
func honest(t *testing.T, job *cluster.Job) *record.Game {
	t.Helper()
	g, err := all.Registry().Lookup(job.Game)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.NewState(engine.Params(job.Params))
	if err != nil {
		t.Fatal(err)
	}
	rec := job.NewRecord(st.Text())
	for !st.Terminal() {
		m := st.LegalMoves(nil)[0]
		rec.Moves = append(rec.Moves, record.Move{Ply: len(rec.Moves), Seat: st.ToMove(), Text: st.FormatMove(m), Source: record.SourceAgent})
		st.Apply(m)
	}
	r := st.Result()
	rec.Result = record.Result{Winner: r.Winner, Draw: r.Draw, Reason: r.Reason}
	if g.Info().HasScores {
		rec.Result.Scores = []int{r.Scores[0], r.Scores[1]}
	}
	rec.Final = st.Text()
	return rec
}

func testJob(t *testing.T) (*cluster.Job, engine.Game) {
	t.Helper()
	s := smallSpec(t, filepath.Join(t.TempDir(), "out"))
	l := s.Leagues[0]
	job := cluster.JobOf(l, l.Schedule()[0])
	return &job, l.Game
}

// Verification accepts a record whose moves give its result, and refuses
// a changed winner, a changed agent hash, an illegal move, another seed,
// and an early end without a forfeit.
func TestVerifyReplaysTheRecord(t *testing.T) {
	job, g := testJob(t)
	if err := cluster.Verify(g, nil, job, honest(t, job)); err != nil {
		t.Fatalf("an honest record refused: %v", err)
	}
	for name, forge := range map[string]func(r *record.Game){
		"winner":  func(r *record.Game) { r.Result.Winner, r.Result.Draw = 1-max(r.Result.Winner, 0), false },
		"hash":    func(r *record.Game) { r.Agents[1].Hash = "sha256:00" },
		"seed":    func(r *record.Game) { r.Seed++ },
		"illegal": func(r *record.Game) { r.Moves[3].Text = r.Moves[2].Text },
		"cut short": func(r *record.Game) {
			r.Moves = r.Moves[:4]
			r.Result = record.Result{Winner: 0, Reason: "timeout"}
		},
		"forfeit without event": func(r *record.Game) {
			r.Moves = r.Moves[:4]
			r.Result = record.Result{Winner: 0, Forfeit: "timeout"}
		},
	} {
		rec := honest(t, job)
		forge(rec)
		if err := cluster.Verify(g, nil, job, rec); err == nil {
			t.Errorf("%s: a forged record passed", name)
		}
	}
}

func smallSpec(t *testing.T, out string) *leaguefile.Spec {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "r.yaml")
	if err := os.WriteFile(file, []byte("name: r\ngame: bohnenspiel\ngames_per_pairing: 2\nseed: 5\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rogue is a client with a valid worker credential that speaks the
// protocol by hand.
type rogue struct {
	t     *testing.T
	nc    *nats.Conn
	cons  jetstream.Consumer
	js    jetstream.JetStream
	user  string
	lease string
	res   string
}

func newRogue(t *testing.T, ctx context.Context, srv *cluster.Server) *rogue {
	t.Helper()
	ep := join(t, srv, "rogue")
	nc, err := cluster.RawConn(ctx, ep)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	jobs, res, lease := cluster.Subjects(ep.Scope)
	var cons jetstream.Consumer
	for cons == nil {
		if cons, err = js.Consumer(ctx, jobs, cluster.WorkerConsumer); err != nil {
			time.Sleep(50 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatal(ctx.Err())
		}
	}
	return &rogue{t: t, nc: nc, cons: cons, js: js, user: "rogue", lease: lease + ".rogue", res: res + ".rogue"}
}

// take fetches a job and claims its lease.
func (r *rogue) take(ctx context.Context) (jetstream.Msg, *cluster.Job, string) {
	r.t.Helper()
	for ctx.Err() == nil {
		b, err := r.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		for msg := range b.Messages() {
			var job cluster.Job
			if err := json.Unmarshal(msg.Data(), &job); err != nil {
				r.t.Fatal(err)
			}
			meta, err := msg.Metadata()
			if err != nil {
				r.t.Fatal(err)
			}
			// Valid credentials get it measured like any worker.
			lr, err := cluster.Claim(ctx, cluster.LeaseRequest{MatchID: job.MatchID, Delivery: meta.NumDelivered},
				func(ctx context.Context, body []byte) ([]byte, error) {
					rep, err := r.nc.RequestWithContext(ctx, r.lease, body)
					if err != nil {
						return nil, err
					}
					return rep.Data, nil
				}, nil)
			if err != nil || !lr.OK {
				r.t.Fatalf("lease refused: %+v %v", lr, err)
			}
			return msg, &job, lr.Token
		}
	}
	r.t.Fatal(ctx.Err())
	return nil, nil, ""
}

func (r *rogue) publish(ctx context.Context, job *cluster.Job, token string, rec *record.Game) {
	r.t.Helper()
	body, _ := json.Marshal(cluster.Result{League: job.League, MatchID: job.MatchID, Lease: token, Record: rec, Worker: record.Worker{Name: "honest-looking"}})
	if _, err := r.js.Publish(ctx, r.res, body, jetstream.WithMsgID(job.MatchID+"/forged/"+token)); err != nil {
		r.t.Fatal(err)
	}
}

// league runs the small league on srv with the coordinator's notices in
// log; start begins an honest worker.
func runLeague(t *testing.T, ctx context.Context, srv *cluster.Server, cfg cluster.Config, out string) (done chan error, start func()) {
	t.Helper()
	coord, err := cluster.Dial(ctx, srv.Coordinator(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(coord.Close)
	s := smallSpec(t, out)
	done = make(chan error, 1)
	go func() { done <- league.Run(ctx, s, league.RunOptions{Launch: inProcessLauncher, Remote: coord}) }()
	var once sync.Once
	start = func() {
		once.Do(func() {
			wctx, wcancel := context.WithCancel(ctx)
			t.Cleanup(wcancel)
			w := &cluster.Worker{Endpoint: join(t, srv, "honest"), Registry: all.Registry(), Concurrency: 1,
				Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
					p.Ref = p.Name
					return inProcessLauncher(ctx, p, o)
				}, Machine: cluster.ThisMachine("honest", 1), Config: cfg}
			go w.Run(wctx)
		})
	}
	return done, start
}

// storedGames are the small league's stored games.
func storedGames(t *testing.T, out string) []results.Game {
	t.Helper()
	st, err := resultsdb.OpenDirReadOnly(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.Games(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// storedBy is who played each stored game.
func storedBy(t *testing.T, out string) map[string]string {
	t.Helper()
	by := map[string]string{}
	for _, g := range storedGames(t, out) {
		by[g.Match.ID] = g.Record.Worker.Name
	}
	return by
}

// scenario is the small league on a fresh server, a rogue client and an
// honest worker started when the rogue has done its part.
type scenario struct {
	ctx   context.Context
	logs  *syncBuffer
	out   string
	done  chan error
	start func()
	rogue *rogue
}

func newScenario(t *testing.T, window int) *scenario {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	srv := serve(t, "127.0.0.1:0")
	sc := &scenario{ctx: ctx, logs: &syncBuffer{}, out: filepath.Join(t.TempDir(), "out")}
	cfg := testConfig
	cfg.Log, cfg.Window = sc.logs, window
	sc.done, sc.start = runLeague(t, ctx, srv, cfg, sc.out)
	sc.rogue = newRogue(t, ctx, srv)
	return sc
}

// finish starts the honest worker, waits for the league and checks the
// coordinator said want and stored every game once, match by the honest
// worker.
func (sc *scenario) finish(t *testing.T, want, match string) {
	t.Helper()
	sc.start()
	if err := <-sc.done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sc.logs.String(), want) {
		t.Fatalf("the coordinator did not say %q:\n%s", want, sc.logs.String())
	}
	by := storedBy(t, sc.out)
	if len(by) != 2 || (match != "" && by[match] != "honest") {
		t.Fatalf("stored games by worker: %v", by)
	}
}

// A rogue worker with valid credentials publishes a forged record (the
// loser made the winner): it is refused by verification, logged with the
// rogue's name, and the game is played again by an honest worker.
func TestForgedRecordIsRefused(t *testing.T) {
	t.Parallel()
	sc := newScenario(t, 0)
	msg, job, token := sc.rogue.take(sc.ctx)
	rec := honest(t, job)
	rec.Result.Winner, rec.Result.Draw = 1-max(rec.Result.Winner, 0), false
	sc.rogue.publish(sc.ctx, job, token, rec)
	if err := msg.DoubleAck(sc.ctx); err != nil {
		t.Fatal(err)
	}
	sc.finish(t, "refused the result of match "+job.MatchID+" from worker rogue", job.MatchID)
}

// A rogue takes a job, goes silent past the ack wait, takes its
// redelivery (and so the lease), then publishes a result under the first
// delivery's lease: it is refused as stale; the game is played once by
// an honest worker.
func TestStaleResultAfterRedeliveryIsRefused(t *testing.T) {
	longRunning(t)
	t.Parallel()
	sc := newScenario(t, 1)
	_, job, first := sc.rogue.take(sc.ctx)
	again, job2, second := sc.rogue.take(sc.ctx) // after the ack wait, the same job again
	if job2.MatchID != job.MatchID || second == first {
		t.Fatalf("redelivery of %s: got %s, lease %s after %s", job.MatchID, job2.MatchID, second, first)
	}
	sc.rogue.publish(sc.ctx, job, first, honest(t, job))
	if err := again.Nak(); err != nil {
		t.Fatal(err)
	}
	sc.finish(t, "refused a stale result of match "+job.MatchID+" from worker rogue", job.MatchID)
}

// A client that acknowledges a job without a result does not hang the
// league: the coordinator finds the job gone, says so and publishes it
// again.
func TestVanishedJobIsPublishedAgain(t *testing.T) {
	longRunning(t)
	t.Parallel()
	sc := newScenario(t, 0)
	for {
		b, err := sc.rogue.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		msg, ok := <-b.Messages()
		if !ok {
			continue
		}
		if err := msg.DoubleAck(sc.ctx); err != nil {
			t.Fatal(err)
		}
		break
	}
	sc.finish(t, "vanished", "")
}
