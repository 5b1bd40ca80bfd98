package main

import "sync"

// moveQuota hands out games to concurrent players until their moves reach
// a target, counting the games still being played at the mean length of
// those finished: without it each player starts one more game once the
// last needed one is under way, and a run of one-game-at-a-time slots
// plays a whole game past its target.
type moveQuota struct {
	mu              sync.Mutex
	target          int
	moves, finished int // moves of the finished games
	playing         int
	stopped         bool
}

// begin reports whether another game is wanted, and counts it as playing
// when it is. A player that was told yes calls end when its game ends.
func (q *moveQuota) begin() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	expected := q.moves
	if q.finished > 0 {
		expected += q.playing * q.moves / q.finished
	}
	if q.stopped || expected >= q.target {
		return false
	}
	q.playing++
	return true
}

// end counts a game's moves (none for a game that failed, which also
// stops the quota: no further game is handed out).
func (q *moveQuota) end(moves int, failed bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.playing--
	if failed {
		q.stopped = true
		return
	}
	q.moves += moves
	q.finished++
}
