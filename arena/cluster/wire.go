package cluster

import (
	"context"

	"github.com/nats-io/nats.go"

	"arena/arena/record"
)

// Wire names a scope's streams and subjects as a client sees them, for
// tools that speak the protocol by hand: the chaos run's rogue clients.
type Wire struct {
	JobsStream     string
	WorkerConsumer string
	n              names
}

// WireOf is the wire of a scope ("" is DefaultScope).
func WireOf(scope string) Wire {
	n := namesOf(Endpoint{Scope: scope}.scope())
	return Wire{JobsStream: n.jobsStream, WorkerConsumer: workerConsumer, n: n}
}

// Results is the subject user publishes its results on.
func (w Wire) Results(user string) string { return w.n.resultsSubject + "." + user }

// Lease is the subject user claims and renews leases on.
func (w Wire) Lease(user string) string { return w.n.lease + "." + user }

// Connect connects an endpoint as a worker would (TLS pinned to the
// token's CA, its user and password), without taking any job.
func Connect(ctx context.Context, ep Endpoint, name string) (*nats.Conn, error) {
	return dial(ctx, ep, name)
}

// NewRecord is a record of the job's match before its first move, from
// the start board: for tools that answer jobs by hand.
func (j *Job) NewRecord(start string) *record.Game {
	rec := &record.Game{Schema: record.SchemaVersion, ID: j.MatchID, Game: j.Game, Params: j.Params, Profile: j.Profile, Seed: j.Seed, Start: start}
	for seat, a := range j.Seats {
		rec.Agents[seat] = record.Agent{Name: a.Name, Ref: a.Ref, Hash: a.Hash}
	}
	return rec
}
