package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/league"
	"arena/arena/record"
	"arena/arena/results"
)

// Coordinator is the league runner's side of the cluster: it publishes
// jobs and hands each result to the game waiting for it. It implements
// league.Remote.
type Coordinator struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	cc   jetstream.ConsumeContext
	done chan struct{}

	mu        sync.Mutex
	waiters   map[string]chan delivery
	stored    map[string]bool // matches the store holds: their results are duplicates
	delivered map[string]bool
}

type delivery struct {
	res *Result
	msg jetstream.Msg
}

// Dial connects a coordinator to the cluster at url.
func Dial(ctx context.Context, url string, cfg Config) (*Coordinator, error) {
	nc, js, err := connect(ctx, url, "arena league coordinator")
	if err != nil {
		return nil, err
	}
	cons, err := consumer(ctx, js, ResultsStream, coordConsumer, cfg)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster %s: %w", url, err)
	}
	c := &Coordinator{nc: nc, js: js, done: make(chan struct{}), waiters: map[string]chan delivery{}, stored: map[string]bool{}, delivered: map[string]bool{}}
	cc, err := cons.Consume(c.route)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster %s: results: %w", url, err)
	}
	c.cc = cc
	return c, nil
}

// Close stops taking results and disconnects; results not yet stored
// stay in the stream for the next coordinator.
func (c *Coordinator) Close() {
	c.cc.Stop()
	c.nc.Close()
}

// route hands a result to the game waiting for it. A result for a match
// already stored (a worker's replay, or a result stored just before a
// coordinator died) is acknowledged and dropped; one for a match not yet
// asked for (a later league of the file) comes back later.
func (c *Coordinator) route(msg jetstream.Msg) {
	res, err := decode[Result](msg.Data(), "result")
	if err != nil {
		_ = msg.Term()
		return
	}
	c.mu.Lock()
	ch := c.waiters[res.MatchID]
	if ch != nil {
		delete(c.waiters, res.MatchID)
		c.delivered[res.MatchID] = true
	}
	dup := c.stored[res.MatchID] || c.delivered[res.MatchID]
	c.mu.Unlock()
	switch {
	case ch != nil:
		ch <- delivery{res, msg}
	case dup:
		_ = msg.Ack()
	default:
		_ = msg.NakWithDelay(time.Second)
	}
}

// Begin implements league.Remote.
func (c *Coordinator) Begin(_ context.Context, l *league.League, stored map[string]bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range stored {
		c.stored[id] = true
	}
	return nil
}

// Play implements league.Remote: it publishes the match as a job (a job
// already in the stream is not duplicated) and waits for its result. The
// returned commit acknowledges the result; the runner calls it once the
// game is stored.
func (c *Coordinator) Play(ctx context.Context, l *league.League, m results.Match) (*record.Game, func() error, error) {
	job := JobOf(l, m)
	body, err := json.Marshal(job)
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan delivery, 1)
	c.mu.Lock()
	c.waiters[m.ID] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.waiters[m.ID] == ch {
			delete(c.waiters, m.ID)
		}
		c.mu.Unlock()
	}()
	for {
		_, err := c.js.Publish(ctx, JobsSubject, body, jetstream.WithMsgID(m.ID))
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		// The server may be restarting: try again shortly.
		select {
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	select {
	case d := <-ch:
		if d.res.Error != "" {
			_ = d.msg.Ack()
			return nil, nil, fmt.Errorf("worker %s (%s): %s", d.res.Worker.Name, d.res.Worker.Host, d.res.Error)
		}
		if d.res.Record == nil || d.res.Record.ID != m.ID {
			_ = d.msg.Ack()
			return nil, nil, fmt.Errorf("worker %s: result for match %s holds no record of it", d.res.Worker.Name, m.ID)
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
func JobOf(l *league.League, m results.Match) Job {
	j := Job{League: l.Name, ConfigHash: l.Hash, MatchID: m.ID, Game: l.Game.Info().Name, Profile: l.Profile.Name, Seed: m.Seed}
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
