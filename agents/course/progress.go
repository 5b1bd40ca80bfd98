package course

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Preparer readies course agents as Prepare and CheckRef do, and tells
// Progress of the phases that can take long (compiling a COMP424
// repository with javac takes tens of seconds on a first use), so a
// first game does not start in silence.
type Preparer struct {
	// Progress receives one line when a long phase starts and one with
	// the time it took; nil: say nothing.
	Progress io.Writer
}

// Prepare is the package's Prepare, telling p.Progress of compiling.
func (p Preparer) Prepare(ctx context.Context, ref string, sandboxed bool) (string, []string, error) {
	return prepare(ctx, ref, sandboxed, p.Progress)
}

// CheckRef is the package's CheckRef, telling p.Progress of compiling.
func (p Preparer) CheckRef(ctx context.Context, ref, game string) error {
	return checkRef(ctx, ref, game, p.Progress)
}

// phase writes "what…" to w and returns the function that writes the time
// it took; with a nil w both do nothing.
func phase(w io.Writer, what string) (done func(err error)) {
	if w == nil {
		return func(error) {}
	}
	fmt.Fprintf(w, "%s…\n", what)
	start := time.Now()
	return func(err error) {
		took := time.Since(start).Round(100 * time.Millisecond)
		if err != nil {
			fmt.Fprintf(w, "%s: failed after %s\n", what, took)
			return
		}
		fmt.Fprintf(w, "%s: done in %s\n", what, took)
	}
}
