package cluster

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/league"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/engine"
	"arena/plugins/host"
)

// Worker plays jobs from the cluster.
type Worker struct {
	// Endpoint is the coordinator's server and this worker's credential
	// (from its join token).
	Endpoint Endpoint
	Registry *engine.Registry
	// Launch starts an agent from a local launch reference.
	Launch referee.Launcher
	// Runtime tells what runs the agent at a local launch reference, for
	// the profile's memory rule (nil: every agent is native).
	Runtime func(ref string) engine.Runtime
	// Slots are this machine's CPU slots (nil: none reserved).
	Slots *slots.Pool
	// Concurrency is the number of games at once (default: half the
	// slots, at least 1).
	Concurrency int
	// CacheDir is where agents fetched from the coordinator's object store
	// are kept, one folder per content hash (required to fetch).
	CacheDir string
	// CacheUnused is how long a fetched agent stays in CacheDir unused
	// (0: DefaultCacheUnused); older ones are removed when the worker
	// starts.
	CacheUnused time.Duration
	// Prepare readies a course agent at a local launch reference for a
	// game once per process, before its first game here (compiling a
	// COMP424 repository, checking a Python agent's imports); nil: none.
	Prepare func(ctx context.Context, launch, game string) error
	// AgentDir, when set, is where this machine keeps its own copies of
	// the league's script, binary and course agents, found by content
	// hash before anything is fetched.
	AgentDir string
	// Machine describes this worker in every result; Run fills in its
	// benchmark score.
	Machine record.Worker
	// Benchmark measures this machine when the worker joins (nil:
	// Benchmark); tests give a fixed score.
	Benchmark func(ctx context.Context) (float64, error)
	// Prove answers the coordinator's speed challenge: the digest of n
	// playouts from seed (nil: ProofOf). Tests stand for a slower
	// machine with one that moves the coordinator's clock on.
	Prove  func(ctx context.Context, seed uint64, n int) (uint64, error)
	Config Config
	// Log receives one line per game and per refused job.
	Log io.Writer

	index    *agentIndex
	cache    *agentCache
	prepMu   sync.Mutex
	prepared map[string]error // hash and game → what Prepare said
	nc       *nats.Conn
	names    names
	me       string // the subject token this worker publishes under
	prover   prover
}

var unsafeSubject = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// authAttempts is how many refusals of its credential, a second apart, a
// worker takes before it gives up.
const authAttempts = 3

// connectWorker waits for the server and the coordinator's consumer: a
// worker may start first.
func (w *Worker) connectWorker(ctx context.Context, logw io.Writer) (jetstream.JetStream, jetstream.Consumer, error) {
	said, refusals := false, 0
	for {
		nc, err := dial(ctx, w.Endpoint, "arena worker "+w.Machine.Name)
		var cons jetstream.Consumer
		var js jetstream.JetStream
		if err == nil {
			js, err = jetstream.New(nc)
			if err == nil {
				cons, err = js.Consumer(ctx, w.names.jobsStream, workerConsumer)
			}
			if err == nil {
				w.nc = nc
				return js, cons, nil
			}
			nc.Close()
			err = fmt.Errorf("cluster %s: no jobs yet (%w)", w.Endpoint.URL, err)
		}
		if errors.Is(err, nats.ErrAuthorization) || strings.Contains(err.Error(), "Authorization Violation") {
			// A server reloading its credentials as the worker connects can
			// refuse it once (seen at load average 22, right after the
			// token was made): only a refusal that lasts is final.
			if refusals++; refusals >= authAttempts {
				return nil, nil, fmt.Errorf("%w: the credential was refused %d times (revoked, or not this league's)", err, refusals)
			}
		}
		if !said {
			fmt.Fprintf(logw, "%v; retrying every second\n", err)
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Run takes jobs until ctx is cancelled. A game in progress when ctx ends
// is abandoned: its job goes back to the stream.
func (w *Worker) Run(ctx context.Context) error {
	logw := w.Log
	if logw == nil {
		logw = io.Discard
	}
	w.names = namesOf(w.Endpoint.scope())
	w.me = w.Endpoint.User
	if w.me == "" {
		w.me = unsafeSubject.ReplaceAllString(w.Machine.Name, "_")
	}
	if w.AgentDir != "" {
		w.index = &agentIndex{dir: w.AgentDir}
	}
	bench := w.Benchmark
	if bench == nil {
		bench = Benchmark
	}
	score, err := bench(ctx)
	if err != nil {
		return fmt.Errorf("worker %s: %w", w.Machine.Name, err)
	}
	w.Machine.Score = score
	w.prover.answer = w.Prove
	fmt.Fprintf(logw, "benchmark score %.1f (Pentago-Twist playouts per millisecond)\n", score)
	js, cons, err := w.connectWorker(ctx, logw)
	if err != nil {
		return err
	}
	defer w.nc.Close()
	if w.CacheDir != "" {
		w.cache = &agentCache{dir: w.CacheDir, limit: w.Config.maxAgentBytes(), js: js, names: w.names, checked: map[string]string{}}
		unused := cmp.Or(w.CacheUnused, DefaultCacheUnused)
		n, err := pruneCache(w.CacheDir, unused, time.Now())
		if err != nil {
			fmt.Fprintf(logw, "agent cache %s: %v\n", w.CacheDir, err)
		}
		if n > 0 {
			fmt.Fprintf(logw, "agent cache %s: %d agent(s) unused for over %v removed\n", w.CacheDir, n, unused)
		}
	}
	n := w.Concurrency
	if n <= 0 {
		n = 1
		if w.Slots != nil {
			n = max(1, w.Slots.Size()/2)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Add(1)
	go func() { defer wg.Done(); w.hello(ctx) }()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
				if err != nil {
					if ctx.Err() == nil {
						time.Sleep(250 * time.Millisecond)
					}
					continue
				}
				for msg := range batch.Messages() {
					line := w.handle(ctx, js, msg)
					mu.Lock()
					fmt.Fprintln(logw, line)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// hello tells the coordinator this worker is alive, every few seconds.
func (w *Worker) hello(ctx context.Context) {
	body, _ := json.Marshal(w.Machine)
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		_ = w.nc.Publish(w.names.hello+"."+w.me, body)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// claimHolding claims the job's lease and tells the server the job is in
// progress meanwhile: the coordinator's speed challenge before a worker's
// first lease can outlast the ack wait, and the job would be handed to
// another worker while this one is measured.
func (w *Worker) claimHolding(ctx context.Context, msg jetstream.Msg, job *Job, delivery uint64) (LeaseReply, error) {
	stop := every(w.Config.ackWait()/3, func() bool {
		_ = msg.InProgress()
		return true
	})
	defer stop()
	return w.askLease(ctx, job, delivery, "")
}

// askLease claims (token "") or renews a job's lease; the coordinator
// measures this machine first (measure.go).
func (w *Worker) askLease(ctx context.Context, job *Job, delivery uint64, token string) (LeaseReply, error) {
	req := LeaseRequest{MatchID: job.MatchID, Delivery: delivery, Token: token, Worker: w.Machine}
	return Claim(ctx, req, func(ctx context.Context, body []byte) ([]byte, error) {
		msg, err := w.nc.RequestWithContext(ctx, w.names.lease+"."+w.me, body)
		if err != nil {
			return nil, err
		}
		return msg.Data, nil
	}, w.prover.prove)
}

// handle plays one job and reports what happened, for the log.
func (w *Worker) handle(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) string {
	job, err := decode[Job](msg.Data(), "job")
	if err != nil {
		_ = msg.Term()
		return "dropped an unreadable job: " + err.Error()
	}
	var delivery uint64 = 1
	if meta, err := msg.Metadata(); err == nil {
		delivery = meta.NumDelivered
	}
	m, launch, err := w.match(ctx, job)
	if err != nil {
		// Never a silent game: the coordinator is told, and the job waits
		// for a worker whose copies match.
		_ = w.publish(ctx, js, &Result{League: job.League, MatchID: job.MatchID, Replay: job.Replay, Error: err.Error(), Worker: w.Machine}, job.msgID()+"/refused/"+w.me)
		_ = msg.NakWithDelay(w.Config.ackWait())
		return fmt.Sprintf("refused match %s: %v", job.MatchID, err)
	}
	rep, err := w.claimHolding(ctx, msg, job, delivery)
	switch {
	case err != nil:
		_ = msg.NakWithDelay(2 * time.Second)
		return fmt.Sprintf("match %s put back: the coordinator did not grant a lease: %v", job.MatchID, err)
	case rep.Reason == leaseSlow:
		_ = msg.NakWithDelay(w.Config.ackWait())
		return fmt.Sprintf("match %s refused by the coordinator: %s", job.MatchID, rep.Message)
	case rep.Reason == leaseMeasure:
		_ = msg.NakWithDelay(2 * time.Second)
		return fmt.Sprintf("match %s put back: the coordinator did not accept this worker's benchmark answers", job.MatchID)
	case rep.Reason == leaseStored:
		_ = msg.Ack()
		return fmt.Sprintf("match %s already has its result: job dropped", job.MatchID)
	case !rep.OK:
		// A later delivery of this job holds it: this one is stale.
		return fmt.Sprintf("match %s not played: a later delivery of its job holds the lease", job.MatchID)
	}
	gctx, abandon := context.WithCancel(ctx)
	defer abandon()
	lost := make(chan struct{})
	stop := w.keepLease(gctx, msg, job, delivery, rep.Token, lost, abandon)
	ref := referee.Referee{Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		p.Ref = launch[p.Name]
		return w.Launch(ctx, p, o)
	}}
	if w.Runtime != nil {
		ref.Runtime = func(p referee.Player) engine.Runtime { return w.Runtime(launch[p.Name]) }
	}
	rec, err := league.PlayPinned(gctx, w.Slots, ref, m, nil)
	stop()
	select {
	case <-lost:
		return fmt.Sprintf("match %s abandoned: its lease was given to another worker (this one was silent past the ack wait)", job.MatchID)
	default:
	}
	if err != nil {
		// Not a verdict (those are records) but the worker failing: the
		// job goes to another worker, replayed from the start.
		_ = msg.Nak()
		return fmt.Sprintf("match %s not played: %v", job.MatchID, err)
	}
	rec.Worker = &w.Machine
	res := &Result{League: job.League, MatchID: job.MatchID, Lease: rep.Token, Replay: job.Replay, Record: rec, Worker: w.Machine}
	if err := w.publish(ctx, js, res, job.msgID()+"/"+rep.Token); err != nil {
		_ = msg.Nak()
		return fmt.Sprintf("match %s played, result not published: %v", job.MatchID, err)
	}
	// The result is in the stream: the job is done. Should this
	// acknowledgement be lost, the job is replayed and the second result
	// is a duplicate the coordinator ignores.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = msg.DoubleAck(actx)
	return fmt.Sprintf("played %s: %s", job.MatchID, outcome(rec))
}

// keepLease reports progress on the job (so a long game is not handed
// out again) and renews its lease, every third of the ack wait; when the
// coordinator says the lease is lost it closes lost and abandons the
// game. The returned stop ends it.
func (w *Worker) keepLease(ctx context.Context, msg jetstream.Msg, job *Job, delivery uint64, token string, lost chan struct{}, abandon func()) func() {
	return every(w.Config.ackWait()/3, func() bool {
		_ = msg.InProgress()
		rep, err := w.askLease(ctx, job, delivery, token)
		if err == nil && !rep.OK {
			// A coordinator that does not answer (restarting) is no
			// news; one that says another delivery holds the job is.
			close(lost)
			abandon()
			return false
		}
		return true
	})
}

// every calls tick each period, from another goroutine, until tick
// returns false or the returned stop is called; stop waits for a tick
// under way to end.
func every(period time.Duration, tick func() bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if !tick() {
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func outcome(rec *record.Game) string {
	switch {
	case rec.Result.Draw:
		return "draw"
	case rec.Result.Winner >= 0:
		return rec.Agents[rec.Result.Winner].Name + " won"
	}
	return "no result"
}

func (w *Worker) publish(ctx context.Context, js jetstream.JetStream, res *Result, id string) error {
	body, err := json.Marshal(res)
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err = js.Publish(pctx, w.names.resultsSubject+"."+w.me, body, jetstream.WithMsgID(id))
	return err
}

// match turns a job into a referee match with this machine's agent
// copies, each checked against the hash the league recorded.
func (w *Worker) match(ctx context.Context, j *Job) (referee.Match, map[string]string, error) {
	g, err := w.Registry.Lookup(j.Game)
	if err != nil {
		return referee.Match{}, nil, err
	}
	params := engine.Params{}
	for k, v := range j.Params {
		params[k] = v
	}
	prof, err := g.Profile(params)
	if err != nil {
		return referee.Match{}, nil, err
	}
	if prof.Name != j.Profile {
		return referee.Match{}, nil, fmt.Errorf("game %s is played under profile %s here, the league used %s", j.Game, prof.Name, j.Profile)
	}
	prof = prof.Clone()
	var overrides []engine.Override
	for _, o := range j.Overrides {
		ov, err := prof.Apply(o.Setting, o.Value)
		if err != nil {
			return referee.Match{}, nil, fmt.Errorf("override %s: %w", o.Setting, err)
		}
		overrides = append(overrides, ov)
	}
	m := referee.Match{ID: j.MatchID, Game: g, Params: params, Profile: prof, Overrides: overrides, Seed: j.Seed, Opening: j.Opening}
	launch := map[string]string{}
	for seat, a := range j.Seats {
		local, err := w.localCopy(ctx, a, j.Game)
		if err != nil {
			return referee.Match{}, nil, err
		}
		launch[a.Name] = local
		m.Players[seat] = referee.Player{Name: a.Name, Ref: a.Ref, Options: a.Options, Hash: a.Hash}
	}
	return m, launch, nil
}

// ThisMachine describes the machine a worker runs on.
func ThisMachine(name string, cores int) record.Worker {
	hostName, _ := os.Hostname()
	if name == "" {
		name = fmt.Sprintf("%s-%d", hostName, os.Getpid())
	}
	return record.Worker{Name: name, Host: hostName, CPU: cpuModel(), Cores: cores}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
