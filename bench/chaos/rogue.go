package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
	"arena/arena/record"
	"arena/engine"
	"arena/games/all"
)

// rogue is a client with a valid worker credential that cheats: it
// acknowledges one job without publishing a result, and publishes a
// forged record for another (its first seat declared the winner of a
// game with no moves), which verification must refuse.
type rogue struct {
	user string
	wire cluster.Wire
	js   jetstream.JetStream
	cons jetstream.Consumer
	req  func(ctx context.Context, subj string, body []byte) ([]byte, error)
}

// cheat connects as user and does both; it returns what it managed, and
// keeps trying through coordinator restarts until ctx ends.
func cheat(ctx context.Context, ep cluster.Endpoint) (acked, forged bool, err error) {
	nc, err := cluster.Connect(ctx, ep, "chaos rogue")
	if err != nil {
		return false, false, err
	}
	defer nc.Close()
	r := &rogue{user: ep.User, wire: cluster.WireOf(ep.Scope)}
	if r.js, err = jetstream.New(nc); err != nil {
		return false, false, err
	}
	r.req = func(ctx context.Context, subj string, body []byte) ([]byte, error) {
		m, err := nc.RequestWithContext(ctx, subj, body)
		if err != nil {
			return nil, err
		}
		return m.Data, nil
	}
	for r.cons == nil {
		if r.cons, err = r.js.Consumer(ctx, r.wire.JobsStream, r.wire.WorkerConsumer); err != nil {
			select {
			case <-ctx.Done():
				return false, false, ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	for ctx.Err() == nil && !(acked && forged) {
		msg, job, ok := r.take(ctx)
		if !ok {
			continue
		}
		if !acked {
			// Taken and acknowledged: the job leaves the stream with no result.
			acked = msg.DoubleAck(ctx) == nil
			continue
		}
		forged = r.forge(ctx, msg, job)
	}
	return acked, forged, ctx.Err()
}

// take fetches one job.
func (r *rogue) take(ctx context.Context) (jetstream.Msg, *cluster.Job, bool) {
	b, err := r.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	if err != nil {
		return nil, nil, false
	}
	for msg := range b.Messages() {
		var job cluster.Job
		if json.Unmarshal(msg.Data(), &job) != nil {
			return nil, nil, false
		}
		return msg, &job, true
	}
	return nil, nil, false
}

// forge claims the job's lease and publishes a forged record under it,
// then acknowledges the job as a worker does once its result is in.
func (r *rogue) forge(ctx context.Context, msg jetstream.Msg, job *cluster.Job) bool {
	meta, err := msg.Metadata()
	if err != nil {
		return false
	}
	// Valid credentials: measured like any worker first.
	rep, err := cluster.Claim(ctx, cluster.LeaseRequest{MatchID: job.MatchID, Delivery: meta.NumDelivered},
		func(ctx context.Context, body []byte) ([]byte, error) { return r.req(ctx, r.wire.Lease(r.user), body) }, nil)
	if err != nil || !rep.OK {
		_ = msg.Nak()
		return false
	}
	rec, err := forgedRecord(job)
	if err != nil {
		_ = msg.Nak()
		return false
	}
	res, _ := json.Marshal(cluster.Result{League: job.League, MatchID: job.MatchID, Lease: rep.Token, Record: rec, Worker: record.Worker{Name: "honest-looking"}})
	if _, err := r.js.Publish(ctx, r.wire.Results(r.user), res, jetstream.WithMsgID(job.MatchID+"/forged/"+rep.Token)); err != nil {
		_ = msg.Nak()
		return false
	}
	return msg.DoubleAck(ctx) == nil
}

// forgedRecord is the job's game with no move and the first seat the
// winner: consistent in every field a worker fills in, false in its result.
func forgedRecord(job *cluster.Job) (*record.Game, error) {
	g, err := all.Registry().Lookup(job.Game)
	if err != nil {
		return nil, err
	}
	st, err := g.NewState(engine.Params(job.Params))
	if err != nil {
		return nil, fmt.Errorf("forge %s: %w", job.MatchID, err)
	}
	rec := job.NewRecord(st.Text())
	rec.Final, rec.Result = st.Text(), record.Result{Winner: 0, Reason: "resigned"}
	return rec, nil
}
