// Package results stores leagues and their games: the league's effective
// configuration and its hash, the agents with the content hashes of their
// binaries or scripts, the scheduled matches, and every finished game with
// its moves, events, penalties and stderr tails.
//
// Store is the interface the league runner and the reports use;
// arena/results/resultsdb is its SQLite implementation (one file per league
// directory, WAL, one writer), kept apart so that the packages that only
// read league files and results' types do not link a database engine. A
// server database can implement the same interface later.
package results

import (
	"context"
	"errors"
	"time"

	"arena/arena/record"
)

// ErrNotFound is returned for a league the store does not hold.
var ErrNotFound = errors.New("not found")

// League is one league: a game under one profile between a set of agents.
type League struct {
	Name      string
	Game      string
	Params    map[string]string
	Profile   string
	Overrides []string // "setting: from -> to", as shown to users
	Format    string
	// ConfigHash identifies the effective configuration the league's
	// games were scheduled from; a resume with another hash is refused
	// unless forced.
	ConfigHash string
	Config     string // the effective configuration, JSON
	Created    time.Time
	Updated    time.Time
}

// Agent is one entrant of a league.
type Agent struct {
	Name    string
	Ref     string
	Hash    string // content hash of the binary or script; "" for built-ins
	Options map[string]string
}

// Match is one scheduled game. Its ID is deterministic (league, pairing,
// game index, seat order, seed), so a rerun finds it already played.
type Match struct {
	ID      string
	League  string
	Pairing string    // "A-vs-B", A listed first in the configuration
	Pair    int       // index of the colour-swapped pair within the pairing
	Index   int       // game index within the pairing
	Seq     int       // position in the league's schedule
	Seats   [2]string // agent names by seat; seat 0 moves first
	Seed    uint64
}

// Game is a finished game with the match it played.
type Game struct {
	Match  Match
	Record *record.Game
}

// Store holds leagues and their results. Implementations are safe for
// concurrent use by one process.
type Store interface {
	// SaveLeague creates or updates a league's row and its agents, and adds
	// the matches not yet stored. Stored games are never touched.
	SaveLeague(ctx context.Context, l League, agents []Agent, matches []Match) error
	// League returns a league and its agents, or ErrNotFound.
	League(ctx context.Context, name string) (League, []Agent, error)
	// Leagues lists the stored leagues by name.
	Leagues(ctx context.Context) ([]League, error)
	// Matches lists a league's scheduled matches in schedule order.
	Matches(ctx context.Context, league string) ([]Match, error)
	// AddGame stores a finished game of a scheduled match, durably, once:
	// it reports false (and changes nothing) when the match already has a
	// game.
	AddGame(ctx context.Context, league string, g *record.Game) (bool, error)
	// Done returns the ids of a league's matches that have a game.
	Done(ctx context.Context, league string) (map[string]bool, error)
	// Games returns a league's games in schedule order.
	Games(ctx context.Context, league string) ([]Game, error)
	Close() error
}
