package cluster

import (
	"context"
	"testing"
	"time"

	"arena/arena/record"
)

// The lease table: a later delivery takes a job's lease over, the earlier
// holder's renewal is refused (its worker abandons the game), an earlier
// delivery cannot claim it back, a renewal the table never saw (granted
// before a coordinator restart) is adopted, a stored match grants
// nothing, and a match handed over and asked again (its play withheld)
// grants the new job's lease.
func TestLeaseGoesToTheLatestDelivery(t *testing.T) {
	t.Parallel()
	c := &Coordinator{leases: map[string]*lease{}, finished: newDoneSet(), waiting: map[string]*waiting{},
		measured: map[string]float64{"a": 1, "b": 1, "c": 1}}
	c.finished.add("done")
	now := time.Unix(0, 0)
	first := c.grant("a", LeaseRequest{MatchID: "m", Delivery: 1}, now)
	if !first.OK || first.Token == "" {
		t.Fatalf("first claim: %+v", first)
	}
	second := c.grant("b", LeaseRequest{MatchID: "m", Delivery: 2}, now)
	if !second.OK || second.Token == first.Token {
		t.Fatalf("redelivery's claim: %+v", second)
	}
	if r := c.grant("a", LeaseRequest{MatchID: "m", Delivery: 1, Token: first.Token}, now); r.OK || r.Reason != leaseLost {
		t.Fatalf("the first holder's renewal: %+v", r)
	}
	if r := c.grant("a", LeaseRequest{MatchID: "m", Delivery: 1}, now); r.OK || r.Reason != leaseSuperseded {
		t.Fatalf("a stale delivery's claim: %+v", r)
	}
	if r := c.grant("b", LeaseRequest{MatchID: "m", Delivery: 2, Token: second.Token}, now); !r.OK {
		t.Fatalf("the holder's renewal: %+v", r)
	}
	if r := c.grant("c", LeaseRequest{MatchID: "x", Delivery: 1, Token: "old"}, now); !r.OK || c.leases["x"].token != "old" {
		t.Fatalf("a renewal from before a restart: %+v", r)
	}
	if r := c.grant("c", LeaseRequest{MatchID: "done", Delivery: 1}, now); r.OK || r.Reason != leaseStored {
		t.Fatalf("a stored match: %+v", r)
	}
	c.waiting["done"] = &waiting{job: Job{MatchID: "done", Replay: 1}}
	if r := c.grant("c", LeaseRequest{MatchID: "done", Delivery: 1}, now); !r.OK {
		t.Fatalf("a withheld match asked again: %+v", r)
	}
}

// A worker not yet measured is challenged before its first lease, with the
// same challenge while it is open; a right answer measures it (playouts
// per millisecond from the challenge to the answer) and the next request
// is granted; a wrong answer, or one to another challenge, is refused and
// measures nothing, and after a wrong one no answer is checked until the
// challenge expires.
func TestWorkerIsMeasuredBeforeItsFirstLease(t *testing.T) {
	t.Parallel()
	c := &Coordinator{leases: map[string]*lease{}, finished: newDoneSet(),
		measured: map[string]float64{}, challenges: map[string]challenge{}, cfg: Config{ChallengePlayouts: 20, ReferenceScore: 1}}
	if err := c.book.load(context.Background()); err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(100, 0)
	r := c.grant("w", LeaseRequest{MatchID: "m", Delivery: 1, Worker: record.Worker{Score: 1e9}}, t0)
	if r.OK || r.Reason != leaseMeasure || r.Playouts != 20 {
		t.Fatalf("an unmeasured worker's first claim: %+v", r)
	}
	if again := c.grant("w", LeaseRequest{MatchID: "n", Delivery: 1}, t0.Add(time.Second)); again.Challenge != r.Challenge {
		t.Fatalf("a second claim while the challenge is open got another: %+v", again)
	}
	c.checkProof("w", Proof{Challenge: r.Challenge, Digest: ProofOf(r.Challenge, 20) + 1}, 1e9, t0.Add(time.Second))
	if _, ok := c.measured["w"]; ok || c.book.get("w").Refusals != 1 {
		t.Fatalf("a wrong answer measured the worker: %v, book %+v", c.measured, c.book.get("w"))
	}
	r = c.grant("w", LeaseRequest{MatchID: "m", Delivery: 1}, t0.Add(2*time.Second))
	c.checkProof("w", Proof{Challenge: r.Challenge, Digest: ProofOf(r.Challenge, 20)}, 1e9, t0.Add(3*time.Second))
	if _, ok := c.measured["w"]; ok {
		t.Fatal("a right answer to a challenge already answered wrongly measured the worker before it expired")
	}
	t1 := t0.Add(time.Minute)
	r = c.grant("w", LeaseRequest{MatchID: "m", Delivery: 1}, t1)
	c.checkProof("w", Proof{Challenge: r.Challenge + 1, Digest: ProofOf(r.Challenge+1, 20)}, 1e9, t1.Add(time.Second))
	if _, ok := c.measured["w"]; ok {
		t.Fatal("an answer to another challenge measured the worker")
	}
	c.checkProof("w", Proof{Challenge: r.Challenge, Digest: ProofOf(r.Challenge, 20)}, 1e9, t1.Add(40*time.Millisecond))
	if got := c.measured["w"]; got != 0.5 {
		t.Fatalf("20 playouts answered in 40 ms measured %v, want 0.5 (the 1e9 it reported ignored)", got)
	}
	if b := c.book.get("w"); b.Score != 0.5 || b.Class != ClassSlow {
		t.Fatalf("the book: %+v", b)
	}
	if r := c.grant("w", LeaseRequest{MatchID: "m", Delivery: 1}, t0); !r.OK {
		t.Fatalf("a measured worker's claim: %+v", r)
	}
}

// The proof depends on its seed and is the same wherever it is played.
func TestProofOfIsDeterministic(t *testing.T) {
	if ProofOf(7, 30) != ProofOf(7, 30) || ProofOf(7, 30) == ProofOf(8, 30) || ProofOf(7, 30) == ProofOf(7, 29) {
		t.Fatal("ProofOf is not a function of its seed and length alone")
	}
}
