package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"arena/arena/buildinfo"
	"arena/arena/league/preflightcache"
	"arena/plugins/protocol"
)

// preflightKey is the pre-flight cache's key of an item: everything its
// verdict depends on, so an agent whose files, options, game, profile,
// sandbox or arena changed is checked again. "" for an item that is
// always checked: a built-in (no content hash; it starts in an instant)
// or one whose profile cannot be written down.
func (e *Env) preflightKey(it checkItem) string {
	if it.hash == "" {
		return ""
	}
	profile, err := json.Marshal(it.profile)
	if err != nil {
		return ""
	}
	// JSON writes a map's keys sorted, and quotes what would otherwise
	// run together ("a=b&c" as one option or two).
	opts, err := json.Marshal(it.player.Options)
	if err != nil {
		return ""
	}
	return preflightcache.Key(
		buildinfo.Current().Stamp(), fmt.Sprint(protocol.Version), fmt.Sprint(e.Launcher.Sandboxed()),
		it.hash, it.player.Ref, string(opts),
		it.game.Info().Name, it.params.String(), string(profile), e.preflightLimit(it).String(),
	)
}

// uncheckedItems are the items the cache holds no pass for, and the key
// of each (keys[i] is todo[i]'s).
func (e *Env) uncheckedItems(items []checkItem, passes *preflightcache.Cache) (todo []checkItem, keys []string) {
	for _, it := range items {
		k := e.preflightKey(it)
		if k != "" && passes.Passed(k) {
			continue
		}
		keys = append(keys, k)
		todo = append(todo, it)
	}
	if kept := len(items) - len(todo); kept > 0 {
		fmt.Fprintf(e.Stderr, "pre-flight check: %d agent(s) passed it in an earlier run and are unchanged (%s); not started again\n", kept, preflightcache.File)
	}
	return todo, keys
}

// keepPasses records the checked items that passed (keys[i] is todo[i]'s
// key) and saves the cache.
func keepPasses(passes *preflightcache.Cache, todo []checkItem, keys []string, fails []checkFailure, now time.Time) error {
	failed := map[string]bool{}
	for _, f := range fails {
		failed[f.item.label] = true
	}
	for i, it := range todo {
		if keys[i] != "" && !failed[it.label] {
			passes.Add(keys[i], now)
		}
	}
	return passes.Save()
}
