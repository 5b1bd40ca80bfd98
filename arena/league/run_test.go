package league_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
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
)

// storedGames opens a league directory's store and returns its games.
func storedGames(t *testing.T, dir, name string) []results.Game {
	t.Helper()
	st, err := resultsdb.OpenDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.Games(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// A league killed with SIGKILL part-way resumes to exactly its full set of
// games, each once, and keeps the games finished before the kill as they
// were. The child holds every store commit back, so the games it finished
// are only in the journal (the write-ahead log) when it dies: they must
// reach the store from there, unchanged and not replayed.
func TestResumeAfterSIGKILL(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	file := leaguefiletest.Write(t, "kill.yaml", `
name: kill
game: bohnenspiel
games_per_pairing: 6
concurrency: 1
agents:
  - name: slow
    agent: slow
  - name: random
    agent: random
  - name: greedy
    agent: greedy
`)
	out := filepath.Join(t.TempDir(), "league")
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	sched := spec.Leagues[0].Schedule()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], runArg, file, out)
	var stderr bytes.Buffer
	child.Stderr = &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for a few journaled games, then kill the runner outright.
	const k = 3
	for len(journaled(t, out)) < k {
		if ctx.Err() != nil {
			t.Fatalf("no %d games journaled in time; child stderr:\n%s", k, stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = child.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v before the kill; stderr:\n%s", err, stderr.String())
	}
	if stored := storedGamesIfAny(t, out, "kill"); len(stored) != 0 {
		t.Fatalf("%d games reached the store before the kill; the child should hold every commit back", len(stored))
	}
	atKill := journaled(t, out)
	if len(atKill) >= len(sched) {
		t.Fatalf("the whole league (%d games) finished before the kill", len(atKill))
	}
	t.Logf("killed with %d of %d games journaled, none in the store", len(atKill), len(sched))

	// Resume in this process.
	opt := leaguefiletest.Options()
	opt.Sources.Sets = []string{"output=" + out}
	spec, err = leaguefile.Load(file, opt)
	if err != nil {
		t.Fatal(err)
	}
	pool := ownSlots(t, spec)
	var started, done int
	// Count what the referee does: a replayed game starts its agents even
	// when the store then drops its duplicate.
	var starts atomic.Int64
	err = league.Run(ctx, spec, league.RunOptions{
		Launch:  playCounting(&starts),
		Slots:   pool,
		OnStart: func(total, d int) { started, done = total, d },
	})
	if err != nil {
		t.Fatal(err)
	}
	if started != len(sched) || done != len(atKill) {
		t.Errorf("resume planned %d games with %d done; want %d with %d", started, done, len(sched), len(atKill))
	}
	after := storedGames(t, out, "kill")
	if len(after) != len(sched) {
		t.Fatalf("%d games stored, want %d", len(after), len(sched))
	}
	// Two agents started per play of a missing game, and no other: the
	// plays are the games and those the machine spoilt (machine_replays).
	journaledID := map[string]bool{}
	for _, g := range atKill {
		journaledID[g.Match.ID] = true
	}
	plays := 0
	for _, g := range after {
		if !journaledID[g.Match.ID] {
			plays += 1 + len(g.Record.Replays)
		}
	}
	if n := int(starts.Load()); n != 2*plays {
		t.Errorf("the resume started agents for %d games, want %d plays of the %d missing games", n/2, plays, len(sched)-len(atKill))
	}
	ids := map[string]int{}
	for _, g := range after {
		ids[g.Match.ID]++
		if g.Record.ID != g.Match.ID {
			t.Errorf("record %s stored under match %s", g.Record.ID, g.Match.ID)
		}
	}
	for _, m := range sched {
		if ids[m.ID] != 1 {
			t.Errorf("match %s stored %d times", m.ID, ids[m.ID])
		}
	}
	// Games finished before the kill were not replayed.
	byID := map[string]results.Game{}
	for _, g := range after {
		byID[g.Match.ID] = g
	}
	for _, g := range atKill {
		a, _ := json.Marshal(g.Record)
		b, _ := json.Marshal(byID[g.Match.ID].Record)
		if !bytes.Equal(a, b) {
			t.Errorf("game %s changed across the resume", g.Match.ID)
		}
	}
	if body, err := os.ReadFile(filepath.Join(out, league.JournalFile)); err != nil || len(body) != 0 {
		t.Errorf("journal after a finished run: %d bytes (%v), want empty", len(body), err)
	}
	// A third run plays nothing.
	err = league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnGame: func(p league.Progress) {
		t.Errorf("a finished league played game %s", p.Game.ID)
	}})
	if err != nil {
		t.Fatal(err)
	}
	// The records export holds every game once.
	body, err := os.ReadFile(filepath.Join(out, league.RecordsFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(body, []byte("\n")); n != len(sched) {
		t.Errorf("records export has %d lines, want %d", n, len(sched))
	}
}

// journaled reads the complete lines of a league directory's journal as
// the games they hold (a line the kill cut short is not a finished game).
func journaled(t *testing.T, dir string) []results.Game {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(dir, league.JournalFile))
	if err != nil {
		return nil
	}
	var out []results.Game
	for _, line := range strings.SplitAfter(string(body), "\n") {
		if !strings.HasSuffix(line, "\n") {
			break
		}
		var e struct {
			League string
			Record *record.Game
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.Record == nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		out = append(out, results.Game{Match: results.Match{ID: e.Record.ID}, Record: e.Record})
	}
	return out
}

// storedGamesIfAny reads games while another process writes; a store not
// yet initialised reads as empty.
func storedGamesIfAny(t *testing.T, dir, name string) []results.Game {
	st, err := resultsdb.OpenDir(context.Background(), dir)
	if err != nil {
		return nil
	}
	defer st.Close()
	games, err := st.Games(context.Background(), name)
	if err != nil {
		return nil
	}
	return games
}

// An A/B league stops scheduling once the SPRT decides: greedy against
// random at Bohnenspiel is a clear H1. An elo1 of 150 decides it in 18
// games where 50 took 46; the stop is the same.
func TestSPRTStopsEarly(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	out := filepath.Join(t.TempDir(), "ab")
	file := leaguefiletest.Write(t, "ab.yaml", `
game: bohnenspiel
format: ab
games_per_pairing: 200
output: `+out+`
sprt: {elo0: 0, elo1: 150, alpha: 0.05, beta: 0.05}
agents:
  - name: greedy
    agent: greedy
  - name: random
    agent: random
`)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pool := ownSlots(t, spec)
	var log bytes.Buffer
	var last league.Progress
	err = league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, Log: &log, OnGame: func(p league.Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "ab")
	if len(games) >= 200 || len(games) == 0 {
		t.Fatalf("%d games played; the SPRT should stop well before 200", len(games))
	}
	if !last.Stopped || last.Total != len(games) || last.Done != len(games) {
		t.Errorf("last progress %+v after %d games", last, len(games))
	}
	if !strings.Contains(log.String(), "SPRT decided: accept H1") {
		t.Errorf("log does not announce the decision:\n%s", log.String())
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := standings.Report(ctx, st, "ab")
	if err != nil {
		t.Fatal(err)
	}
	if s.SPRT == nil || s.SPRT.Decision != ratings.AcceptH1 || s.SPRT.LLR < s.SPRT.Upper || s.SPRT.A != "greedy" || 2*s.SPRT.Pairs != len(games) {
		t.Fatalf("SPRT = %+v", s.SPRT)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SPRT greedy vs random (pentanomial, elo0=0 elo1=150 alpha=0.05 beta=0.05): LLR", "H1 accepted", "bounds [-2.94, 2.94]"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("standings lack %q:\n%s", want, text.String())
		}
	}
	t.Logf("SPRT stopped after %d games:\n%s", len(games), text.String())

	// Run again: decided, nothing more is played.
	err = league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnGame: func(p league.Progress) {
		t.Errorf("a decided A/B league played game %s", p.Game.ID)
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// A cancelled run keeps its finished games; a changed configuration is
// refused unless forced; standings show every agent.
func TestInterruptChangeAndStandings(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	out := filepath.Join(t.TempDir(), "rr")
	body := `
name: rr
game: bohnenspiel
games_per_pairing: 4
output: ` + out + `
overrides:
  move-limit: 2s
agents:
  - name: greedy
    agent: greedy
  - name: random
    agent: random
  - name: random2
    agent: builtin:random
`
	file := leaguefiletest.Write(t, "rr.yaml", body)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// Stop after the fourth stored game, as Ctrl-C would.
	pool := ownSlots(t, spec)
	runCtx, stop := context.WithCancel(ctx)
	n := 0
	err = league.Run(runCtx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnGame: func(league.Progress) {
		if n++; n == 4 {
			stop()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	got := len(storedGames(t, out, "rr"))
	if got < 4 || got >= 12 {
		t.Fatalf("%d games stored after the interruption, want 4 (or a few more in flight)", got)
	}

	changed := leaguefiletest.Write(t, "rr.yaml", strings.Replace(body, "move-limit: 2s", "move-limit: 3s", 1))
	spec2, err := leaguefile.Load(changed, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	err = league.Run(ctx, spec2, league.RunOptions{Launch: testLauncher(), Slots: pool})
	var ce *league.ChangedError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "overrides") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("changed configuration: %v", err)
	}
	if len(storedGames(t, out, "rr")) != got {
		t.Fatal("a refused run changed the store")
	}

	// The original file resumes to the end.
	var log bytes.Buffer
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "override move-limit: 700ms -> 2s") {
		t.Errorf("the override is not shown:\n%s", log.String())
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := standings.Report(ctx, st, "rr")
	if err != nil {
		t.Fatal(err)
	}
	if s.Played != 12 || s.Scheduled != 12 || len(s.Rows) != 3 || len(s.Pairs) != 3 {
		t.Fatalf("standings: %d/%d played, %d rows, %d pairings", s.Played, s.Scheduled, len(s.Rows), len(s.Pairs))
	}
	total := 0.0
	for _, r := range s.Rows {
		if r.Games != 8 || r.W+r.D+r.L != 8 || r.EloLo > r.Elo || r.EloHi < r.Elo {
			t.Errorf("row %+v", r)
		}
		total += r.Score
	}
	if total != 12 {
		t.Errorf("points add up to %v, want 12", total)
	}
	for _, p := range s.Pairs {
		if p.Penta.N() != 2 || p.Unpaired != 0 {
			t.Errorf("pairing %s: %v pairs, %d unpaired", p.Pairing, p.Penta, p.Unpaired)
		}
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"league rr: bohnenspiel, profile comp424-2017, round-robin, 12 of 12 games played",
		"override move-limit: 700ms -> 2s", "RANK", "95% CI", "TIMEOUTS", "cross-table", "colour-swapped pairs", "random2"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("standings lack %q:\n%s", want, text.String())
		}
	}
	var csv, js bytes.Buffer
	if err := standings.WriteStandings(&csv, "csv", []*standings.Standings{s}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(csv.String(), "\n"); lines != 4 {
		t.Errorf("standings csv has %d lines:\n%s", lines, csv.String())
	}
	if err := standings.WriteStandings(&js, "json", []*standings.Standings{s}); err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || len(decoded) != 1 {
		t.Fatalf("standings json: %v\n%s", err, js.String())
	}
	games, err := st.Games(ctx, "rr")
	if err != nil {
		t.Fatal(err)
	}
	csv.Reset()
	if err := standings.WriteGames(&csv, "csv", games); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(csv.String(), "\n"); lines != 13 {
		t.Errorf("games csv has %d lines", lines)
	}
}

// A Go package directory is built on demand into the cache, once, and
// plays like any agent.
func TestGoPackageAgent(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	cache := t.TempDir()
	out := filepath.Join(t.TempDir(), "go")
	pkg, err := filepath.Abs("testdata/goagent")
	if err != nil {
		t.Fatal(err)
	}
	file := leaguefiletest.Write(t, "go.yaml", `
game: bohnenspiel
games_per_pairing: 2
output: `+out+`
cache_dir: `+cache+`
`+patientMoves+`
agents:
  - name: mine
    agent: `+pkg+`
  - name: random
    agent: random
`)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	if a := spec.Leagues[0].Agents[0]; a.Kind != leaguefile.KindGo || a.Launch != "" {
		t.Fatalf("agent before the build: %+v", a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var log bytes.Buffer
	if err := league.Prepare(ctx, spec, &log); err != nil {
		t.Fatal(err)
	}
	a := spec.Leagues[0].Agents[0]
	if !strings.HasPrefix(a.Launch, cache+string(filepath.Separator)) || !strings.HasPrefix(a.Hash, "sha256:") || !strings.Contains(log.String(), "building agent") || !strings.Contains(log.String(), "built agent "+pkg+" in ") {
		t.Fatalf("built agent %+v; log %q", a, log.String())
	}
	// Unchanged source: the cached binary, no build.
	spec2, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := league.Prepare(ctx, spec2, &log); err != nil {
		t.Fatal(err)
	}
	if b := spec2.Leagues[0].Agents[0]; b.Launch != a.Launch || b.Hash != a.Hash || log.Len() != 0 {
		t.Fatalf("second prepare: %+v, log %q", b, log.String())
	}
	if err := league.Run(ctx, spec2, league.RunOptions{Launch: testLauncher(), Slots: ownSlots(t, spec2)}); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "go")
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	for _, g := range games {
		seat := 0
		if g.Record.Agents[1].Name == "mine" {
			seat = 1
		}
		if ag := g.Record.Agents[seat]; ag.Ref != pkg || ag.Hash != a.Hash {
			t.Errorf("record agent %+v", ag)
		}
		if g.Record.Result.Forfeit != "" {
			t.Errorf("game %s forfeited: %+v", g.Record.ID, g.Record.Result)
		}
	}
}

// Penalties reach the standings by kind.
func TestPenaltiesInStandings(t *testing.T) {
	// Its own slots; its moves are not judged by the clock (patientMoves).
	t.Parallel()
	longRunning(t)
	out := filepath.Join(t.TempDir(), "pen")
	file := leaguefiletest.Write(t, "pen.yaml", `
game: bohnenspiel
games_per_pairing: 2
output: `+out+`
`+patientMoves+`
agents:
  - name: erring
    agent: erring
  - name: random
    agent: random
`)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: ownSlots(t, spec)}); err != nil {
		t.Fatal(err)
	}
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := standings.Report(ctx, st, "pen")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rows {
		want := 0
		if r.Agent == "erring" {
			want = 2 // one error per game, answered by a random move
		}
		if r.Crash != want || r.Penalties["error"] != want || r.Timeout != 0 || r.Illegal != 0 {
			t.Errorf("row %+v: want %d crashes", r, want)
		}
	}
}

// A records export that lags the store (a crash between a stored game and
// the export's rewrite) is brought up to date when the next run starts,
// before any game; the export is never left half-written.
func TestRecordsCaughtUpAtStart(t *testing.T) {
	t.Parallel() // its own league, store and processes; mostly waiting on them
	longRunning(t)
	out := filepath.Join(t.TempDir(), "rec")
	file := leaguefiletest.Write(t, "rec.yaml", "game: bohnenspiel\ngames_per_pairing: 4\noutput: "+out+"\n"+`
agents:
  - name: greedy
    agent: greedy
  - name: random
    agent: random
`)
	spec, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool := ownSlots(t, spec)
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, league.RecordsFile)
	full, err := os.ReadFile(path)
	if err != nil || bytes.Count(full, []byte("\n")) != 4 {
		t.Fatalf("records after the run: %v, %d lines", err, bytes.Count(full, []byte("\n")))
	}
	// The crash: the export holds one game of four.
	first, _, _ := bytes.Cut(full, []byte("\n"))
	if err := os.WriteFile(path, append(first, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	var atStart []byte
	err = league.Run(ctx, spec, league.RunOptions{Launch: testLauncher(), Slots: pool, OnStart: func(int, int) {
		atStart, _ = os.ReadFile(path)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(atStart, full) {
		t.Errorf("at the start of the next run the export has %d lines, want the store's 4", bytes.Count(atStart, []byte("\n")))
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".records.jsonl.tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
