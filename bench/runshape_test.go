package main

import (
	"slices"
	"testing"
	"time"

	"arena/engine"
)

// TestMoveQuotaStopsAtTarget: two players of 40-move games, one game at a
// time as on 2 CPU slots, stop at the first whole game past the target
// instead of each starting one more.
func TestMoveQuotaStopsAtTarget(t *testing.T) {
	q := &moveQuota{target: 100}
	if !q.begin() || !q.begin() { // both start before any game ended
		t.Fatal("the first games were refused")
	}
	q.end(40, false)
	if !q.begin() { // 40 done + 1 playing at 40 = 80 < 100
		t.Fatal("a game still needed was refused")
	}
	q.end(40, false)
	if q.begin() { // 80 done + 1 playing at 40 = 120 >= 100
		t.Fatal("a game past the target was handed out")
	}
	q.end(40, false)
	if q.begin() || q.moves != 120 {
		t.Fatalf("moves %d, want 120 and no further game", q.moves)
	}
}

// TestMoveQuotaMakesUpShortGames: when the games under way end shorter
// than the estimate, the player ending the last one plays again until the
// target is reached.
func TestMoveQuotaMakesUpShortGames(t *testing.T) {
	q := &moveQuota{target: 100}
	q.begin()
	q.begin()
	q.end(60, false)
	if q.begin() { // 60 + 60 expected
		t.Fatal("a game past the estimate was handed out")
	}
	q.end(30, false) // 90 < 100 and nothing playing
	if !q.begin() {
		t.Fatal("the target is short by 10 moves and no game was handed out")
	}
}

// TestMoveQuotaStopsOnFailure: a failed game hands out no further game.
func TestMoveQuotaStopsOnFailure(t *testing.T) {
	q := &moveQuota{target: 100}
	q.begin()
	q.end(0, true)
	if q.begin() {
		t.Fatal("a game was handed out after a failure")
	}
}

// TestLeagueConcurrencies: a per-move league on 2 cores plays one game at
// a time whatever its file says, so concurrency 2 is not run again; on 4
// cores, and under a CPU-time profile, both are.
func TestLeagueConcurrencies(t *testing.T) {
	perMove := engine.Profile{Name: "p", Time: engine.PerMove}
	budget := engine.Profile{Name: "g", Time: engine.CPUBudget}
	for _, c := range []struct {
		cores int
		prof  engine.Profile
		want  []int
	}{
		{2, perMove, []int{1}},
		{1, perMove, []int{1}},
		{4, perMove, []int{1, 2}},
		{2, budget, []int{1, 2}},
	} {
		if got := leagueConcurrencies([]int{1, 2}, c.cores, c.prof); !slices.Equal(got, c.want) {
			t.Errorf("%d cores, %s: %v, want %v", c.cores, c.prof.Time, got, c.want)
		}
	}
}

// TestTimings: the sections' wall times in the order they ran.
func TestTimings(t *testing.T) {
	var tm timings
	tm.add("build", 12400*time.Millisecond)
	tm.add("engine", 21*time.Second)
	if got, want := tm.String(), "build 12s, engine 21s"; got != want {
		t.Errorf("timings %q, want %q", got, want)
	}
}
