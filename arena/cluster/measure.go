package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"arena/engine"
)

// A worker's speed decides its class, so the coordinator measures it
// instead of taking the score the worker reports: before a worker's first
// lease the coordinator answers with a challenge (a random seed and a
// number of playouts); the worker plays the benchmark's playouts from that
// seed and asks again with a digest of them; the coordinator times the
// round trip, checks the digest by playing the same playouts itself, and
// from then on classes the worker by playouts per millisecond of that
// round trip. A worker can answer only by doing the work, so it can seem
// slower than it is, never faster.

// DefaultChallengePlayouts is the challenge's workload: a quarter of a
// second or so on a lab machine (a playout takes about a microsecond), so
// that the network's round trip is lost in it.
const DefaultChallengePlayouts = 200_000

// leaseMeasure: the worker is to answer the reply's challenge first.
const leaseMeasure = "measure"

// challengeTTL is how long a challenge stays open: a worker asking again
// within it (another job of its) gets the same one. A wrong answer spends
// it, so checking answers (the coordinator plays their playouts) costs at
// most one workload per worker and TTL, whatever a worker sends.
const challengeTTL = 30 * time.Second

// Proof is a worker's answer to a challenge: the digest of the playouts
// it played from the challenge's seed.
type Proof struct {
	Challenge uint64 `json:"challenge"`
	Digest    uint64 `json:"digest"`
}

type challenge struct {
	seed     uint64
	playouts int
	issued   time.Time
	spent    bool // answered wrongly: no answer is checked until it expires
}

// ProofOf plays n random Pentago-Twist playouts from seed and digests
// every playout's length and final position. Both sides compute it: the
// worker to answer, the coordinator to check the answer.
func ProofOf(seed uint64, n int) uint64 {
	digest := seed
	playout(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), n, func(plies uint64, end engine.State) {
		digest = (digest^plies^end.Hash())*0x100000001b3 + 1
	})
	return digest
}

// proveHere answers a challenge by playing its playouts on this machine.
func proveHere(_ context.Context, seed uint64, n int) (uint64, error) {
	return ProofOf(seed, n), nil
}

// Claim sends a lease request through ask (the request's body in, the
// reply's body out) and, when the coordinator answers with its speed
// challenge, answers it with prove (nil: ProofOf) and asks again, at most
// twice: the worker's way, and any other client's that speaks the lease
// protocol itself (a bench's engine-only worker, a rogue). A request
// carrying an answer waits longer: the coordinator checks it by playing
// the playouts too.
func Claim(ctx context.Context, req LeaseRequest, ask func(ctx context.Context, body []byte) ([]byte, error), prove func(ctx context.Context, seed uint64, n int) (uint64, error)) (LeaseReply, error) {
	if prove == nil {
		prove = proveHere
	}
	for try := 0; ; try++ {
		body, err := json.Marshal(req)
		if err != nil {
			return LeaseReply{}, err
		}
		wait := 5 * time.Second
		if req.Proof != nil {
			wait = 30 * time.Second
		}
		rctx, cancel := context.WithTimeout(ctx, wait)
		data, err := ask(rctx, body)
		cancel()
		if err != nil {
			return LeaseReply{}, err
		}
		var rep LeaseReply
		if err := json.Unmarshal(data, &rep); err != nil {
			return LeaseReply{}, fmt.Errorf("lease reply: %w", err)
		}
		if rep.Reason != leaseMeasure || try == 2 {
			return rep, nil
		}
		digest, err := prove(ctx, rep.Challenge, rep.Playouts)
		if err != nil {
			return rep, err
		}
		req.Proof = &Proof{Challenge: rep.Challenge, Digest: digest}
	}
}

// localScore times a challenge's workload here: the coordinator's
// reference, measured as its workers are, without the network.
func localScore(n int) float64 {
	start := time.Now()
	ProofOf(rand.Uint64(), n)
	return float64(n) / max(float64(time.Since(start))/float64(time.Millisecond), 1e-3)
}

// challenge is the lease reply asking user to measure itself, reusing an
// open challenge; c.mu is held.
func (c *Coordinator) challenge(user string, now time.Time) LeaseReply {
	ch, ok := c.challenges[user]
	if !ok || now.Sub(ch.issued) > challengeTTL {
		ch = challenge{seed: rand.Uint64(), playouts: c.cfg.challengePlayouts(), issued: now}
		c.challenges[user] = ch
	}
	return LeaseReply{Reason: leaseMeasure, Challenge: ch.seed, Playouts: ch.playouts,
		Message: "the coordinator measures this worker's speed before its first game"}
}

// checkProof takes user's answer to its challenge, received at: a right
// digest sets the worker's score from the time since the challenge; a
// wrong one or an answer to no open challenge is refused and the worker is
// challenged again. It plays the playouts itself, so it runs outside c.mu.
func (c *Coordinator) checkProof(user string, p Proof, reported float64, at time.Time) {
	c.mu.Lock()
	ch, ok := c.challenges[user]
	open := ok && !ch.spent && ch.seed == p.Challenge
	if open {
		ch.spent = true // until it is checked: a second answer waits for none
		c.challenges[user] = ch
	}
	c.mu.Unlock()
	why := ""
	switch {
	case !open:
		why = "a benchmark answer to no open challenge"
	case ProofOf(ch.seed, ch.playouts) != p.Digest:
		why = "a wrong benchmark answer"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if why != "" {
		c.refused(user, why)
		c.logf("worker %s gave %s: it is measured again once its challenge expires", user, why)
		return
	}
	delete(c.challenges, user)
	ms := float64(at.Sub(ch.issued)) / float64(time.Millisecond)
	score := float64(ch.playouts) / max(ms, 1e-3)
	c.measured[user] = score
	w := c.book.get(user)
	w.Score, w.Class = score, c.cfg.classOf(score)
	c.logf("worker %s measured by the coordinator: benchmark score %.1f (%d playouts answered in %.0f ms; it reported %.1f), class %s",
		user, score, ch.playouts, ms, reported, w.Class)
}

// scoreOf is the score user's results are classed by: the coordinator's
// measurement, else (a lease adopted after a coordinator restart, before
// any new one) what the worker reported; c.mu is held.
func (c *Coordinator) scoreOf(user string, reported float64) float64 {
	if s, ok := c.measured[user]; ok {
		return s
	}
	return reported
}

// prover answers challenges, one computation per challenge however many
// of the worker's games ask at once.
type prover struct {
	mu     sync.Mutex
	seed   uint64
	digest uint64
	done   bool
	answer func(ctx context.Context, seed uint64, n int) (uint64, error) // Worker.Prove
}

func (p *prover) prove(ctx context.Context, seed uint64, n int) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done && p.seed == seed {
		return p.digest, nil
	}
	answer := p.answer
	if answer == nil {
		answer = proveHere
	}
	digest, err := answer(ctx, seed, n)
	if err != nil {
		return 0, err
	}
	p.seed, p.digest, p.done = seed, digest, true
	return p.digest, nil
}
