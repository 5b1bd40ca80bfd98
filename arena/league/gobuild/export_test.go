package gobuild

import (
	"io"
	"time"
)

// PackageAt is Package at a given time, for tests of the cache's ageing.
var PackageAt = packageAt

// PruneBuilt prunes the built agents of cacheDir as a new build does.
func PruneBuilt(cacheDir string, log io.Writer, now time.Time) {
	prune(builtAgents(cacheDir), log, now)
}
