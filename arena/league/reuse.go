package league

import (
	"arena/arena/league/leaguefile"
	"arena/engine"
)

// Reusable reports whether an agent's process may play several games of a
// league, one after another, under the profile's process rule: under
// "builtin" (every course profile's), built-in and Lua agents, which no
// course rule covers and whose state the arena resets at each game's start
// (a new built-in agent, a new Lua state), while agent binaries and course
// agents get a fresh process per game, as their courses started them;
// under "all", agent binaries too; under "fresh", none. A course agent is
// never kept: its course program expects to start with its game.
func Reusable(a *leaguefile.Agent, rule engine.Processes) bool {
	switch rule {
	case engine.ProcessesFresh:
		return false
	case engine.ProcessesAll:
		return a.Kind == leaguefile.KindBuiltin || a.Kind == leaguefile.KindLua || a.Kind == leaguefile.KindBinary || a.Kind == leaguefile.KindGo
	}
	return a.Kind == leaguefile.KindBuiltin || a.Kind == leaguefile.KindLua
}
