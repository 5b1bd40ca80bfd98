//go:build !unix

package search

import "time"

// processCPU is unavailable here; searches fall back to the wall clock.
func processCPU() (time.Duration, bool) { return 0, false }
