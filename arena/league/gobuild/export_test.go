package gobuild

import (
	"context"
	"io"
	"time"
)

// PackageAt is Package at a given time, for tests of the cache's ageing.
func PackageAt(ctx context.Context, dir, cacheDir string, log io.Writer, now time.Time) (string, error) {
	return (&Builder{CacheDir: cacheDir, Log: log}).packageAt(ctx, dir, now)
}

// PruneBuilt prunes the built agents of cacheDir as a new build does.
func PruneBuilt(cacheDir string, log io.Writer, now time.Time) {
	prune(builtAgents(cacheDir), log, now)
}
