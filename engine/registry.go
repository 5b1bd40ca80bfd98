package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Registry maps game names to games. Build one with NewRegistry; it is
// read-only afterwards, so it may be shared.
type Registry struct {
	games map[string]Game
}

// NewRegistry registers games under their Info().Name. Duplicate names panic:
// they are programming errors, found at start-up.
func NewRegistry(games ...Game) *Registry {
	r := &Registry{games: make(map[string]Game, len(games))}
	for _, g := range games {
		name := g.Info().Name
		if _, dup := r.games[name]; dup {
			panic("engine: game registered twice: " + name)
		}
		r.games[name] = g
	}
	return r
}

// Lookup finds a game by name; the error lists the known games.
func (r *Registry) Lookup(name string) (Game, error) {
	if g, ok := r.games[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// Names lists the registered games, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.games))
	for n := range r.games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Games lists the registered games, sorted by name.
func (r *Registry) Games() []Game {
	out := make([]Game, 0, len(r.games))
	for _, n := range r.Names() {
		out = append(out, r.games[n])
	}
	return out
}
