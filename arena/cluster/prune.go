package cluster

import (
	"regexp"
	"time"

	"arena/arena/cacheage"
)

// DefaultCacheUnused is how long a fetched agent stays in a worker's cache
// without being used. A course's submissions come in versions; an old
// version a league no longer plays would otherwise stay for ever.
const DefaultCacheUnused = cacheage.DefaultUnused

// cacheEntryName is a fetched agent's folder: its content hash in hex (the
// folder may hold other things, such as the league's built Go agents).
var cacheEntryName = regexp.MustCompile(`^[0-9a-f]{64}$`)

// fetchedAgents is the cache of fetched agents in the folder dir: an
// entry's file "entry" (naming the agent's entry point) marks its use.
func fetchedAgents(dir string) cacheage.Cache {
	return cacheage.Cache{Dir: dir, Entry: cacheEntryName, MarkFile: "entry"}
}

// pruneCache removes the fetched agents of the cache folder dir unused for
// longer than unused and says how many it removed. Another worker sharing
// the folder marks what it uses, so what it plays with is never old
// enough to go.
func pruneCache(dir string, unused time.Duration, now time.Time) (int, error) {
	return fetchedAgents(dir).Prune(unused, now)
}
