package resultsdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"arena/arena/record"
	"arena/arena/results"
)

// OpenLive opens an existing store for reading only (the viewer): the
// file is opened with mode=ro and every connection is query_only, so
// nothing this process does can change it, while a league running in
// another process (or this one) keeps writing through its own handle. A
// missing file is an error, never created. Unlike OpenReadOnly, which
// opens an idle store immutable, it always reads through the write-ahead
// log, so a long-lived viewer sees games committed after it opened.
func OpenLive(ctx context.Context, path string) (*SQLite, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	for _, p := range []string{"busy_timeout(10000)", "query_only(1)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	var v string
	err = db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&v)
	if err == nil && v != fmt.Sprint(schemaVersion) {
		err = fmt.Errorf("schema version %s, this arena reads version %d", v, schemaVersion)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	st := &SQLite{db: db, path: path}
	if err := st.detectVersions(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("results store %s: %w", path, err)
	}
	return st, nil
}

// Record returns one stored game by its match id, with its league's name,
// or ErrNotFound.
func (s *SQLite) Record(ctx context.Context, id string) (*record.Game, string, error) {
	var league, body string
	err := s.db.QueryRowContext(ctx, `SELECT league, record FROM games WHERE match_id = ?`, id).Scan(&league, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", fmt.Errorf("game %s: %w", id, results.ErrNotFound)
	}
	if err != nil {
		return nil, "", fmt.Errorf("game %s: %w", id, err)
	}
	rec := new(record.Game)
	if err := json.Unmarshal([]byte(body), rec); err != nil {
		return nil, "", fmt.Errorf("game %s: decode record: %w", id, err)
	}
	return rec, league, nil
}

// Version changes whenever a game or a league is added or updated; a
// viewer polls it to know when to refresh.
func (s *SQLite) Version(ctx context.Context) (string, error) {
	var games int64
	var ended, updated sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM games), (SELECT max(ended) FROM games), (SELECT max(updated) FROM leagues)`).
		Scan(&games, &ended, &updated)
	if err != nil {
		return "", fmt.Errorf("results store %s: %w", s.path, err)
	}
	return fmt.Sprintf("%d/%s/%s", games, ended.String, updated.String), nil
}

// FindDirs lists the league directories (those holding a store file) at
// or under root, at most three levels down, in lexical order.
func FindDirs(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are skipped, not fatal
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= 3 {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == FileName {
			out = append(out, filepath.Dir(p))
		}
		return nil
	})
	return out
}
