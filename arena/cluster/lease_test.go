package cluster

import (
	"testing"
	"time"
)

// The lease table: a later delivery takes a job's lease over, the earlier
// holder's renewal is refused (its worker abandons the game), an earlier
// delivery cannot claim it back, a renewal the table never saw (granted
// before a coordinator restart) is adopted, and a stored match grants
// nothing.
func TestLeaseGoesToTheLatestDelivery(t *testing.T) {
	c := &Coordinator{leases: map[string]*lease{}, stored: map[string]bool{"done": true}, delivered: map[string]bool{}}
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
}
