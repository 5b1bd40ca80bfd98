package host

import "time"

// delayLedger adds up an agent's run-queue delay over threads that come
// and go. A thread's delay lives in its schedstat only while the thread
// does, so a sum over the live threads at two instants loses every thread
// that ended between them: an agent that starts a pool of workers for
// each move and ends it before replying (a common course shape) showed
// no wait at all however long its workers queued. The ledger keeps each
// thread's last reading and, when a thread is gone, keeps that reading as
// spent; the watcher reads the delay every few ticks while moves are
// timed (Process.Usage was asked), so a worker is seen while it lives and
// at most a few ticks of its wait are lost.
type delayLedger struct {
	last map[string]time.Duration // by thread id: the delay at its last reading
	now  map[string]time.Duration // the reading in progress
	gone time.Duration            // the last readings of threads that ended
}

// see records thread tid's delay in the reading in progress.
func (l *delayLedger) see(tid string, d time.Duration) {
	if l.now == nil {
		l.now = map[string]time.Duration{}
	}
	l.now[tid] = d
}

// total ends the reading in progress and returns the delay of every
// thread seen so far: the live ones' current delays and the ended ones'
// last.
func (l *delayLedger) total() time.Duration {
	for tid, d := range l.last {
		if _, live := l.now[tid]; !live {
			l.gone += d
		}
	}
	sum := l.gone
	for _, d := range l.now {
		sum += d
	}
	l.last, l.now = l.now, l.last
	clear(l.now)
	return sum
}
