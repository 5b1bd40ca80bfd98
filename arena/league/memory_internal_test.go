package league

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"arena/agents/builtin/inproc"
	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
	"arena/games/all"
)

// wholeReads is the league directory's store that fails the test when
// anything reads a league's games into memory at once, and remembers the
// most matches handed to it in one SaveLeague.
type wholeReads struct {
	*resultsdb.SQLite
	t         *testing.T
	mostSaved int
}

func (s *wholeReads) Games(ctx context.Context, league string) ([]results.Game, error) {
	s.t.Errorf("league %s: every game read into memory at once", league)
	return s.SQLite.Games(ctx, league)
}

func (s *wholeReads) Matches(ctx context.Context, league string) ([]results.Match, error) {
	s.t.Errorf("league %s: the whole schedule read into memory", league)
	return s.SQLite.Matches(ctx, league)
}

func (s *wholeReads) SaveLeague(ctx context.Context, l results.League, agents []results.Agent, matches []results.Match) error {
	s.mostSaved = max(s.mostSaved, len(matches))
	return s.SQLite.SaveLeague(ctx, l, agents, matches)
}

// TestRunHoldsNoPerGameState plays a round-robin league of more games
// than a schedule window and checks what the runner keeps: the schedule
// handed out a window at a time, stored games known by one bit each (no
// map of ids), and standings, the records export and the next run's plan
// made by streaming the store, never by reading every game at once.
func TestRunHoldsNoPerGameState(t *testing.T) {
	// Its own store and slots, in process; mostly waiting on the disk.
	t.Parallel()
	if testing.Short() {
		t.Skip("plays 804 games, each its own store commit: runs without -short")
	}
	const games = 3*scheduleWindow + 36 // 4 windows, the last partial
	dir := memoryDir(t)
	file := filepath.Join(dir, "mem.yaml")
	body := fmt.Sprintf("name: mem\ngame: dots-and-boxes\nformat: round-robin\ngames_per_pairing: %d\nseed: 1\noutput: %s\nagents:\n  - {name: a, agent: builtin:random}\n  - {name: b, agent: builtin:random}\n",
		games, filepath.Join(dir, "out"))
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := resultsdb.OpenDir(ctx, spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := &wholeReads{SQLite: db, t: t}
	pool, err := slots.New(filepath.Join(dir, "slots"), spec.Machine)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	err = Run(ctx, spec, RunOptions{Launch: inproc.Launch, Store: st, Slots: pool, Warn: func(string) {},
		OnGame: func(Progress) { played++ }})
	if err != nil {
		t.Fatal(err)
	}
	if played != games {
		t.Fatalf("%d games played, want %d", played, games)
	}
	if st.mostSaved > scheduleWindow {
		t.Errorf("%d matches handed out at once, want at most a window (%d)", st.mostSaved, scheduleWindow)
	}

	plans, err := planLeagues(ctx, st, spec)
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if p.sched == nil || len(p.pts) != 0 {
		t.Fatalf("stored games of a round robin kept as %d ids by match (sched %v), want one bit each", len(p.pts), p.sched != nil)
	}
	if len(p.sched.done) != (games+63)/64 || p.kept != games || p.missing != 0 || len(p.pending) != 0 {
		t.Errorf("plan after the run: %d words, kept %d, missing %d, pending %d; want %d words, all %d kept",
			len(p.sched.done), p.kept, p.missing, len(p.pending), (games+63)/64, games)
	}

	s, err := standings.Report(ctx, st, spec.Leagues[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if s.Played != games || s.Scheduled != games || len(s.Pairs) != 1 || s.Pairs[0].Penta.N() != games/2 || s.Pairs[0].Unpaired != 0 {
		t.Errorf("standings: played %d of %d, pairs %+v", s.Played, s.Scheduled, s.Pairs)
	}
	var n int
	if err := standings.WriteRecords(ctx, st, []string{spec.Leagues[0].Name}, countLines{&n}); err != nil {
		t.Fatal(err)
	}
	if n != games {
		t.Errorf("records export: %d lines, want %d", n, games)
	}
}

type countLines struct{ n *int }

func (c countLines) Write(b []byte) (int, error) {
	for _, x := range b {
		if x == '\n' {
			*c.n++
		}
	}
	return len(b), nil
}

// memoryDir is a temporary folder in memory (/dev/shm, where it is a
// tmpfs with room), else t.TempDir(). A store committed hundreds of times
// waits there on no disk: on a disk, each commit's fsync queues behind the
// other tests' writes (the suite's links write test binaries of tens of
// MB), which made one such league 13–22 s in the suite against 2 s alone.
func memoryDir(t *testing.T) string {
	var fs unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &fs); err == nil && fs.Type == unix.TMPFS_MAGIC && fs.Bavail*uint64(fs.Bsize) >= 256<<20 {
		if dir, err := os.MkdirTemp("/dev/shm", "arena-league-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
