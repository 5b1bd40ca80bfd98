// Package all gathers the course games into a registry.
package all

import (
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
)

// Registry returns a registry of every course game. Each call builds a new
// one, so callers never share mutable state.
func Registry() *engine.Registry {
	return engine.NewRegistry(
		bohnenspiel.Game{},
		cachex.Game{},
		dotsboxes.Game{},
		hexcrossout.Game{},
		pentagotwist.Game{},
	)
}
