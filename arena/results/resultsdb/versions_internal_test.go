package resultsdb

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A store written before games had the superseded mark is read as it is
// (read-only: every game live) and gains the mark when a run opens it.
func TestOlderStoreMigrates(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		schema,
		`INSERT INTO meta(key, value) VALUES ('schema', '1')`,
		`INSERT INTO leagues VALUES ('L', 'g', '{}', 'p', '[]', 'round-robin', 'h', '{}', '', '')`,
		`INSERT INTO matches VALUES ('m1', 'L', 'a-vs-b', 0, 0, 0, 'a', 'b', 1)`,
		`INSERT INTO games VALUES ('m1', 'L', 0, 0, NULL, NULL, 'done', '', 0, '', '', '{"id":"m1"}')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if games, err := ro.Games(ctx, "L"); err != nil || len(games) != 1 {
		t.Fatalf("read-only Games of an older store = %d, %v", len(games), err)
	}
	ro.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.Supersede(ctx, "L", []string{"m1"}, "a resubmitted"); err != nil || n != 1 {
		t.Fatalf("Supersede on a migrated store = %d, %v", n, err)
	}
	if games, _ := s.Games(ctx, "L"); len(games) != 0 {
		t.Fatalf("Games after supersede = %d; want 0", len(games))
	}
}
