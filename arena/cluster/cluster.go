// Package cluster spreads a league's games over machines through NATS
// JetStream. The coordinator (league run --cluster) publishes pending
// matches as jobs on a work-queue stream, a window at a time; workers
// (arena worker) pull jobs, claim a lease on each from the coordinator,
// referee them with their own CPU slots and their own copies of the
// agents (found and checked by content hash), and publish each game's
// record on a results stream under their own user. The coordinator stays
// the only writer of the league's store: it refuses a result whose lease
// was given to another delivery, replays every record's moves through the
// engine against its job, stores what passes keyed by match id (a
// duplicate changes nothing) and only then acknowledges it, so a crash
// anywhere loses no game and stores none twice. docs/cluster.md has the
// security model.
package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster/workerbook"
	"arena/arena/record"
)

// Consumer names.
const (
	workerConsumer = "workers"
	coordConsumer  = "coordinator"
)

// DefaultAckWait is how long a job or result may go unacknowledged before
// JetStream hands it out again; workers report progress well within it.
const DefaultAckWait = 30 * time.Second

// DefaultWindow is how many jobs a coordinator has published and not yet
// stored at most: its memory is proportional to it, not to the league.
const DefaultWindow = 256

// Job is one match to play.
type Job struct {
	League     string            `json:"league"`
	ConfigHash string            `json:"config_hash"`
	MatchID    string            `json:"match_id"`
	Run        string            `json:"run"`              // the coordinator run that published it
	Attempt    int               `json:"attempt"`          // republications by that run
	Replay     int               `json:"replay,omitempty"` // plays of the match this run withheld (machine_replays)
	Game       string            `json:"game"`
	Params     map[string]string `json:"params,omitempty"`
	Profile    string            `json:"profile"`
	Overrides  []Override        `json:"overrides,omitempty"`
	Seed       uint64            `json:"seed"`
	Seats      [2]Agent          `json:"seats"`
	// Opening is the start position of the league's suite the game is
	// played from; nil for the game's own start.
	Opening *record.Opening `json:"opening,omitempty"`
}

// msgID is the job's message id: unique per run and attempt, so neither a
// re-run against the same server (within JetStream's duplicate window)
// nor a republished vanished job is dropped as a duplicate.
func (j *Job) msgID() string {
	if j.Replay > 0 {
		return fmt.Sprintf("%s/%s/r%d/%d", j.Run, j.MatchID, j.Replay, j.Attempt)
	}
	return fmt.Sprintf("%s/%s/%d", j.Run, j.MatchID, j.Attempt)
}

// Override is one profile setting changed by the league.
type Override struct {
	Setting string `json:"setting"`
	Value   string `json:"value"`
}

// Agent is one seat's agent as the league resolved it.
type Agent struct {
	Name    string            `json:"name"`
	Ref     string            `json:"ref"`    // as written in the league file
	Launch  string            `json:"launch"` // what the coordinator would start
	Kind    string            `json:"kind"`
	Hash    string            `json:"hash,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

// Result is a worker's answer to a job: the game's record, or why the
// worker could not play it (no copy of an agent with the league's hash).
// A referee verdict is a record, never an error. Lease is the token the
// coordinator granted the delivery that played it.
type Result struct {
	League  string        `json:"league"`
	MatchID string        `json:"match_id"`
	Lease   string        `json:"lease,omitempty"`
	Replay  int           `json:"replay,omitempty"` // the job's
	Record  *record.Game  `json:"record,omitempty"`
	Error   string        `json:"error,omitempty"`
	Worker  record.Worker `json:"worker"`
}

// Config tunes the streams and the coordinator.
type Config struct {
	// AckWait is how long a job may go without a word from its worker
	// before it is given to another (default DefaultAckWait).
	AckWait time.Duration
	// Window is how many jobs are published and not yet stored at most
	// (default DefaultWindow).
	Window int
	// CheckEvery is how often the coordinator checks that every job it
	// waits for is in the stream, held by a worker or answered (default
	// a third of the ack wait).
	CheckEvery time.Duration
	// NoWorkerAfter is how long jobs may wait with no worker heard from
	// before the coordinator says so (default 15 s).
	NoWorkerAfter time.Duration
	// MaxAgentBytes bounds one shipped agent's files together, on the
	// coordinator when it ships and on a worker when it fetches (default
	// DefaultMaxAgentBytes).
	MaxAgentBytes int64
	// ChallengePlayouts is how many benchmark playouts a worker plays to
	// be measured (default DefaultChallengePlayouts).
	ChallengePlayouts int
	// AgentsUnused is how long an agent may stay in the object store
	// with no coordinator shipping or referencing it; older ones are
	// removed when the coordinator ships its first league (0:
	// DefaultAgentsUnused; between MinAgentsUnused and MaxAgentsUnused).
	AgentsUnused time.Duration
	// Now is the coordinator's clock (default time.Now): leases, workers
	// last heard from, the time a worker takes to answer its speed
	// challenge, the agents' references. Tests ship agents as if long
	// ago, and stand for a slow worker by moving it on while the worker
	// answers.
	Now func() time.Time
	// ReferenceScore is the benchmark score worker scores are compared
	// with: the coordinator's own, measured when it starts, unless given.
	ReferenceScore float64
	// MinSpeed is the fraction of ReferenceScore under which a worker is
	// slow (the league's cluster.min_speed, default DefaultMinSpeed).
	MinSpeed float64
	// SlowWorkers says what becomes of slow workers under a wall-clock
	// profile: SlowClass (the default) plays their games in class "slow",
	// SlowRefuse refuses them such games.
	SlowWorkers string
	// Book, when set, receives what the coordinator knows of its workers
	// (the viewer's workers page).
	Book *workerbook.Book
	// Log receives the coordinator's notices: refused results,
	// republished jobs, no live worker.
	Log io.Writer
}

// positive is v when it is set (above zero), else its default d.
func positive[T int | int64 | time.Duration](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

func (c Config) maxAgentBytes() int64 { return positive(c.MaxAgentBytes, DefaultMaxAgentBytes) }

func (c Config) challengePlayouts() int {
	return positive(c.ChallengePlayouts, DefaultChallengePlayouts)
}

func (c Config) agentsUnused() time.Duration { return positive(c.AgentsUnused, DefaultAgentsUnused) }

// checkAgentsUnused refuses an age outside MinAgentsUnused..MaxAgentsUnused.
func (c Config) checkAgentsUnused() error {
	if u := c.AgentsUnused; u != 0 && (u < MinAgentsUnused || u > MaxAgentsUnused) {
		return fmt.Errorf("agents unused %v: want between %v and %v", u, MinAgentsUnused, MaxAgentsUnused)
	}
	return nil
}

func (c Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c Config) ackWait() time.Duration { return positive(c.AckWait, DefaultAckWait) }

func (c Config) window() int { return positive(c.Window, DefaultWindow) }

func (c Config) checkEvery() time.Duration { return positive(c.CheckEvery, c.ackWait()/3) }

func (c Config) noWorkerAfter() time.Duration { return positive(c.NoWorkerAfter, 15*time.Second) }

func (c Config) log() io.Writer {
	if c.Log != nil {
		return c.Log
	}
	return io.Discard
}

// dedupeWindow is how long the server remembers a message id to drop a
// second publication under it. Ids are unique per run, attempt and lease,
// and a worker whose result is not confirmed publishes nothing again (its
// job is played again under a new lease and id), so the window only has to
// catch the coordinator publishing a job again after its confirmation was
// lost: its next try follows within the client's 5 s timeout and half a
// second, so 10 s is twice that. The server holds every id of the window
// in memory (about 280 bytes each): a 10-minute window held every id of a
// fast league's run (0.6 KB a game) and its memory grew with the league;
// a 30 s one still grew it by a third from the first 1,000 games. A copy that comes
// later anyway costs at most a game played again: its lease takes the
// match over or is refused as finished, and a second result is dropped.
const dedupeWindow = 10 * time.Second

// setUp makes sure the scope's streams and consumers exist: the
// coordinator's job, since workers may not create anything.
func setUp(ctx context.Context, js jetstream.JetStream, n names, c Config) (jetstream.Consumer, error) {
	for _, sc := range []jetstream.StreamConfig{
		// Duplicates: a job or result published twice under one id within
		// the window is dropped.
		{Name: n.jobsStream, Subjects: []string{n.jobsSubject}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: dedupeWindow},
		{Name: n.resultsStream, Subjects: []string{n.resultsSubject + ".*"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: dedupeWindow},
	} {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			return nil, fmt.Errorf("stream %s: %w", sc.Name, err)
		}
	}
	if _, err := consumer(ctx, js, n.jobsStream, workerConsumer, c); err != nil {
		return nil, err
	}
	return consumer(ctx, js, n.resultsStream, coordConsumer, c)
}

func consumer(ctx context.Context, js jetstream.JetStream, stream, name string, c Config) (jetstream.Consumer, error) {
	cons, err := js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
		Durable:       name,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       c.ackWait(),
		MaxDeliver:    -1,
		MaxAckPending: 10000,
	})
	if err != nil {
		return nil, fmt.Errorf("consumer %s on %s: %w", name, stream, err)
	}
	return cons, nil
}

func decode[T any](data []byte, what string) (*T, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &v, nil
}
