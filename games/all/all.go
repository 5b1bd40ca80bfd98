// Package all gathers the course games into a registry.
package all

import (
	"arena/engine"
	"arena/games/bohnenspiel"
)

// Registry returns a registry of every course game. Each call builds a new
// one, so callers never share mutable state.
func Registry() *engine.Registry {
	return engine.NewRegistry(
		bohnenspiel.Game{},
	)
}
