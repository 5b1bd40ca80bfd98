// Package resultsdb is the results store in SQLite (arena/results' Store):
// one file per league directory, WAL, one writer, each game written once
// by a deterministic match id, with its agents' content hashes, each
// entrant's versions, and the games a resubmission replaced kept as
// superseded. Readers open it read-only, or live beside a running league.
package resultsdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"arena/arena/record"
	"arena/arena/results"
)

// FileName is the store's file inside a league directory.
const FileName = "results.db"

// schemaVersion is bumped on incompatible schema changes.
const schemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS leagues (
	name        TEXT PRIMARY KEY,
	game        TEXT NOT NULL,
	params      TEXT NOT NULL,  -- JSON object
	profile     TEXT NOT NULL,
	overrides   TEXT NOT NULL,  -- JSON list of "setting: from -> to"
	format      TEXT NOT NULL,
	config_hash TEXT NOT NULL,
	config      TEXT NOT NULL,  -- effective configuration, JSON
	created     TEXT NOT NULL,
	updated     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agents (
	league  TEXT NOT NULL REFERENCES leagues(name),
	name    TEXT NOT NULL,
	ref     TEXT NOT NULL,
	hash    TEXT NOT NULL,
	options TEXT NOT NULL,      -- JSON object
	PRIMARY KEY (league, name)
);
CREATE TABLE IF NOT EXISTS matches (
	id         TEXT PRIMARY KEY,
	league     TEXT NOT NULL REFERENCES leagues(name),
	pairing    TEXT NOT NULL,
	pair       INTEGER NOT NULL,
	game_index INTEGER NOT NULL,
	seq        INTEGER NOT NULL,
	seat0      TEXT NOT NULL,
	seat1      TEXT NOT NULL,
	seed       INTEGER NOT NULL -- uint64 stored bit for bit as int64
);
CREATE INDEX IF NOT EXISTS matches_league ON matches(league, seq);
CREATE TABLE IF NOT EXISTS games (
	match_id TEXT PRIMARY KEY REFERENCES matches(id),
	league   TEXT NOT NULL REFERENCES leagues(name),
	winner   INTEGER NOT NULL,  -- seat, or -1
	draw     INTEGER NOT NULL,
	score0   INTEGER,
	score1   INTEGER,
	reason   TEXT NOT NULL,
	forfeit  TEXT NOT NULL,
	plies    INTEGER NOT NULL,
	started  TEXT NOT NULL,
	ended    TEXT NOT NULL,
	record   TEXT NOT NULL      -- the record.Game JSON (docs/records.md)
);
CREATE INDEX IF NOT EXISTS games_league ON games(league);
CREATE TABLE IF NOT EXISTS moves (
	game_id TEXT NOT NULL REFERENCES games(match_id),
	idx     INTEGER NOT NULL,
	ply     INTEGER NOT NULL,
	seat    INTEGER NOT NULL,
	text    TEXT NOT NULL,
	source  TEXT NOT NULL,
	wall_ms REAL NOT NULL,
	cpu_ms  REAL NOT NULL,
	PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS events (
	game_id TEXT NOT NULL REFERENCES games(match_id),
	idx     INTEGER NOT NULL,
	ply     INTEGER NOT NULL,
	seat    INTEGER NOT NULL,
	kind    TEXT NOT NULL,
	penalty TEXT NOT NULL,
	detail  TEXT NOT NULL,
	reply   TEXT NOT NULL,
	PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS penalties (
	game_id TEXT NOT NULL REFERENCES games(match_id),
	seat    INTEGER NOT NULL,
	kind    TEXT NOT NULL,
	count   INTEGER NOT NULL,
	PRIMARY KEY (game_id, seat, kind)
);
CREATE TABLE IF NOT EXISTS stderr (
	game_id TEXT NOT NULL REFERENCES games(match_id),
	seat    INTEGER NOT NULL,
	tail    TEXT NOT NULL,
	PRIMARY KEY (game_id, seat)
);
`

// SQLite is the SQLite store.
type SQLite struct {
	db   *sql.DB
	path string
	// versioned: the games table has the superseded mark (versions.go).
	versioned bool
}

var _ results.Store = (*SQLite)(nil)

// Open opens (creating if needed) the store file at path. WAL lets reports
// read while a league runs; synchronous=FULL makes each committed game
// survive a power loss; one connection makes this process the one writer.
func Open(ctx context.Context, path string) (*SQLite, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &SQLite{db: db, path: path}
	if err := s.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	return s, nil
}

// OpenDir opens the store of a league directory.
func OpenDir(ctx context.Context, dir string) (*SQLite, error) {
	return Open(ctx, filepath.Join(dir, FileName))
}

// OpenReadOnly opens an existing store for reading only: nothing is
// created or written, so reports work on a league directory the user may
// not write to (another user's, a read-only mount).
//
// Without a write-ahead log beside the file no one is writing, and the
// last writer checkpointed every commit into the file: it is opened
// immutable, which creates no index files next to it. (A league run that
// starts while such a report reads may make the report fail; running it
// again reads the new state.) With a log — a league running, or one killed
// before it could checkpoint — committed games may live only in the log,
// so the file is opened mode=ro, which reads through it; immutable would
// silently miss them, and is never used then.
func OpenReadOnly(ctx context.Context, path string) (*SQLite, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	mode := "immutable=1"
	if _, err := os.Stat(path + "-wal"); err == nil {
		mode = "mode=ro"
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "query_only(1)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+mode+"&"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &SQLite{db: db, path: path}
	err = s.checkVersion(ctx)
	if err == nil {
		err = s.detectVersions(ctx)
	}
	if err != nil {
		db.Close()
		if mode == "mode=ro" {
			return nil, fmt.Errorf("results store %s (read-only): %w (its write-ahead log %s-wal holds games not yet in the file; reading them needs write access to the directory, or a league run to fold them in)", path, err, path)
		}
		return nil, fmt.Errorf("results store %s (read-only): %w", path, err)
	}
	return s, nil
}

// OpenDirReadOnly opens the store of a league directory for reading.
func OpenDirReadOnly(ctx context.Context, dir string) (*SQLite, error) {
	return OpenReadOnly(ctx, filepath.Join(dir, FileName))
}

// Path is the store's file.
func (s *SQLite) Path() string { return s.path }

func (s *SQLite) init(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	// Another process (a report reading a running league) may be creating
	// the same file: whoever is first writes the version.
	if _, err := s.db.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('schema', ?) ON CONFLICT(key) DO NOTHING`, fmt.Sprint(schemaVersion)); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if err := s.checkVersion(ctx); err != nil {
		return err
	}
	return s.migrate(ctx)
}

// checkVersion refuses a store of another schema version.
func (s *SQLite) checkVersion(ctx context.Context) error {
	var v string
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&v); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if v != fmt.Sprint(schemaVersion) {
		return fmt.Errorf("schema version %s, this arena reads version %d", v, schemaVersion)
	}
	return nil
}

// Close closes the database.
func (s *SQLite) Close() error { return s.db.Close() }

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTS(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// Only maps of strings and string lists reach here.
		panic(err)
	}
	return string(b)
}

// SaveLeague creates or updates a league, its agents and its schedule.
func (s *SQLite) SaveLeague(ctx context.Context, l results.League, agents []results.Agent, matches []results.Match) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save league %s: %w", l.Name, err)
	}
	defer tx.Rollback()
	now := ts(time.Now())
	if l.Params == nil {
		l.Params = map[string]string{}
	}
	if l.Overrides == nil {
		l.Overrides = []string{}
	}
	if _, err = tx.ExecContext(ctx, `
		INSERT INTO leagues(name, game, params, profile, overrides, format, config_hash, config, created, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET game = excluded.game, params = excluded.params, profile = excluded.profile,
			overrides = excluded.overrides, format = excluded.format, config_hash = excluded.config_hash,
			config = excluded.config, updated = excluded.updated`,
		l.Name, l.Game, mustJSON(l.Params), l.Profile, mustJSON(l.Overrides), l.Format, l.ConfigHash, l.Config, now, now); err != nil {
		return fmt.Errorf("save league %s: %w", l.Name, err)
	}
	if err := saveVersions(ctx, tx, l.Name, agents, now); err != nil {
		return fmt.Errorf("save league %s: %w", l.Name, err)
	}
	for _, a := range agents {
		opts := a.Options
		if opts == nil {
			opts = map[string]string{}
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO agents(league, name, ref, hash, options) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(league, name) DO UPDATE SET ref = excluded.ref, hash = excluded.hash, options = excluded.options`,
			l.Name, a.Name, a.Ref, a.Hash, mustJSON(opts))
		if err != nil {
			return fmt.Errorf("save league %s: agent %s: %w", l.Name, a.Name, err)
		}
	}
	stmt, err := tx.PrepareContext(ctx, `
		INSERT INTO matches(id, league, pairing, pair, game_index, seq, seat0, seat1, seed)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`)
	if err != nil {
		return fmt.Errorf("save league %s: %w", l.Name, err)
	}
	defer stmt.Close()
	for _, m := range matches {
		if _, err := stmt.ExecContext(ctx, m.ID, l.Name, m.Pairing, m.Pair, m.Index, m.Seq, m.Seats[0], m.Seats[1], int64(m.Seed)); err != nil {
			return fmt.Errorf("save league %s: match %s: %w", l.Name, m.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save league %s: %w", l.Name, err)
	}
	return nil
}

type scanner interface{ Scan(...any) error }

func scanLeague(r scanner) (results.League, error) {
	var l results.League
	var params, overrides, created, updated string
	if err := r.Scan(&l.Name, &l.Game, &params, &l.Profile, &overrides, &l.Format, &l.ConfigHash, &l.Config, &created, &updated); err != nil {
		return results.League{}, err
	}
	if err := json.Unmarshal([]byte(params), &l.Params); err != nil {
		return results.League{}, fmt.Errorf("league %s: params: %w", l.Name, err)
	}
	if err := json.Unmarshal([]byte(overrides), &l.Overrides); err != nil {
		return results.League{}, fmt.Errorf("league %s: overrides: %w", l.Name, err)
	}
	l.Created, l.Updated = parseTS(created), parseTS(updated)
	return l, nil
}

const leagueCols = `name, game, params, profile, overrides, format, config_hash, config, created, updated`

// League returns a league and its agents.
func (s *SQLite) League(ctx context.Context, name string) (results.League, []results.Agent, error) {
	l, err := scanLeague(s.db.QueryRowContext(ctx, `SELECT `+leagueCols+` FROM leagues WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return results.League{}, nil, fmt.Errorf("league %s: %w", name, results.ErrNotFound)
	}
	if err != nil {
		return results.League{}, nil, fmt.Errorf("league %s: %w", name, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, ref, hash, options FROM agents WHERE league = ? ORDER BY rowid`, name)
	if err != nil {
		return results.League{}, nil, fmt.Errorf("league %s: agents: %w", name, err)
	}
	defer rows.Close()
	var agents []results.Agent
	for rows.Next() {
		var a results.Agent
		var opts string
		if err := rows.Scan(&a.Name, &a.Ref, &a.Hash, &opts); err != nil {
			return results.League{}, nil, fmt.Errorf("league %s: agents: %w", name, err)
		}
		if err := json.Unmarshal([]byte(opts), &a.Options); err != nil {
			return results.League{}, nil, fmt.Errorf("league %s: agent %s: options: %w", name, a.Name, err)
		}
		agents = append(agents, a)
	}
	return l, agents, rows.Err()
}

// Leagues lists the stored leagues.
func (s *SQLite) Leagues(ctx context.Context) ([]results.League, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+leagueCols+` FROM leagues ORDER BY created, name`)
	if err != nil {
		return nil, fmt.Errorf("list leagues: %w", err)
	}
	defer rows.Close()
	var out []results.League
	for rows.Next() {
		l, err := scanLeague(rows)
		if err != nil {
			return nil, fmt.Errorf("list leagues: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

const matchCols = `m.id, m.league, m.pairing, m.pair, m.game_index, m.seq, m.seat0, m.seat1, m.seed`

func scanMatch(r scanner) (results.Match, error) {
	var m results.Match
	var seed int64
	err := r.Scan(&m.ID, &m.League, &m.Pairing, &m.Pair, &m.Index, &m.Seq, &m.Seats[0], &m.Seats[1], &seed)
	m.Seed = uint64(seed)
	return m, err
}

// Matches lists a league's schedule.
func (s *SQLite) Matches(ctx context.Context, league string) ([]results.Match, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchCols+` FROM matches m WHERE m.league = ?`+s.liveMatches()+` ORDER BY m.seq, m.id`, league)
	if err != nil {
		return nil, fmt.Errorf("league %s: matches: %w", league, err)
	}
	defer rows.Close()
	var out []results.Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, fmt.Errorf("league %s: matches: %w", league, err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MatchCount is the number of the league's scheduled matches.
func (s *SQLite) MatchCount(ctx context.Context, league string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM matches WHERE league = ?`, league).Scan(&n); err != nil {
		return 0, fmt.Errorf("league %s: matches: %w", league, err)
	}
	return n, nil
}

// AddGame stores one finished game in one transaction; the game row's
// primary key (the match id) makes a second write of the same match a
// no-op.
func (s *SQLite) AddGame(ctx context.Context, league string, g *record.Game) (bool, error) {
	added, err := s.AddGames(ctx, league, []*record.Game{g})
	if err != nil {
		return false, err
	}
	return added[0], nil
}

// AddGames stores several finished games of a league in one transaction
// (one durable commit for all): all of them or, on an error, none. Each
// flag says whether that game was new.
func (s *SQLite) AddGames(ctx context.Context, league string, games []*record.Game) ([]bool, error) {
	fail := func(err error) error {
		if len(games) == 1 {
			return fmt.Errorf("game %s: %w", games[0].ID, err)
		}
		return fmt.Errorf("league %s: %w", league, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail(err)
	}
	defer tx.Rollback()
	w, err := newGameWriter(ctx, tx)
	if err != nil {
		return nil, fail(err)
	}
	added := make([]bool, len(games))
	for i, g := range games {
		if added[i], err = w.add(ctx, league, g); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		if len(games) == 1 {
			return nil, fmt.Errorf("game %s: commit: %w", games[0].ID, err)
		}
		return nil, fmt.Errorf("league %s: commit of %d games: %w", league, len(games), err)
	}
	return added, nil
}

// gameWriter holds a transaction's inserts of games, prepared once: a
// game is dozens of rows (a row per move), and preparing each insert anew
// cost more than running it. The transaction's end closes them.
type gameWriter struct {
	game, move, event, penalty, stderr *sql.Stmt
}

func newGameWriter(ctx context.Context, tx *sql.Tx) (*gameWriter, error) {
	w := &gameWriter{}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.game, `INSERT INTO games(match_id, league, winner, draw, score0, score1, reason, forfeit, plies, started, ended, record, hash0, hash1)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(match_id) DO NOTHING`},
		{&w.move, `INSERT INTO moves(game_id, idx, ply, seat, text, source, wall_ms, cpu_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`},
		{&w.event, `INSERT INTO events(game_id, idx, ply, seat, kind, penalty, detail, reply) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`},
		{&w.penalty, `INSERT INTO penalties(game_id, seat, kind, count) VALUES (?, ?, ?, ?)`},
		{&w.stderr, `INSERT INTO stderr(game_id, seat, tail) VALUES (?, ?, ?)`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*p.dst = st
	}
	return w, nil
}

// add writes one game; false when its match already has one.
func (w *gameWriter) add(ctx context.Context, league string, g *record.Game) (bool, error) {
	body, err := json.Marshal(g)
	if err != nil {
		return false, fmt.Errorf("game %s: encode record: %w", g.ID, err)
	}
	var s0, s1 sql.NullInt64
	if len(g.Result.Scores) == 2 {
		s0 = sql.NullInt64{Int64: int64(g.Result.Scores[0]), Valid: true}
		s1 = sql.NullInt64{Int64: int64(g.Result.Scores[1]), Valid: true}
	}
	res, err := w.game.ExecContext(ctx, g.ID, league, g.Result.Winner, g.Result.Draw, s0, s1, g.Result.Reason, g.Result.Forfeit, len(g.Moves),
		ts(g.Started), ts(g.Ended), string(body), g.Agents[0].Hash, g.Agents[1].Hash)
	if err != nil {
		if strings.Contains(err.Error(), "FOREIGN KEY") {
			return false, fmt.Errorf("game %s: no such match in league %s", g.ID, league)
		}
		return false, fmt.Errorf("game %s: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("game %s: %w", g.ID, err)
	} else if n == 0 {
		return false, nil
	}
	for i, m := range g.Moves {
		if _, err := w.move.ExecContext(ctx, g.ID, i, m.Ply, m.Seat, m.Text, m.Source, m.WallMS, m.CPUMS); err != nil {
			return false, fmt.Errorf("game %s: move %d: %w", g.ID, i, err)
		}
	}
	for i, e := range g.Events {
		if _, err := w.event.ExecContext(ctx, g.ID, i, e.Ply, e.Seat, e.Kind, e.Penalty, e.Detail, e.Reply); err != nil {
			return false, fmt.Errorf("game %s: event %d: %w", g.ID, i, err)
		}
	}
	for seat := range 2 {
		for kind, n := range g.Penalties(seat) {
			if _, err := w.penalty.ExecContext(ctx, g.ID, seat, kind, n); err != nil {
				return false, fmt.Errorf("game %s: penalties: %w", g.ID, err)
			}
		}
		if g.Stderr[seat] != "" {
			if _, err := w.stderr.ExecContext(ctx, g.ID, seat, g.Stderr[seat]); err != nil {
				return false, fmt.Errorf("game %s: stderr: %w", g.ID, err)
			}
		}
	}
	return true, nil
}

// Done returns the ids of the league's played matches.
func (s *SQLite) Done(ctx context.Context, league string) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT g.match_id FROM games g WHERE g.league = ?`+s.liveGames(), league)
	if err != nil {
		return nil, fmt.Errorf("league %s: played games: %w", league, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("league %s: played games: %w", league, err)
		}
		out[id] = true
	}
	return out, rows.Err()
}

// Games returns the league's games with their matches.
func (s *SQLite) Games(ctx context.Context, league string) ([]results.Game, error) {
	var out []results.Game
	err := s.EachGame(ctx, league, func(g results.Game) error {
		out = append(out, g)
		return nil
	})
	return out, err
}

// EachGame calls fn with each of the league's games in schedule order,
// decoding one record at a time, so a pass over a league of any size holds
// one game; an error from fn stops the pass and is returned.
func (s *SQLite) EachGame(ctx context.Context, league string, fn func(results.Game) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchCols+`, g.record FROM games g JOIN matches m ON m.id = g.match_id
		WHERE g.league = ?`+s.liveGames()+` ORDER BY m.seq, m.id`, league)
	if err != nil {
		return fmt.Errorf("league %s: games: %w", league, err)
	}
	defer rows.Close()
	for rows.Next() {
		g, err := scanGame(rows, league)
		if err != nil {
			return err
		}
		if err := fn(g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// DeleteGames removes the stored games of the given matches of a league,
// with their moves, events, penalties and stderr, in one transaction; the
// matches stay scheduled, so the next run plays them again. It returns the
// number of games removed.
func (s *SQLite) DeleteGames(ctx context.Context, league string, ids []string) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("delete games: %w", err)
	}
	defer tx.Rollback()
	n := 0
	for _, id := range ids {
		var have int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE match_id = ? AND league = ?`, id, league).Scan(&have); err != nil {
			return 0, fmt.Errorf("delete game %s: %w", id, err)
		}
		if have == 0 {
			continue
		}
		for _, table := range []string{"moves", "events", "penalties", "stderr"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE game_id = ?`, id); err != nil {
				return 0, fmt.Errorf("delete game %s: %s: %w", id, table, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE match_id = ?`, id); err != nil {
			return 0, fmt.Errorf("delete game %s: %w", id, err)
		}
		n++
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("delete games: %w", err)
	}
	return n, nil
}
