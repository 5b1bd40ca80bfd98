// Package journal is a league directory's write-ahead log of finished
// games, and the sink that journals each game and commits them to the
// results store in batches.
package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"arena/arena/record"
	"arena/arena/results"
)

// File is the league directory's write-ahead log of finished games.
// Each game is appended when it ends, before it counts; the store receives
// games in batches, each one durable commit, and the journal is emptied
// once a batch is committed there. A run killed between the two leaves the
// games in the journal, and the next run moves them into the store before
// it plans anything (docs/performance.md).
//
// The append is a write without an fsync: once write returns, the kernel
// holds the line, so it survives the arena's death however it dies
// (SIGKILL included), at the cost of a few microseconds. What a power loss
// or a kernel crash can take is bounded by the batch: the games of the last
// CommitInterval, at most CommitEvery of them. An fsync per game cost
// several times a SQLite commit on the machine measured, so it would undo
// the batching; a league that must survive a power loss game by game runs
// with CommitEvery 1 (every game its own durable store commit).
const File = "journal.jsonl"

// Batch defaults: a store commit (an fsync of SQLite's log) per this many
// games, or after this long with a game waiting, whichever comes first.
const (
	DefaultCommitEvery    = 32
	DefaultCommitInterval = time.Second
)

// Entry is one line of the journal.
type Entry struct {
	League string       `json:"league"`
	Record *record.Game `json:"record"`
}

// Journal appends finished games to the write-ahead log.
type Journal struct {
	f    *os.File
	path string
}

// Open opens (creating) the journal of a league directory.
func Open(dir string) (*Journal, error) {
	path := filepath.Join(dir, File)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if errors.Is(statErr, os.ErrNotExist) {
		// The file's name must survive a power loss too.
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	return &Journal{f: f, path: path}, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Append writes one finished game; when it returns the kernel has it (see
// File for what that survives).
func (j *Journal) Append(league string, rec *record.Game) error {
	line, err := json.Marshal(Entry{League: league, Record: rec})
	if err != nil {
		return fmt.Errorf("journal: game %s: %w", rec.ID, err)
	}
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal: game %s: %w", rec.ID, err)
	}
	return nil
}

// Reset empties the journal once every game in it is committed to the
// store. Should the truncation itself be lost to a power cut, the next run
// replays games the store already holds, which changes nothing.
func (j *Journal) Reset() error {
	if err := j.f.Truncate(0); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

func (j *Journal) Close() error { return j.f.Close() }

// Read returns the complete entries of a journal file. A last line
// without its newline is a write the kill interrupted: that game was never
// counted, and is played again. Any other unreadable line is an error.
func Read(path string) ([]Entry, error) {
	body, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if i := bytes.LastIndexByte(body, '\n'); i < len(body)-1 {
		body = body[:i+1] // a torn last write
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Record == nil || e.League == "" {
			if err == nil {
				err = errors.New("no league or record")
			}
			return nil, fmt.Errorf("journal %s:%d: %w", path, n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return out, nil
}

// batchAdder is a store that commits several games in one transaction.
type batchAdder interface {
	AddGames(ctx context.Context, league string, games []*record.Game) ([]bool, error)
}

// AddAll commits games of one league, in one transaction where the store
// can, and returns how many were new.
func AddAll(ctx context.Context, st results.Store, league string, games []*record.Game) (int, error) {
	n := 0
	if b, ok := st.(batchAdder); ok {
		added, err := b.AddGames(ctx, league, games)
		if err != nil {
			return 0, err
		}
		for _, a := range added {
			if a {
				n++
			}
		}
		return n, nil
	}
	for _, g := range games {
		a, err := st.AddGame(ctx, league, g)
		if err != nil {
			return n, err
		}
		if a {
			n++
		}
	}
	return n, nil
}

// Replay moves the games a killed run left in the directory's
// journal into the store, then empties the journal. It returns how many
// games were new to the store.
func Replay(ctx context.Context, st results.Store, dir string) (int, error) {
	path := filepath.Join(dir, File)
	entries, err := Read(path)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(path); err != nil {
		return 0, nil
	}
	byLeague := map[string][]*record.Game{}
	var order []string
	for _, e := range entries {
		if _, ok := byLeague[e.League]; !ok {
			order = append(order, e.League)
		}
		byLeague[e.League] = append(byLeague[e.League], e.Record)
	}
	added := 0
	for _, l := range order {
		n, err := AddAll(ctx, st, l, byLeague[l])
		if err != nil {
			return added, fmt.Errorf("journal %s: league %s: %w", path, l, err)
		}
		added += n
	}
	// Everything is in the store: start the journal afresh.
	if err := os.Truncate(path, 0); err != nil {
		return added, fmt.Errorf("journal: %w", err)
	}
	return added, nil
}

// Sink is where the runner puts finished games: straight into the store,
// or through the journal into batched store commits of Every games, or
// after Interval with a game waiting.
type Sink struct {
	Store    results.Store
	Journal  *Journal // nil: every game is its own store commit
	League   string
	Every    int
	Interval time.Duration
	batch    []*record.Game
	oldest   time.Time // when the oldest game of the batch was journaled
}

// Add records one finished game (see File for how durably) and
// reports whether it was new.
func (s *Sink) Add(ctx context.Context, rec *record.Game) (bool, error) {
	if s.Journal == nil {
		return s.Store.AddGame(ctx, s.League, rec)
	}
	if err := s.Journal.Append(s.League, rec); err != nil {
		return false, err
	}
	if len(s.batch) == 0 {
		s.oldest = time.Now()
	}
	s.batch = append(s.batch, rec)
	if len(s.batch) >= s.Every {
		return true, s.Flush(ctx)
	}
	return true, nil
}

// Due is how long until the batch must be committed (0: none waiting).
func (s *Sink) Due() time.Duration {
	if len(s.batch) == 0 {
		return 0
	}
	return max(time.Until(s.oldest.Add(s.Interval)), time.Nanosecond)
}

// Flush commits the batch to the store and empties the journal.
func (s *Sink) Flush(ctx context.Context) error {
	if s.Journal == nil || len(s.batch) == 0 {
		return nil
	}
	if _, err := AddAll(ctx, s.Store, s.League, s.batch); err != nil {
		return fmt.Errorf("league %s: %w (the games stay in %s and are stored at the next run)", s.League, err, s.Journal.path)
	}
	s.batch = s.batch[:0]
	return s.Journal.Reset()
}
