package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/record"
)

// A lease fences a job: only the delivery that holds the current lease
// may have its result stored. A worker claims one when it takes a job
// (JetStream's delivery count says which delivery is newer), renews it
// while it plays, and sends its token with the result. A later delivery
// of the same job (after its worker went silent past the ack wait) takes
// the lease over; the earlier worker learns so at its next renewal and
// abandons its game, and a result it publishes anyway is refused.
type lease struct {
	token    string
	delivery uint64
	worker   string
	seen     time.Time
}

// LeaseRequest claims (no token) or renews (token) a job's lease.
type LeaseRequest struct {
	MatchID  string        `json:"match_id"`
	Delivery uint64        `json:"delivery"`
	Token    string        `json:"token,omitempty"`
	Worker   record.Worker `json:"worker"`
	Proof    *Proof        `json:"proof,omitempty"` // the answer to the coordinator's challenge
}

// Lease refusals.
const (
	leaseStored     = "stored"     // the match has its result: drop the job
	leaseSuperseded = "superseded" // a later delivery of the job holds it
	leaseLost       = "lost"       // renewal refused: another delivery took it over
	leaseSlow       = "slow"       // the worker is too slow for the league's wall-clock games
)

type LeaseReply struct {
	OK      bool   `json:"ok"`
	Token   string `json:"token,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"` // why, for the worker's console
	// Challenge and Playouts, with Reason leaseMeasure: the seed and the
	// number of benchmark playouts to answer (measure.go).
	Challenge uint64 `json:"challenge,omitempty"`
	Playouts  int    `json:"playouts,omitempty"`
}

func (c *Coordinator) onLease(msg *nats.Msg) {
	var req LeaseRequest
	if err := json.Unmarshal(msg.Data, &req); err != nil {
		return
	}
	user := subjectUser(msg.Subject)
	now := c.cfg.now()
	if req.Proof != nil {
		// Checking the answer plays its playouts: not on the
		// subscription's goroutine, which every lease request waits on.
		go func() {
			c.checkProof(user, *req.Proof, req.Worker.Score, now)
			c.answerLease(msg, user, req, c.cfg.now())
		}()
		return
	}
	c.answerLease(msg, user, req, now)
}

// answerLease grants or refuses a lease request.
func (c *Coordinator) answerLease(msg *nats.Msg, user string, req LeaseRequest, now time.Time) {
	c.mu.Lock()
	c.heard, c.heardFrom = now, user
	c.seen(user, req.Worker, now)
	rep := c.grant(user, req, now)
	c.mu.Unlock()
	b, _ := json.Marshal(rep)
	_ = msg.Respond(b)
}

// grant decides a lease request; c.mu is held.
func (c *Coordinator) grant(user string, req LeaseRequest, now time.Time) LeaseReply {
	if c.waiting[req.MatchID] == nil && c.finished.has(req.MatchID) {
		return LeaseReply{Reason: leaseStored}
	}
	cur := c.leases[req.MatchID]
	if req.Token != "" {
		switch {
		case cur == nil:
			// Granted by a coordinator that has since restarted: adopted.
			c.leases[req.MatchID] = &lease{token: req.Token, delivery: req.Delivery, worker: user, seen: now}
		case cur.token != req.Token:
			return LeaseReply{Reason: leaseLost}
		default:
			cur.seen = now
		}
		return LeaseReply{OK: true, Token: req.Token}
	}
	if cur != nil && cur.delivery > req.Delivery {
		return LeaseReply{Reason: leaseSuperseded}
	}
	score, measured := c.measured[user]
	if !measured {
		return c.challenge(user, now)
	}
	if w := c.waiting[req.MatchID]; w != nil && w.perMove && c.cfg.refusesSlow() && c.cfg.classOf(score) == ClassSlow {
		return c.refuseSlow(user, score)
	}
	l := &lease{token: secret()[:16], delivery: req.Delivery, worker: user, seen: now}
	c.leases[req.MatchID] = l
	return LeaseReply{OK: true, Token: l.token}
}

// watch makes sure nothing hangs: every job waited for is in the stream,
// held by a worker that renews its lease, or answered; one found nowhere
// twice in a row (a client acknowledged it without a result) is published
// again under a new message id. It also says when jobs wait and no worker
// has been heard from.
func (c *Coordinator) watch() {
	c.check()
	c.saveBook()
}

// every calls fn every d until the coordinator closes.
func (c *Coordinator) every(d time.Duration, fn func()) {
	defer c.done.Done()
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		fn()
	}
}

func (c *Coordinator) check() {
	now := c.cfg.now()
	type probe struct {
		w   *waiting
		seq uint64
	}
	var probes []probe
	c.mu.Lock()
	for id, w := range c.waiting {
		if l := c.leases[id]; l != nil && now.Sub(l.seen) < c.cfg.ackWait() {
			w.vanished = 0
			continue
		}
		if w.seq != 0 {
			probes = append(probes, probe{w, w.seq})
		}
	}
	idle := len(c.waiting) > 0 && now.Sub(c.heard) > c.cfg.noWorkerAfter() && now.Sub(c.saidIdle) > c.cfg.noWorkerAfter()
	n, heardFrom, heard, refusal := len(c.waiting), c.heardFrom, c.heard, c.refusal
	if idle {
		c.saidIdle = now
	}
	c.mu.Unlock()
	if idle {
		why := "no worker has connected"
		if heardFrom != "" {
			why = "last heard from worker " + heardFrom + " " + now.Sub(heard).Round(time.Second).String() + " ago"
		}
		if refusal != "" {
			why += "; last refusal: " + refusal
		}
		c.logf("no live worker: %d job(s) waiting, %s", n, why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.checkEvery())
	defer cancel()
	for _, p := range probes {
		_, err := c.jobs.GetMsg(ctx, p.seq)
		if !errors.Is(err, jetstream.ErrMsgNotFound) {
			// In the stream (or the server did not say): still to be taken.
			continue
		}
		c.mu.Lock()
		w := p.w
		if c.waiting[w.job.MatchID] != w || w.seq != p.seq {
			c.mu.Unlock()
			continue
		}
		w.vanished++
		again := w.vanished >= 2
		if again {
			w.job.Attempt++
			w.seq = 0
		}
		c.mu.Unlock()
		if again {
			c.logf("job for match %s vanished: not in the stream, held by no worker, no result; published again (attempt %d)", w.job.MatchID, w.job.Attempt)
			go c.publish(context.Background(), w)
		}
	}
}

// refuseSlow refuses a slow worker a wall-clock game, saying so on the
// console once per worker; c.mu is held.
func (c *Coordinator) refuseSlow(user string, score float64) LeaseReply {
	msg := fmt.Sprintf("benchmark score %.1f is under the league's threshold %.1f (cluster.min_speed %.2f × the coordinator's %.1f): no wall-clock game for this worker",
		score, c.cfg.minSpeed()*c.cfg.ReferenceScore, c.cfg.minSpeed(), c.cfg.ReferenceScore)
	c.refusal = "worker " + user + ": " + msg
	c.refused(user, "slow: "+msg)
	if !c.saidSlow[user] {
		c.saidSlow[user] = true
		c.logf("refused worker %s: %s", user, msg)
	}
	return LeaseReply{Reason: leaseSlow, Message: msg}
}
