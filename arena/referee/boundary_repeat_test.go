package referee_test

import (
	"sync"
	"testing"
)

// TestPerMoveBoundariesRepeated plays every boundary case many times, a few
// games at once so that goroutines interleave in many orders: the verdict
// at each boundary must not depend on scheduling (a reply at the deadline
// instant once lost about one game in a thousand to its own deadline).
func TestPerMoveBoundariesRepeated(t *testing.T) {
	t.Parallel() // a fake clock: the verdicts do not depend on scheduling
	reps := 250
	if testing.Short() {
		reps = 25
	}
	const parallel = 4
	type job struct{ c boundaryCase }
	jobs := make(chan job)
	var (
		mu   sync.Mutex
		errs = map[string]int{}
		last = map[string]error{}
	)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for j := range jobs {
				if err := checkBoundary(j.c); err != nil {
					mu.Lock()
					errs[j.c.name]++
					last[j.c.name] = err
					mu.Unlock()
				}
			}
		})
	}
	for range reps {
		for _, c := range boundaryCases {
			jobs <- job{c}
		}
	}
	close(jobs)
	wg.Wait()
	for name, n := range errs {
		t.Errorf("%s failed %d of %d times; last: %v", name, n, reps, last[name])
	}
}
