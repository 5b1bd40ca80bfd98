package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/league/leaguefile"
	"arena/arena/record"
	"arena/arena/results"
	"arena/engine"
)

// Coordinator is the league runner's side of the cluster: it publishes
// jobs, grants leases, verifies each result and hands it to the game
// waiting for it. It implements league.Remote.
type Coordinator struct {
	nc    *nats.Conn
	js    jetstream.JetStream
	jobs  jetstream.Stream
	cc    jetstream.ConsumeContext
	lsub  *nats.Subscription
	hsub  *nats.Subscription
	names names
	cfg   Config
	run   string // this run's id, in every job's message id
	stop  chan struct{}
	done  sync.WaitGroup

	mu         sync.Mutex
	waiting    map[string]*waiting  // published, result not yet handed over
	finished   *doneSet             // stored before this run, or handed over in it: later results are duplicates
	measured   map[string]float64   // each worker's score, as the coordinator measured it
	challenges map[string]challenge // open challenges, by worker
	replays    map[string]int       // plays of a match withheld by the runner, by match id
	leases     map[string]*lease
	heard      time.Time // when a worker last spoke
	heardFrom  string
	refusal    string // the last reason a worker gave for refusing a job
	saidIdle   time.Time
	saidSlow   map[string]bool // slow workers told they get no wall-clock game
	book       workerBook
	refs       agentRefs // agents shipped or referenced, kept referenced while it runs
}

// waiting is one published job and the game waiting for its result.
type waiting struct {
	job      Job
	perMove  bool // timed by the wall clock: the worker's speed is in the verdict
	game     engine.Game
	params   engine.Params
	ch       chan delivery
	seq      uint64 // the job message's stream sequence
	vanished int    // checks in a row that found it nowhere
}

type delivery struct {
	res *Result
	msg jetstream.Msg
}

// Dial connects a coordinator to the cluster and sets up its streams.
func Dial(ctx context.Context, ep Endpoint, cfg Config) (*Coordinator, error) {
	nc, err := dial(ctx, ep, "arena league coordinator")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Coordinator, error) {
		nc.Close()
		return nil, fmt.Errorf("cluster %s: %w", ep.URL, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fail(err)
	}
	if cfg.ReferenceScore <= 0 {
		// The workers' own workload, timed the same way less the network.
		cfg.ReferenceScore = localScore(cfg.challengePlayouts())
	}
	if err := cfg.checkAgentsUnused(); err != nil {
		return fail(err)
	}
	switch cfg.SlowWorkers {
	case "", SlowClass, SlowRefuse:
	default:
		return fail(fmt.Errorf("slow workers %q: want %s or %s", cfg.SlowWorkers, SlowClass, SlowRefuse))
	}
	n := namesOf(ep.scope())
	cons, err := setUp(ctx, js, n, cfg)
	if err != nil {
		return fail(err)
	}
	jobs, err := js.Stream(ctx, n.jobsStream)
	if err != nil {
		return fail(err)
	}
	c := &Coordinator{nc: nc, js: js, jobs: jobs, names: n, cfg: cfg, run: secret()[:12], stop: make(chan struct{}),
		waiting: map[string]*waiting{}, finished: newDoneSet(), measured: map[string]float64{}, challenges: map[string]challenge{}, replays: map[string]int{}, leases: map[string]*lease{}, saidSlow: map[string]bool{},
		heard: cfg.now(), book: workerBook{book: cfg.Book}}
	if err := c.book.load(ctx); err != nil {
		return fail(err)
	}
	if c.lsub, err = nc.Subscribe(n.lease+".*", c.onLease); err != nil {
		return fail(err)
	}
	if c.hsub, err = nc.Subscribe(n.hello+".*", c.onHello); err != nil {
		return fail(err)
	}
	if c.cc, err = cons.Consume(c.route); err != nil {
		return fail(err)
	}
	policy := "they play in class slow"
	if cfg.refusesSlow() {
		policy = "they are refused wall-clock games"
	}
	c.logf("cluster: coordinator benchmark score %.1f; workers under %.1f (cluster.min_speed %.2f) are slow: %s", cfg.ReferenceScore, cfg.minSpeed()*cfg.ReferenceScore, cfg.minSpeed(), policy)
	c.done.Add(2)
	go c.every(c.cfg.checkEvery(), c.watch)
	go c.every(referEvery, c.referAgain)
	return c, nil
}

// Close stops taking results and disconnects; results not yet stored
// stay in the stream for the next coordinator.
func (c *Coordinator) Close() {
	close(c.stop)
	c.done.Wait()
	c.saveBook()
	c.cc.Stop()
	c.nc.Close()
}

// Window implements league.Windowed: the runner keeps at most this many
// games in flight, so jobs are published a window at a time.
func (c *Coordinator) Window() int { return c.cfg.window() }

func (c *Coordinator) logf(format string, args ...any) {
	fmt.Fprintf(c.cfg.log(), format+"\n", args...)
}

// subjectUser is the user a message was published under: the last token
// of its subject, which the server lets only that user publish to.
func subjectUser(subject string) string {
	return subject[strings.LastIndexByte(subject, '.')+1:]
}

// route checks a result and hands it to the game waiting for it. A result
// for a match no job waits for and already stored or handed over (a
// worker's replay, or a result stored just before a coordinator died) is
// acknowledged and dropped; one for a match not yet asked for (beyond the
// window, or a later league of the file) comes back later; a stale or
// forged one is refused.
func (c *Coordinator) route(msg jetstream.Msg) {
	res, err := decode[Result](msg.Data(), "result")
	if err != nil {
		c.logf("refused an unreadable result from worker %s: %v", subjectUser(msg.Subject()), err)
		_ = msg.Term()
		return
	}
	// The worker's name is the user it authenticated as, whatever it says;
	// its class is the coordinator's judgement of its score.
	res.Worker.Name = subjectUser(msg.Subject())
	c.mu.Lock()
	res.Worker.Score = c.scoreOf(res.Worker.Name, res.Worker.Score)
	res.Worker.Class = c.cfg.classOf(res.Worker.Score)
	if res.Record != nil {
		res.Record.Worker = &res.Worker
	}
	w := c.waiting[res.MatchID]
	switch {
	case w == nil && c.finished.has(res.MatchID):
		c.mu.Unlock()
		_ = msg.Ack()
		return
	case w == nil:
		c.mu.Unlock()
		_ = msg.NakWithDelay(time.Second)
		return
	case res.Replay != w.job.Replay:
		// A result of a play the runner withheld: it has had its answer.
		c.mu.Unlock()
		_ = msg.Ack()
		return
	}
	if l := c.leases[res.MatchID]; l != nil && l.token != res.Lease {
		c.refused(res.Worker.Name, "stale result of match "+res.MatchID)
		c.mu.Unlock()
		c.logf("refused a stale result of match %s from worker %s: its lease was given to a later delivery (worker %s)", res.MatchID, res.Worker.Name, l.worker)
		_ = msg.Ack()
		return
	}
	if res.Error == "" {
		if err := Verify(w.game, w.params, &w.job, res.Record); err != nil {
			delete(c.leases, res.MatchID)
			w.job.Attempt++
			c.refused(res.Worker.Name, fmt.Sprintf("result of match %s failed verification: %v", res.MatchID, err))
			c.mu.Unlock()
			c.logf("refused the result of match %s from worker %s: %v; the job is published again", res.MatchID, res.Worker.Name, err)
			_ = msg.Ack()
			go c.publish(context.Background(), w)
			return
		}
		c.book.get(res.Worker.Name).Games++
	} else {
		c.refusal = fmt.Sprintf("worker %s: %s", res.Worker.Name, res.Error)
		c.refused(res.Worker.Name, res.Error)
	}
	delete(c.waiting, res.MatchID)
	delete(c.leases, res.MatchID)
	c.finished.add(res.MatchID)
	c.mu.Unlock()
	w.ch <- delivery{res, msg}
}

// Begin implements league.Remote. Jobs left in the stream by an earlier
// run are purged: this run publishes what is pending under its own ids.
// The league's agents are shipped first, so every job's agents can be
// fetched.
func (c *Coordinator) Begin(ctx context.Context, l *leaguefile.League, stored map[string]bool) error {
	if err := c.jobs.Purge(ctx); err != nil {
		return fmt.Errorf("cluster: purge old jobs: %w", err)
	}
	if err := c.ship(ctx, l); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range stored {
		c.finished.add(id)
	}
	return nil
}

// publish puts a job in the stream, retrying while the server restarts.
func (c *Coordinator) publish(ctx context.Context, w *waiting) error {
	c.mu.Lock()
	body, err := json.Marshal(w.job)
	id := w.job.msgID()
	c.mu.Unlock()
	if err != nil {
		return err
	}
	for {
		ack, err := c.js.Publish(ctx, c.names.jobsSubject, body, jetstream.WithMsgID(id))
		if err == nil {
			c.mu.Lock()
			w.seq, w.vanished = ack.Sequence, 0
			c.mu.Unlock()
			return nil
		}
		select {
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		case <-c.stop:
			return errors.New("cluster: coordinator closed")
		}
	}
}

// Play implements league.Remote: it publishes the match as a job and
// waits for its verified result. The returned commit acknowledges the
// result; the runner calls it once the game is stored.
func (c *Coordinator) Play(ctx context.Context, l *leaguefile.League, m results.Match) (*record.Game, func() error, error) {
	w := &waiting{job: JobOf(l, m), perMove: l.Profile.Time == engine.PerMove, game: l.Game, params: l.Params, ch: make(chan delivery, 1)}
	w.job.Run = c.run
	c.mu.Lock()
	if c.finished.has(m.ID) {
		// Asked again after its result was handed over: the runner
		// withheld that play (the machine caused a verdict in it), and
		// this one is a new job.
		c.replays[m.ID]++
	}
	w.job.Replay = c.replays[m.ID]
	c.waiting[m.ID] = w
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.waiting[m.ID] == w {
			delete(c.waiting, m.ID)
		}
		c.mu.Unlock()
	}()
	if err := c.publish(ctx, w); err != nil {
		return nil, nil, err
	}
	select {
	case d := <-w.ch:
		if d.res.Error != "" {
			_ = d.msg.Ack()
			return nil, nil, fmt.Errorf("worker %s (%s): %s", d.res.Worker.Name, d.res.Worker.Host, d.res.Error)
		}
		msg := d.msg
		return d.res.Record, func() error {
			actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := msg.DoubleAck(actx)
			if errors.Is(err, nats.ErrMsgAlreadyAckd) {
				return nil
			}
			return err
		}, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// JobOf describes a league's match as a job.
func JobOf(l *leaguefile.League, m results.Match) Job {
	j := Job{League: l.Name, ConfigHash: l.Hash, MatchID: m.ID, Game: l.Game.Info().Name, Profile: l.Profile.Name, Seed: m.Seed,
		Opening: l.OpeningOf(m)}
	if len(l.Params) > 0 {
		j.Params = map[string]string{}
		for k, v := range l.Params {
			j.Params[k] = v
		}
	}
	for _, o := range l.Overrides {
		j.Overrides = append(j.Overrides, Override{Setting: o.Setting, Value: o.To})
	}
	for seat, name := range m.Seats {
		for _, a := range l.Agents {
			if a.Name == name {
				j.Seats[seat] = Agent{Name: a.Name, Ref: a.Ref, Launch: a.Launch, Kind: a.Kind, Hash: a.Hash, Options: a.Options}
			}
		}
	}
	return j
}
