// Package workerbook keeps what a cluster coordinator knows of its
// workers (machine, benchmark score and class, games played and in
// progress, refusals, when each was last heard from) in a small SQLite
// file in the league directory (cluster/workers.db), written by the
// coordinator and read by the viewer. It is apart from the results store:
// the store has one writer, the league runner, and this book changes
// every few seconds whether games finish or not.
package workerbook

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// FileName is the book's file under a league directory.
const FileName = "cluster/workers.db"

// Worker is one worker as the coordinator last saw it.
type Worker struct {
	Name        string
	Host        string
	CPU         string
	Cores       int
	Score       float64 // benchmark score when it joined
	Class       string  // standard or slow
	Games       int     // results it delivered that were stored or handed to the store
	InProgress  int     // leases it holds now
	Refusals    int     // jobs refused: by it (no good agent copy), of it (slow), or its results (stale, failed verification)
	LastRefusal string
	LastSeen    time.Time
}

// Book is an open workers book.
type Book struct {
	db *sql.DB
}

const schema = `CREATE TABLE IF NOT EXISTS workers (
	name TEXT PRIMARY KEY, host TEXT NOT NULL, cpu TEXT NOT NULL, cores INTEGER NOT NULL,
	score REAL NOT NULL, class TEXT NOT NULL, games INTEGER NOT NULL, in_progress INTEGER NOT NULL,
	refusals INTEGER NOT NULL, last_refusal TEXT NOT NULL, last_seen INTEGER NOT NULL)`

// Open opens (creating if needed) the book of the league directory dir
// for writing.
func Open(ctx context.Context, dir string) (*Book, error) {
	path := filepath.Join(dir, FileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("workers book %s: %w", path, err)
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("workers book %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("workers book %s: %w", path, err)
	}
	return &Book{db: db}, nil
}

// OpenReadOnly opens the book of the league directory dir for reading
// only (the viewer); os.ErrNotExist when the league has no cluster.
func OpenReadOnly(ctx context.Context, dir string) (*Book, error) {
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	for _, p := range []string{"busy_timeout(10000)", "query_only(1)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("workers book %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("workers book %s: %w", path, err)
	}
	return &Book{db: db}, nil
}

// Close closes the book.
func (b *Book) Close() error { return b.db.Close() }

// Save writes the workers given, replacing their rows, in one transaction.
func (b *Book) Save(ctx context.Context, ws []Worker) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("workers book: %w", err)
	}
	defer tx.Rollback()
	for _, w := range ws {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO workers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.Name, w.Host, w.CPU, w.Cores, w.Score, w.Class, w.Games, w.InProgress, w.Refusals, w.LastRefusal, w.LastSeen.UnixMilli())
		if err != nil {
			return fmt.Errorf("workers book: worker %s: %w", w.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("workers book: %w", err)
	}
	return nil
}

// List returns every worker, by name.
func (b *Book) List(ctx context.Context) ([]Worker, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT name, host, cpu, cores, score, class, games, in_progress, refusals, last_refusal, last_seen FROM workers ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("workers book: %w", err)
	}
	defer rows.Close()
	var out []Worker
	for rows.Next() {
		var w Worker
		var seen int64
		if err := rows.Scan(&w.Name, &w.Host, &w.CPU, &w.Cores, &w.Score, &w.Class, &w.Games, &w.InProgress, &w.Refusals, &w.LastRefusal, &seen); err != nil {
			return nil, fmt.Errorf("workers book: %w", err)
		}
		w.LastSeen = time.UnixMilli(seen).UTC()
		out = append(out, w)
	}
	return out, rows.Err()
}
