// Package live keeps, in a league directory, one small file per game being
// played: its record so far (players, start, moves, penalties), rewritten
// as moves are made and removed when the game ends. The viewer reads them
// for its "running now" boards; nothing else depends on them, so a write
// that fails costs the viewer a board and never the game.
package live

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/arena/record"
)

// Dir is the folder of a league directory that holds the live games.
const Dir = "live"

// DefaultEvery is how often at most a game's file is rewritten: a fast
// game makes thousands of moves a second, and a person watching needs a
// few frames a second at most.
const DefaultEvery = 500 * time.Millisecond

// Game is one game in progress as the viewer reads it.
type Game struct {
	League string       `json:"league"`
	Record *record.Game `json:"record"` // no result yet
	// Updated is when the file was last written: a game whose run was
	// killed stays until the next run of the league starts, and its age
	// tells a reader so.
	Updated time.Time `json:"updated"`
}

// Writer writes the live files of one league directory. It is safe for
// the games of a league run at once.
type Writer struct {
	dir   string
	every time.Duration
	now   func() time.Time

	mu    sync.Mutex // held while a file is written, so Done comes last
	games map[string]*entry
}

// entry is one game's writes: when its file was last written, and the
// latest position not yet written, which a timer writes when the period
// is over (so a board never stays behind while an agent thinks).
type entry struct {
	last    time.Time
	pending *Game
	timer   *time.Timer
}

// Open prepares leagueDir's live folder, removing the files a killed run
// left (a run holds the directory's lock, so none of them is in play).
func Open(leagueDir string) (*Writer, error) {
	dir := filepath.Join(leagueDir, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("live games: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("live games: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return &Writer{dir: dir, every: DefaultEvery, now: time.Now, games: map[string]*entry{}}, nil
}

// Update records rec (a game in progress) as league's: written at once
// when the game's file is older than the writer's period, otherwise when
// the period is over, unless a later move comes first. rec is copied: the
// referee goes on changing it.
func (w *Writer) Update(league string, rec *record.Game) {
	g := Game{League: league, Record: snapshot(rec)}
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.games[rec.ID]
	if e == nil {
		e = &entry{}
		w.games[rec.ID] = e
	}
	now := w.now()
	if e.last.IsZero() || now.Sub(e.last) >= w.every {
		w.write(e, g, now)
		return
	}
	e.pending = &g
	if e.timer == nil {
		id := rec.ID
		e.timer = time.AfterFunc(e.last.Add(w.every).Sub(now), func() { w.flush(id) })
	}
}

// flush writes a game's pending position.
func (w *Writer) flush(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.games[id]
	if e == nil {
		return // ended
	}
	e.timer = nil
	if e.pending != nil {
		w.write(e, *e.pending, w.now())
	}
}

// write writes g as of now; w.mu is held.
func (w *Writer) write(e *entry, g Game, now time.Time) {
	e.last, e.pending = now, nil
	g.Updated = now
	b, err := json.Marshal(g)
	if err != nil {
		return
	}
	// Written aside and renamed, so a reader never sees half a file.
	name := fileName(g.Record.ID)
	tmp := filepath.Join(w.dir, "."+name+".tmp")
	if os.WriteFile(tmp, b, 0o644) != nil || os.Rename(tmp, filepath.Join(w.dir, name)) != nil {
		_ = os.Remove(tmp)
	}
}

// Done removes the game's file: it ended, or was called off. A game
// played again later under the same id is written afresh.
func (w *Writer) Done(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.games[id]; e != nil && e.timer != nil {
		e.timer.Stop()
	}
	delete(w.games, id)
	_ = os.Remove(filepath.Join(w.dir, fileName(id)))
}

// snapshot copies what of rec a live file shows, so the copy does not
// change with rec: the record's own fields, its moves and events.
func snapshot(rec *record.Game) *record.Game {
	c := *rec
	c.Moves = slices.Clone(rec.Moves)
	c.Events = slices.Clone(rec.Events)
	return &c
}

// fileName is a game id made safe as a file name (ids hold agent names,
// which a league file chooses).
func fileName(id string) string {
	return strings.NewReplacer("/", "_", "\\", "_", "\x00", "_").Replace(id) + ".json"
}

// Version says which games are in progress in leagueDir and when each
// file was last written, so that any change of a board changes it; it
// reads the folder's listing only.
func Version(leagueDir string) string {
	entries, _ := os.ReadDir(filepath.Join(leagueDir, Dir))
	var b strings.Builder
	for _, e := range entries {
		if !isGame(e) {
			continue
		}
		if info, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "%s@%d,", e.Name(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}

// isGame reports whether a live folder's entry is a game's file (not a
// file being written).
func isGame(e os.DirEntry) bool {
	return !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".")
}

// Read returns the games in progress in leagueDir, by league and id; a
// directory without a live folder has none. A file being replaced or
// unreadable is left out: the next read has it.
func Read(leagueDir string) ([]Game, error) {
	dir := filepath.Join(leagueDir, Dir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("live games: %w", err)
	}
	var out []Game
	for _, e := range entries {
		if !isGame(e) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var g Game
		if json.Unmarshal(b, &g) != nil || g.Record == nil {
			continue
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Game) int {
		if c := strings.Compare(a.League, b.League); c != 0 {
			return c
		}
		return strings.Compare(a.Record.ID, b.Record.ID)
	})
	return out, nil
}
