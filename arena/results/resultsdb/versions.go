package resultsdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"arena/arena/record"
	"arena/arena/results"
)

// Entrant versions and superseded games.
//
// A league's entrants change between runs: a student resubmits, and the
// games of the old version are played again with the new one. The old
// games are never deleted: Supersede moves each to an id of its own
// (ID~superseded-N, with a match row of its own) and marks it, so the
// original match id is free to be played again, and every reader that
// counts games (Games, Done, Matches) sees only the live ones.

// migrate adds to a store made by an earlier arena what this one writes:
// the games' superseded mark and the agents' content hashes, and the
// entrants table. Each step adds only, so older stores keep every game.
func (s *SQLite) migrate(ctx context.Context) error {
	for _, col := range []string{"superseded", "hash0", "hash1"} {
		has, err := s.hasColumn(ctx, "games", col)
		if err != nil {
			return err
		}
		if has {
			continue
		}
		if _, err := s.db.ExecContext(ctx, `ALTER TABLE games ADD COLUMN `+col+` TEXT NOT NULL DEFAULT ''`); err != nil {
			return fmt.Errorf("add games.%s: %w", col, err)
		}
	}
	_, err := s.db.ExecContext(ctx, `
CREATE TABLE IF NOT EXISTS entrants (
	league   TEXT NOT NULL REFERENCES leagues(name),
	name     TEXT NOT NULL,
	hash     TEXT NOT NULL,
	ref      TEXT NOT NULL,
	added    TEXT NOT NULL,  -- when this version first entered
	replaced TEXT NOT NULL,  -- when another version replaced it; '' while current
	PRIMARY KEY (league, name, hash)
)`)
	if err != nil {
		return fmt.Errorf("create entrants: %w", err)
	}
	return s.detectVersions(ctx)
}

// detectVersions notes whether the store has the superseded mark: a store
// of an earlier arena opened read-only has none, and all its games are live.
func (s *SQLite) detectVersions(ctx context.Context) error {
	has, err := s.hasColumn(ctx, "games", "superseded")
	if err != nil {
		return err
	}
	s.versioned = has
	return nil
}

func (s *SQLite) hasColumn(ctx context.Context, table, col string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, table, col).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("columns of %s: %w", table, err)
	}
	return n > 0, nil
}

// liveGames is the condition on games g that leaves superseded ones out.
func (s *SQLite) liveGames() string {
	if !s.versioned {
		return ""
	}
	return ` AND g.superseded = ''`
}

// liveMatches is the condition on matches m that leaves out the matches
// superseded games were moved to.
func (s *SQLite) liveMatches() string {
	if !s.versioned {
		return ""
	}
	return ` AND NOT EXISTS (SELECT 1 FROM games g WHERE g.match_id = m.id AND g.superseded <> '')`
}

// saveVersions records each agent's current content hash in the entrants
// table: a new version is added, and the one it replaces is dated.
func saveVersions(ctx context.Context, tx *sql.Tx, league string, agents []results.Agent, now string) error {
	for _, a := range agents {
		_, err := tx.ExecContext(ctx, `UPDATE entrants SET replaced = ? WHERE league = ? AND name = ? AND hash <> ? AND replaced = ''`,
			now, league, a.Name, a.Hash)
		if err != nil {
			return fmt.Errorf("entrant %s: %w", a.Name, err)
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO entrants(league, name, hash, ref, added, replaced) VALUES (?, ?, ?, ?, ?, '')
			ON CONFLICT(league, name, hash) DO UPDATE SET ref = excluded.ref,
				added = CASE WHEN entrants.replaced = '' THEN entrants.added ELSE excluded.added END, replaced = ''`,
			league, a.Name, a.Hash, a.Ref, now)
		if err != nil {
			return fmt.Errorf("entrant %s: %w", a.Name, err)
		}
	}
	return nil
}

// Version is one content hash an entrant of a league has had.
type Version struct {
	Name, Hash, Ref string
	Added           time.Time
	Replaced        time.Time // zero while it is the entrant's current version
}

// Versions lists every version of a league's entrants, by name and age.
func (s *SQLite) Versions(ctx context.Context, league string) ([]Version, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, hash, ref, added, replaced FROM entrants WHERE league = ? ORDER BY name, added, hash`, league)
	if err != nil {
		return nil, fmt.Errorf("league %s: entrants: %w", league, err)
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		var v Version
		var added, replaced string
		if err := rows.Scan(&v.Name, &v.Hash, &v.Ref, &added, &replaced); err != nil {
			return nil, fmt.Errorf("league %s: entrants: %w", league, err)
		}
		v.Added = parseTS(added)
		if replaced != "" {
			v.Replaced = parseTS(replaced)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Superseded is a game a later version of one of its agents replaced.
type Superseded struct {
	results.Game
	// Of is the match id the game was played as, which the new version's
	// game now holds.
	Of string
	// Why names the resubmission ("alice resubmitted: hash … -> …").
	Why string
}

// Supersede marks the live games of the given matches of a league as
// superseded, saying why, and frees their match ids for new games, in one
// transaction. It returns the number of games marked.
func (s *SQLite) Supersede(ctx context.Context, league string, ids []string, why string) (int, error) {
	if why == "" {
		return 0, fmt.Errorf("supersede games of league %s: no reason given", league)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("supersede games of league %s: %w", league, err)
	}
	defer tx.Rollback()
	n := 0
	for _, id := range ids {
		moved, err := supersedeOne(ctx, tx, league, id, why)
		if err != nil {
			return 0, fmt.Errorf("supersede game %s: %w", id, err)
		}
		if moved {
			n++
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("supersede games of league %s: %w", league, err)
	}
	return n, nil
}

// supersedeOne moves one live game to a match id of its own,
// ID~superseded-N, N counting the earlier superseded plays of ID.
func supersedeOne(ctx context.Context, tx *sql.Tx, league, id, why string) (bool, error) {
	var live int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE match_id = ? AND league = ? AND superseded = ''`, id, league).Scan(&live); err != nil {
		return false, err
	}
	if live == 0 {
		return false, nil
	}
	var earlier int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM matches WHERE id LIKE ? ESCAPE '\'`, likePrefix(id)+"~superseded-%").Scan(&earlier); err != nil {
		return false, err
	}
	newID := fmt.Sprintf("%s~superseded-%d", id, earlier+1)
	steps := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO matches(id, league, pairing, pair, game_index, seq, seat0, seat1, seed)
			SELECT ?, league, pairing, pair, game_index, seq, seat0, seat1, seed FROM matches WHERE id = ?`, []any{newID, id}},
		{`INSERT INTO games(match_id, league, winner, draw, score0, score1, reason, forfeit, plies, started, ended, record, hash0, hash1, superseded)
			SELECT ?, league, winner, draw, score0, score1, reason, forfeit, plies, started, ended, record, hash0, hash1, ? FROM games WHERE match_id = ?`,
			[]any{newID, why, id}},
		{`UPDATE moves SET game_id = ? WHERE game_id = ?`, []any{newID, id}},
		{`UPDATE events SET game_id = ? WHERE game_id = ?`, []any{newID, id}},
		{`UPDATE penalties SET game_id = ? WHERE game_id = ?`, []any{newID, id}},
		{`UPDATE stderr SET game_id = ? WHERE game_id = ?`, []any{newID, id}},
		{`DELETE FROM games WHERE match_id = ?`, []any{id}},
	}
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.sql, st.args...); err != nil {
			return false, err
		}
	}
	return true, nil
}

// likePrefix escapes s for a LIKE pattern with ESCAPE '\'.
func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// SupersededGames lists a league's superseded games in schedule order,
// oldest play first.
func (s *SQLite) SupersededGames(ctx context.Context, league string) ([]Superseded, error) {
	if !s.versioned {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+matchCols+`, g.record, g.superseded FROM games g JOIN matches m ON m.id = g.match_id
		WHERE g.league = ? AND g.superseded <> '' ORDER BY m.seq, m.id`, league)
	if err != nil {
		return nil, fmt.Errorf("league %s: superseded games: %w", league, err)
	}
	defer rows.Close()
	var out []Superseded
	for rows.Next() {
		var sg Superseded
		if sg.Game, err = scanGame(rows, league, &sg.Why); err != nil {
			return nil, err
		}
		sg.Of, _, _ = strings.Cut(sg.Match.ID, "~superseded-")
		out = append(out, sg)
	}
	return out, rows.Err()
}

// scanGame reads a row of matchCols, the record and then extra columns.
func scanGame(r scanner, league string, extra ...any) (results.Game, error) {
	var m results.Match
	var seed int64
	var body string
	dst := append([]any{&m.ID, &m.League, &m.Pairing, &m.Pair, &m.Index, &m.Seq, &m.Seats[0], &m.Seats[1], &seed, &body}, extra...)
	if err := r.Scan(dst...); err != nil {
		return results.Game{}, fmt.Errorf("league %s: games: %w", league, err)
	}
	m.Seed = uint64(seed)
	rec := new(record.Game)
	if err := json.Unmarshal([]byte(body), rec); err != nil {
		return results.Game{}, fmt.Errorf("league %s: game %s: decode record: %w", league, m.ID, err)
	}
	return results.Game{Match: m, Record: rec}, nil
}
