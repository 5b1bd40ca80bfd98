// Package cluster spreads a league's games over machines through NATS
// JetStream. The coordinator (league run --cluster) publishes each pending
// match as a job on a work-queue stream, with the match id as the message
// id so a republished job is dropped as a duplicate; workers (arena
// worker) pull jobs, referee them with their own CPU slots and their own
// copies of the agents (checked against the content hashes the league
// recorded), and publish each game's record on a results stream. The
// coordinator stays the only writer of the league's store: it stores a
// result keyed by match id (a duplicate changes nothing) before
// acknowledging it, so a crash anywhere loses no game and stores none
// twice.
package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/record"
)

// Stream and subject names.
const (
	JobsStream     = "ARENA_JOBS"
	JobsSubject    = "arena.jobs"
	ResultsStream  = "ARENA_RESULTS"
	ResultsSubject = "arena.results"
	workerConsumer = "workers"
	coordConsumer  = "coordinator"
)

// DefaultAckWait is how long a job or result may go unacknowledged before
// JetStream hands it out again; workers report progress well within it.
const DefaultAckWait = 30 * time.Second

// Job is one match to play.
type Job struct {
	League     string            `json:"league"`
	ConfigHash string            `json:"config_hash"`
	MatchID    string            `json:"match_id"`
	Game       string            `json:"game"`
	Params     map[string]string `json:"params,omitempty"`
	Profile    string            `json:"profile"`
	Overrides  []Override        `json:"overrides,omitempty"`
	Seed       uint64            `json:"seed"`
	Seats      [2]Agent          `json:"seats"`
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
// worker could not play it (an agent copy that does not match the
// league's hash). A referee verdict is a record, never an error.
type Result struct {
	League  string        `json:"league"`
	MatchID string        `json:"match_id"`
	Record  *record.Game  `json:"record,omitempty"`
	Error   string        `json:"error,omitempty"`
	Worker  record.Worker `json:"worker"`
}

// Config tunes the streams.
type Config struct {
	// AckWait is how long a job may go without a word from its worker
	// before it is given to another (default DefaultAckWait).
	AckWait time.Duration
}

func (c Config) ackWait() time.Duration {
	if c.AckWait > 0 {
		return c.AckWait
	}
	return DefaultAckWait
}

// connect dials the server and makes sure both streams exist.
func connect(ctx context.Context, url, name string) (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond))
	if err != nil {
		return nil, nil, fmt.Errorf("cluster %s: %w", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("cluster %s: %w", url, err)
	}
	for _, sc := range []jetstream.StreamConfig{
		// Duplicates: a job republished by a restarted coordinator, or a
		// result published twice, within the window is dropped.
		{Name: JobsStream, Subjects: []string{JobsSubject}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 24 * time.Hour},
		{Name: ResultsStream, Subjects: []string{ResultsSubject}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 24 * time.Hour},
	} {
		if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
			nc.Close()
			return nil, nil, fmt.Errorf("cluster %s: stream %s: %w", url, sc.Name, err)
		}
	}
	return nc, js, nil
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
