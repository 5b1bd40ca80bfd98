package cluster

import (
	"context"

	"github.com/nats-io/nats.go"
)

// RawConn connects an endpoint as any client would, for tests that play
// a rogue client with valid credentials.
func RawConn(ctx context.Context, ep Endpoint) (*nats.Conn, error) {
	return dial(ctx, ep, "test client")
}

// Subjects are a scope's jobs stream, results subject (followed by the
// user) and lease subject (followed by the user).
func Subjects(scope string) (jobsStream, results, lease string) {
	n := namesOf(scope)
	return n.jobsStream, n.resultsSubject, n.lease
}

// WorkerConsumer is the durable consumer workers take jobs from.
const WorkerConsumer = workerConsumer

// BenchmarkPlayouts plays the benchmark's playouts.
var BenchmarkPlayouts = playouts

// AgentsBucket is a scope's object store of agents.
func AgentsBucket(scope string) string { return namesOf(scope).agents }

// ReferAll references again every agent the coordinator shipped, as it
// does every hour while it runs.
func (c *Coordinator) ReferAll(ctx context.Context) error { return c.referAll(ctx) }

// Look is one look of the server's watch for changed credentials; it
// says whether they were reloaded.
func (s *Server) Look() bool { return s.look() }
