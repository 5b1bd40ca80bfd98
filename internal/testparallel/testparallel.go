// Package testparallel sets how many parallel tests a test binary runs at
// once when the command line does not say. go test's default is one per
// CPU; tests that mostly wait on real processes (limits to pass, start-ups,
// JVMs and interpreters to answer) leave a small machine idle at that
// default, and their waits add up into minutes.
package testparallel

import (
	"flag"
	"fmt"
)

// Default sets -test.parallel to n unless it was given. Call it from
// TestMain after flag.Parse, before m.Run.
func Default(n int) error {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if given {
		return nil
	}
	if err := flag.Set("test.parallel", fmt.Sprint(n)); err != nil {
		return fmt.Errorf("set -test.parallel to %d: %w", n, err)
	}
	return nil
}
