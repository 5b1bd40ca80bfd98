package cluster

import (
	"fmt"
	"testing"
)

// The set of finished matches never forgets one and claims few it never
// saw (the rate its comment gives for 100,000 games).
func TestDoneSetRemembersEveryMatch(t *testing.T) {
	t.Parallel()
	d := newDoneSet()
	const n = 100_000
	for i := range n {
		d.add(fmt.Sprintf("league/e%03d-e%03d/%d", i%317, i/317, i))
	}
	for i := range n {
		if id := fmt.Sprintf("league/e%03d-e%03d/%d", i%317, i/317, i); !d.has(id) {
			t.Fatalf("forgot %s", id)
		}
	}
	claimed := 0
	for i := range n {
		if d.has(fmt.Sprintf("other/e%03d-e%03d/%d", i%317, i/317, i)) {
			claimed++
		}
	}
	// About 5 in a million expected: 0.5 in these 100,000.
	if claimed > 5 {
		t.Fatalf("%d of %d unseen ids claimed", claimed, n)
	}
}
