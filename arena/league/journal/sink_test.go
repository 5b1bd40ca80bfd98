package journal

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/results"
)

// memStore keeps the ids of the games added to it; a game whose id is in
// old is one it already held (AddGame reports it not new).
type memStore struct {
	results.Store // only AddGame is called
	old           map[string]bool
	ids           []string
}

func (s *memStore) AddGame(_ context.Context, league string, g *record.Game) (bool, error) {
	s.ids = append(s.ids, g.ID)
	return !s.old[g.ID], nil
}

// batchStore commits several games at once, counting its commits.
type batchStore struct {
	memStore
	commits int
}

func (s *batchStore) AddGames(ctx context.Context, league string, games []*record.Game) ([]bool, error) {
	s.commits++
	out := make([]bool, len(games))
	for i, g := range games {
		out[i], _ = s.memStore.AddGame(ctx, league, g)
	}
	return out, nil
}

func games(ids ...string) []*record.Game {
	out := make([]*record.Game, len(ids))
	for i, id := range ids {
		out[i] = &record.Game{ID: id}
	}
	return out
}

// addGames counts the games new to the store, whether it commits them one
// by one or in one batch.
func TestAddGamesCountsTheNewOnes(t *testing.T) {
	ctx := context.Background()
	plain := &memStore{old: map[string]bool{"g2": true}}
	if n, err := AddAll(ctx, plain, "L", games("g1", "g2", "g3")); err != nil || n != 2 {
		t.Errorf("one by one: %d new, %v; want 2", n, err)
	}
	batched := &batchStore{memStore: memStore{old: map[string]bool{"g1": true, "g3": true}}}
	if n, err := AddAll(ctx, batched, "L", games("g1", "g2", "g3")); err != nil || n != 1 {
		t.Errorf("in a batch: %d new, %v; want 1", n, err)
	}
	if batched.commits != 1 || !slices.Equal(batched.ids, []string{"g1", "g2", "g3"}) {
		t.Errorf("batch store: %d commits of %v, want one of g1 g2 g3", batched.commits, batched.ids)
	}
}

// The sink journals every game and commits a batch to the store once it
// holds `every` games, emptying the journal; a flush commits what is
// waiting, and a flush with nothing waiting commits nothing.
func TestSinkCommitsEveryNGames(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	st := &batchStore{}
	s := &Sink{Store: st, Journal: j, League: "L", Every: 2, Interval: time.Hour}
	journaled := func() []string {
		t.Helper()
		es, err := Read(filepath.Join(dir, File))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range es {
			ids = append(ids, e.Record.ID)
		}
		return ids
	}
	check := func(when string, stored, inJournal []string, commits int) {
		t.Helper()
		if !slices.Equal(st.ids, stored) || st.commits != commits {
			t.Errorf("%s: store holds %v in %d commits, want %v in %d", when, st.ids, st.commits, stored, commits)
		}
		if got := journaled(); !slices.Equal(got, inJournal) {
			t.Errorf("%s: journal holds %v, want %v", when, got, inJournal)
		}
	}
	add := func(id string) {
		t.Helper()
		if fresh, err := s.Add(ctx, &record.Game{ID: id}); err != nil || !fresh {
			t.Fatalf("add %s: %v %v", id, fresh, err)
		}
	}
	add("g1")
	check("after one game", nil, []string{"g1"}, 0)
	if s.Due() <= 0 || s.Due() > time.Hour {
		t.Errorf("a waiting game is due in %v, want within the hour's interval", s.Due())
	}
	add("g2")
	check("after two games", []string{"g1", "g2"}, nil, 1)
	if s.Due() != 0 {
		t.Errorf("nothing waits, yet due in %v", s.Due())
	}
	add("g3")
	check("after three games", []string{"g1", "g2"}, []string{"g3"}, 1)
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("after a flush", []string{"g1", "g2", "g3"}, nil, 2)
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	check("after an empty flush", []string{"g1", "g2", "g3"}, nil, 2)
}
