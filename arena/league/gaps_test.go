package league_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/league/standings"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/plugins/sdk"
)

// forfeiter plays the first legal move until its at-th move request of a
// game, where it answers a pit that does not exist: a loss under
// comp424-2017. Between two forfeiters the one with the smaller at loses
// (at equal at, the one moving first); no Bohnenspiel game ends by its
// rules within the first six plies, so every result is known in advance.
type forfeiter struct {
	at, n int
}

func (f *forfeiter) Move(_ context.Context, t sdk.Turn) (string, error) {
	if f.n++; f.n == f.at {
		return fmt.Sprintf("PIT %d 9", t.Seat), nil
	}
	return t.Legal[0], nil
}

// forfeitAt is the move on which each forfeiting test agent forfeits.
var forfeitAt = map[string]int{"top": 3, "mid": 2, "bottom": 1}

// knownLeague is a round-robin of three forfeiters whose every result is
// known: top beats both, mid beats bottom. The configuration lists them
// out of rank order, so that a ranking that merely kept the configured
// order would show.
func knownLeague(t *testing.T, out string, perPairing int) string {
	return leaguefiletest.Write(t, "known.yaml", fmt.Sprintf(`
name: known
game: bohnenspiel
games_per_pairing: %d
concurrency: 1
output: %s
agents:
  - name: mid
    agent: forfeit2
  - name: bottom
    agent: forfeit1
  - name: top
    agent: forfeit3
`, perPairing, out))
}

// The standings of a played league match, value for value, what its known
// results give: W/D/L, points, penalties, the cross-table, and Elo with
// its interval from the Bradley–Terry fit of exactly those results.
func TestStandingsFromKnownResults(t *testing.T) {
	out := filepath.Join(t.TempDir(), "known")
	spec, err := leaguefile.Load(knownLeague(t, out, 2), leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher()}); err != nil {
		t.Fatal(err)
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// Every game ended as the forfeit rule says, on the loser's illegal move.
	games, err := st.Games(ctx, "known")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 {
		t.Fatalf("%d games stored, want 6", len(games))
	}
	index := map[string]int{"mid": 0, "bottom": 1, "top": 2} // configured order
	var fit []ratings.Game
	for _, g := range games {
		a, b := g.Record.Agents[0].Name, g.Record.Agents[1].Name
		want := 0 // seat 0 wins if it forfeits later
		if forfeitAt[a] <= forfeitAt[b] {
			want = 1
		}
		if g.Record.Result.Winner != want || g.Record.Result.Forfeit != "illegal" {
			t.Fatalf("game %s (%s vs %s): result %+v, want seat %d to win on an illegal move", g.Match.ID, a, b, g.Record.Result, want)
		}
		fit = append(fit, ratings.Game{A: index[a], B: index[b], ScoreA: float64(1 - want)})
	}
	// The games export names each winner.
	for i, row := range standings.GameRows(games) {
		g := games[i].Record
		if row.ID != games[i].Match.ID || row.Winner != g.Agents[g.Result.Winner].Name || row.Draw || row.Forfeit != "illegal" {
			t.Errorf("export row %+v for game %s won by seat %d", row, row.ID, g.Result.Winner)
		}
	}
	ref, err := ratings.FitBT(3, fit, ratings.Options{})
	if err != nil {
		t.Fatal(err)
	}

	s, err := standings.Report(ctx, st, "known")
	if err != nil {
		t.Fatal(err)
	}
	if s.Played != 6 || s.Scheduled != 6 || s.FitNote != "" {
		t.Fatalf("played %d of %d, fit note %q", s.Played, s.Scheduled, s.FitNote)
	}
	want := []struct {
		agent   string
		w, d, l int
		score   float64
		illegal int
	}{
		{agent: "top", w: 4, score: 4},
		{agent: "mid", w: 2, l: 2, score: 2, illegal: 2},
		{agent: "bottom", l: 4, illegal: 4},
	}
	if len(s.Rows) != 3 {
		t.Fatalf("%d rows", len(s.Rows))
	}
	for i, w := range want {
		r := s.Rows[i]
		if r.Rank != i+1 || r.Agent != w.agent || r.Games != 4 || r.W != w.w || r.D != w.d || r.L != w.l || r.Score != w.score ||
			r.Illegal != w.illegal || r.Penalties["illegal"] != w.illegal || r.Crash != 0 || r.Timeout != 0 {
			t.Errorf("row %d = %+v, want %s with W/D/L %d/%d/%d, %v points, %d illegal", i+1, r, w.agent, w.w, w.d, w.l, w.score, w.illegal)
		}
		fr := ref.Ratings[index[w.agent]]
		for _, v := range [][2]float64{{r.Elo, fr.Elo}, {r.EloLo, fr.Lo}, {r.EloHi, fr.Hi}, {r.EloSE, fr.SE}} {
			if math.Abs(v[0]-v[1]) > 1e-6 {
				t.Errorf("%s: Elo %.3f [%.3f, %.3f] se %.3f, want %.3f [%.3f, %.3f] se %.3f", w.agent, r.Elo, r.EloLo, r.EloHi, r.EloSE, fr.Elo, fr.Lo, fr.Hi, fr.SE)
				break
			}
		}
	}
	// The results are symmetric: mid is at the mean, top and bottom
	// equally far above and below it.
	top, mid, bottom := s.Rows[0].Elo, s.Rows[1].Elo, s.Rows[2].Elo
	if math.Abs(mid) > 1e-6 || math.Abs(top+bottom) > 1e-6 || top < 100 {
		t.Errorf("Elo top %.2f mid %.2f bottom %.2f: want mid 0, top = -bottom, top well above 0", top, mid, bottom)
	}
	// Cross-table, in rank order.
	cross := [][]standings.Cell{
		{{}, {W: 2}, {W: 2}},
		{{L: 2}, {}, {W: 2}},
		{{L: 2}, {L: 2}, {}},
	}
	for i := range cross {
		for j := range cross[i] {
			if s.Cross[i][j] != cross[i][j] {
				t.Errorf("cross[%s][%s] = %+v, want %+v", s.Rows[i].Agent, s.Rows[j].Agent, s.Cross[i][j], cross[i][j])
			}
		}
	}
	// Each pairing's colour-swapped pair: the stronger scores 2 of 2.
	if len(s.Pairs) != 3 {
		t.Fatalf("pairs %+v", s.Pairs)
	}
	for _, p := range s.Pairs {
		stronger := p.A
		if forfeitAt[p.B] > forfeitAt[p.A] {
			stronger = p.B
		}
		wantPenta := ratings.Penta{1, 0, 0, 0, 0} // A scored 0 of 2
		if stronger == p.A {
			wantPenta = ratings.Penta{0, 0, 0, 0, 1}
		}
		if p.Penta != wantPenta || p.Unpaired != 0 {
			t.Errorf("pairing %s: penta %v unpaired %d, want %v", p.Pairing, p.Penta, p.Unpaired, wantPenta)
		}
	}
}

// Two runs on one league directory at once: the second is refused while
// the first holds the directory, and may run once it is done.
func TestSecondRunOnSameDirectoryIsRefused(t *testing.T) {
	longRunning(t)
	out := filepath.Join(t.TempDir(), "known")
	file := knownLeague(t, out, 2)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var second error
	secondRan := false
	err = league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), OnStart: func(int, int) {
		// The first run holds the directory now.
		spec2, err := leaguefile.Load(file, leaguefiletest.Options())
		if err != nil {
			t.Error(err)
			return
		}
		secondRan = true
		second = league.Run(ctx, spec2, league.RunOptions{Launch: testLauncher()})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !secondRan || second == nil || !strings.Contains(second.Error(), "in use by another arena league run") || !strings.Contains(second.Error(), out) {
		t.Fatalf("second run during the first: %v; want it refused, naming the directory", second)
	}
	// Once the first is over, a run is let in (and finds nothing to play).
	played := 0
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), OnGame: func(league.Progress) { played++ }}); err != nil {
		t.Fatalf("run after the first ended: %v", err)
	}
	if played != 0 {
		t.Fatalf("a finished league played %d more games", played)
	}
	if n := len(storedGames(t, out, "known")); n != 6 {
		t.Fatalf("%d games stored, want 6", n)
	}
}

// countingStore records every game the runner hands to the store, added
// or not: a replayed game is visible even though the store drops it.
type countingStore struct {
	results.Store
	mu    sync.Mutex
	added map[string]int
}

func (c *countingStore) AddGame(ctx context.Context, league string, g *record.Game) (bool, error) {
	c.mu.Lock()
	c.added[g.ID]++
	c.mu.Unlock()
	return c.Store.AddGame(ctx, league, g)
}

// A resumed round-robin plays each missing game once and nothing else,
// counted where the games are made (agent launches by the referee) and
// where they are kept (the store's AddGame), not by what the store kept.
func TestResumePlaysOnlyMissingGames(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	out := filepath.Join(t.TempDir(), "known")
	file := knownLeague(t, out, 4)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	sched := spec.Leagues[0].Schedule()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// First run: stop after three stored games.
	pool := ownSlots(t, spec)
	first, stop := context.WithCancel(ctx)
	n := 0
	err = league.Run(first, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnGame: func(league.Progress) {
		if n++; n == 3 {
			stop()
		}
	}})
	stop()
	if err == nil {
		t.Fatal("the interrupted run reported success")
	}
	before := map[string]bool{}
	for _, g := range storedGames(t, out, "known") {
		before[g.Match.ID] = true
	}
	if len(before) < 3 || len(before) >= len(sched) {
		t.Fatalf("%d of %d games stored after the interruption", len(before), len(sched))
	}

	// Second run, counted.
	db, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cs := &countingStore{Store: db, added: map[string]int{}}
	// Agents started for a game count the games the referee really played.
	var starts atomic.Int64
	var total, done int
	var progressed []string
	err = league.Run(ctx, spec, league.RunOptions{
		Store:   cs,
		Launch:  playCounting(&starts),
		Slots:   pool,
		OnStart: func(t, d int) { total, done = t, d },
		OnGame:  func(p league.Progress) { progressed = append(progressed, p.Game.ID) },
	})
	if err != nil {
		t.Fatal(err)
	}
	missing := len(sched) - len(before)
	if total != len(sched) || done != len(before) {
		t.Errorf("OnStart(%d, %d), want (%d, %d)", total, done, len(sched), len(before))
	}
	for id, k := range cs.added {
		if before[id] {
			t.Errorf("game %s, stored before the resume, was played again (%d times)", id, k)
		} else if k != 1 {
			t.Errorf("game %s handed to the store %d times", id, k)
		}
	}
	if len(cs.added) != missing || len(progressed) != missing {
		t.Errorf("resume stored %d and reported %d games, want the %d missing", len(cs.added), len(progressed), missing)
	}
	// Two agents started per play of a missing game: the plays are the
	// games and those the machine spoilt (machine_replays).
	all := map[string]bool{}
	plays := 0
	for _, g := range storedGames(t, out, "known") {
		all[g.Match.ID] = true
		if !before[g.Match.ID] {
			plays += 1 + len(g.Record.Replays)
		}
	}
	if n := int(starts.Load()); n != 2*plays {
		t.Errorf("the referee started agents for %d games, want %d plays of the %d missing games", n/2, plays, missing)
	}
	for _, m := range sched {
		if !all[m.ID] {
			t.Errorf("match %s never stored", m.ID)
		}
	}

	// Third run, of the complete league: nothing to play, and nothing
	// said of a sequential test this league does not run.
	var log bytes.Buffer
	starts.Store(0)
	err = league.Run(ctx, spec, league.RunOptions{Launch: playCounting(&starts), Slots: pool, Log: &log})
	if err != nil || starts.Load() != 0 {
		t.Fatalf("complete league run again: %v, %d agents started", err, starts.Load())
	}
	if strings.Contains(log.String(), "SPRT") {
		t.Errorf("a complete round-robin's run says:\n%s", log.String())
	}
}
