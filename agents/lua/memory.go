package lua

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"
)

// heapSample is the heap in use: live objects plus garbage not yet swept.
// It moves with every allocation, so a growing script is seen between two
// collections, not only after one.
const heapSample = "/memory/classes/heap/objects:bytes"

// watchEvery is how often the heap is sampled while a script runs; much
// more often measurably slows the script itself.
const watchEvery = 20 * time.Millisecond

// memoryError is how a script stopped for its memory is reported.
type memoryError struct {
	heap, limit uint64
}

func (e *memoryError) Error() string {
	return fmt.Sprintf("memory limit exceeded: the heap reached %d MiB, over the %d MiB cap (a ?mem=MiB parameter on the agent reference sets the cap)",
		e.heap>>20, e.limit>>20)
}

// heapWatch stops a running script when the heap passes limit. Scripts
// are stopped between two Lua instructions; a single library call can
// overshoot, so past hard (when set) onRunaway is called to end the
// process.
type heapWatch struct {
	limit     uint64
	hard      uint64
	onRunaway func(heap, limit uint64)
}

// start watches until the returned stop is called, cancelling with a
// *memoryError as the cause.
func (w heapWatch) start(cancel context.CancelCauseFunc) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: heapSample}}
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		tripped := false
		for {
			metrics.Read(sample)
			heap := sample[0].Value.Uint64()
			if heap > w.limit {
				// The sample counts garbage not yet swept, such as a
				// previous script's: collect before judging.
				runtime.GC()
				metrics.Read(sample)
				heap = sample[0].Value.Uint64()
			}
			if heap > w.limit && !tripped {
				tripped = true
				cancel(&memoryError{heap: heap, limit: w.limit})
			}
			if w.hard > 0 && heap > w.hard && w.onRunaway != nil {
				w.onRunaway(heap, w.limit)
				return
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
