package cli

import (
	"fmt"
	"sync"
	"time"
)

// slowPhaseAfter is how long a phase may run before the command says what
// it is doing: longer, and a silent command looks hung.
const slowPhaseAfter = 2 * time.Second

// announceSlow prints "what..." on stderr if the phase it starts is still
// running after e.PhaseAfter (slowPhaseAfter by default; a negative delay
// prints at once), and when it then ends, how long it took. The returned
// function ends the phase.
func (e *Env) announceSlow(what string) (done func()) {
	after := e.PhaseAfter
	if after == 0 {
		after = slowPhaseAfter
	}
	start := time.Now()
	var mu sync.Mutex
	said := false
	say := func() {
		mu.Lock()
		defer mu.Unlock()
		said = true
		fmt.Fprintf(e.Stderr, "%s...\n", what)
	}
	if after < 0 {
		say()
		return func() {}
	}
	t := time.AfterFunc(after, say)
	return func() {
		t.Stop()
		mu.Lock()
		defer mu.Unlock()
		if said {
			fmt.Fprintf(e.Stderr, "%s: done in %v\n", what, time.Since(start).Round(100*time.Millisecond))
		}
	}
}
