// Package league runs leagues loaded by package leaguefile: round after
// round of what a league's format hands out, played in parallel through
// the referee (or on cluster workers, Remote), each finished game stored
// once, an interrupted league resumed where it stopped, submissions that
// change between runs replayed or refused.
package league

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"arena/arena/atomicfile"
	"arena/arena/entrants"
	"arena/arena/league/journal"
	"arena/arena/league/leaguefile"
	"arena/arena/league/live"
	"arena/arena/league/standings"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
	"arena/engine"
	"arena/plugins/host"
)

// RecordsFile is the league directory's export of every game record, one
// JSON object per line (docs/records.md), rewritten atomically when each run starts and ends.
const RecordsFile = "records.jsonl"

// RunOptions are what Run needs from its caller.
type RunOptions struct {
	// Launch starts agents (required); it receives each agent's launch
	// reference (absolute paths, built binaries).
	Launch referee.Launcher
	// Store holds the results; nil opens the SQLite store in the league
	// directory (and locks the directory against a second run).
	Store results.Store
	// Force continues a league whose configuration or agents changed.
	Force bool
	// ForceMixed also continues when stored games outside the new schedule
	// would be counted with the new ones (--force given twice).
	ForceMixed bool
	// OnEvent is told of each referee event (penalties, restarts) as it
	// happens, from the game's goroutine.
	OnEvent func(m *referee.Match, e record.Event)
	// Preflight checks the agents after Go agents are built and before any
	// game; an error refuses the run, except an *EntrantsRefusedError:
	// those submissions are left out (Reload).
	Preflight func(ctx context.Context, s *leaguefile.Spec) error
	// Reload loads the league again without the refused submissions (and
	// those it already left out), for the run to go on among the rest
	// (Options.Excluding); nil refuses the run instead.
	Reload func(refused []entrants.Refusal) (*leaguefile.Spec, error)
	// Log receives the run's notes: each league's setup and overrides,
	// builds, SPRT decisions. nil discards them.
	Log io.Writer
	// OnStart is called once with the games of the run and those already
	// played; OnGame after each stored game.
	OnStart func(total, done int)
	OnGame  func(Progress)
	// Slots are the CPU slots games under a wall-clock profile reserve,
	// one per agent, for the whole game; nil makes a pool of the spec's
	// Machine shared host-wide through slots.DefaultDir().
	Slots *slots.Pool
	// Sample reads the machine's load for the evidence of late moves
	// (default: slots.Now).
	Sample func() (slots.Sample, bool)
	// Runtime tells what runs each agent, for the profile's memory rule
	// (referee.Referee.Runtime; nil: every agent is native).
	Runtime func(p referee.Player) engine.Runtime
	// Remote, when set, plays the games instead of local agents
	// (league run --cluster).
	Remote Remote
	// ReplayLate deletes the stored games where a move was late with
	// evidence of contention (record.Evidence), so that the run plays them
	// again.
	ReplayLate bool
	// Warn receives warnings that do not stop the run (a busy machine);
	// nil writes them to Log.
	Warn func(msg string)
	// CommitEvery and CommitInterval batch the store's commits when the
	// runner opened the store itself: each finished game is appended and
	// fsynced to the directory's journal (JournalFile) first, and the store
	// commits a batch of this many games, or after this long with a game
	// waiting (defaults DefaultCommitEvery, DefaultCommitInterval). 1 makes
	// every game its own store commit, as with a Store given here.
	CommitEvery    int
	CommitInterval time.Duration
	// DryRun stops after saying what the run would add, replay and keep
	// (league run --dry-run): nothing is played or superseded.
	DryRun bool
	// NoReuse starts a fresh process for every agent of every game. By
	// default a worker keeps the processes of built-in and Lua agents
	// (Reusable) for its next game: each game starts with a fresh agent
	// state, and records name the process that played it
	// (record.Agent.Process).
	NoReuse bool
}

// Progress describes the run after one more finished game.
type Progress struct {
	League      string
	Done, Total int    // games over all leagues of the run
	Leader      string // e.g. "greedy 7.5/8"
	Game        *record.Game
	// Stopped is set when the league stopped early (SPRT decision) and
	// Total shrank accordingly.
	Stopped bool
}

// ChangedError refuses to resume a league whose configuration or agents
// differ from the stored ones.
type ChangedError struct {
	Dir     string
	Changes []string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("the league directory %s holds results of a different configuration:\n  %s\nrerun with --force to continue anyway (stored games are kept and counted), or use another output directory",
		e.Dir, strings.Join(e.Changes, "\n  "))
}

// Run plays every game of the spec's leagues that is not yet stored, in
// parallel up to each league's concurrency, storing each finished game at
// once. Interrupted (ctx cancelled, process killed), it loses only the
// games in progress; run again, it plays exactly the missing ones.
//
// Everything that can refuse the run — the directory lock, building Go
// agents, the pre-flight check, another league in the directory, a changed
// configuration — happens before OnStart; an error returned before OnStart
// was called means no game was played.
func Run(ctx context.Context, s *leaguefile.Spec, opt RunOptions) error {
	if opt.Launch == nil {
		return errors.New("league run: no agent launcher")
	}
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	if opt.Store == nil {
		// The lock comes first: a second run on the same directory is
		// refused before it builds, checks or prints anything.
		unlock, err := lockDir(s.Output)
		if err != nil {
			return err
		}
		defer unlock()
	}
	s, err := prepareAgents(ctx, s, opt, logw)
	if err != nil {
		return err
	}
	st, jnl, closeStore, err := openStore(ctx, s, opt, logw)
	if err != nil {
		return err
	}
	defer closeStore()
	if err := otherLeagues(ctx, st, s); err != nil {
		return err
	}
	rps := map[string]*replays{}
	for _, l := range s.Leagues {
		rps[l.Name] = newReplays(s.Config.MachineReplays)
	}
	if opt.ReplayLate {
		if err := dropContended(ctx, st, s, rps, logw); err != nil {
			return err
		}
	}
	plans, err := planLeagues(ctx, st, s)
	if err != nil {
		return err
	}
	// Entrants added or resubmitted since the stored run (submissions.go).
	if err := planVersions(ctx, st, s, plans, opt); err != nil {
		return err
	}
	if err := checkChanged(ctx, st, s, plans, opt, logw); err != nil {
		return err
	}
	announce(logw, plans)
	if opt.DryRun {
		return nil
	}
	if err := supersede(ctx, st, plans, logw); err != nil {
		return err
	}
	total, done, err := saveLeagues(ctx, st, plans)
	if err != nil {
		return err
	}
	if err := setupSlots(s, &opt, logw); err != nil {
		return err
	}
	if opt.OnStart != nil {
		opt.OnStart(total, done)
	}
	prog := &Progress{Done: done, Total: total}
	out := sinks{jnl: jnl}
	if opt.Store == nil && opt.Remote == nil {
		// Games in progress, for the viewer's live boards (a cluster's
		// games are played on its workers).
		if out.live, err = live.Open(s.Output); err != nil {
			return err
		}
	}
	var runErr error
	for _, p := range plans {
		describe(logw, p.l, p.total, p.kept, opt.Remote != nil)
		if err := runLeague(ctx, st, out, p, opt, logw, prog, rps[p.l.Name]); err != nil {
			runErr = err
			break
		}
	}
	// The records export is written even after an interruption: it holds
	// exactly the stored games.
	if opt.Store == nil {
		if err := writeRecordsFile(context.WithoutCancel(ctx), st, s); err != nil && runErr == nil {
			runErr = err
		}
	}
	return runErr
}

// openStore is the given store, or the league directory's SQLite store
// with the journal of a killed run replayed into it, a journal for this
// run's games and the records export brought up to date.
func openStore(ctx context.Context, s *leaguefile.Spec, opt RunOptions, logw io.Writer) (results.Store, *journal.Journal, func(), error) {
	if opt.Store != nil {
		return opt.Store, nil, func() {}, nil
	}
	db, err := resultsdb.OpenDir(ctx, s.Output)
	if err != nil {
		return nil, nil, nil, err
	}
	fail := func(err error) (results.Store, *journal.Journal, func(), error) {
		db.Close()
		return nil, nil, nil, err
	}
	// Games a killed run finished but had not committed to the store
	// are in the journal: they go in before anything is planned.
	n, err := journal.Replay(ctx, db, s.Output)
	if err != nil {
		return fail(err)
	}
	if n > 0 {
		fmt.Fprintf(logw, "%d finished game(s) recovered from %s\n", n, filepath.Join(s.Output, JournalFile))
	}
	var jnl *journal.Journal
	if opt.CommitEvery != 1 {
		if jnl, err = journal.Open(s.Output); err != nil {
			return fail(err)
		}
	}
	closeAll := func() {
		if jnl != nil {
			jnl.Close()
		}
		db.Close()
	}
	// Bring the records export up to date with the store first, so a
	// run that crashed before rewriting it leaves it behind no longer
	// than the next start.
	if err := writeRecordsFile(ctx, db, s); err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	return db, jnl, closeAll, nil
}

// plan is one league's state before the run.
type plan struct {
	l       *leaguefile.League
	batch   []results.Match      // the first round with a game missing
	pending []results.Match      // its missing games
	pts     map[string]float64   // stored match id -> the first seat's points (not of sched's games)
	sched   *staticSchedule      // a static format's schedule (nil: the format is walked)
	stored  int                  // games stored
	t       *tally               // the stored games' points, for the leader
	sprt    *standings.SPRTCount // the stored games' SPRT counts (format ab)
	missing int                  // games of the schedule not stored (pending lists them unless sched)
	kept    int                  // stored games the format has handed out
	extra   int                  // stored games outside the schedule
	total   int                  // games the league plays (as planned, for swiss and knockout)
	// versions are the entrants added and resubmitted since the stored
	// run, and the stored games the resubmissions replace.
	versions *versions
}

// planLeagues finds each league's stored games and what its format hands
// out next.
func planLeagues(ctx context.Context, st results.Store, s *leaguefile.Spec) ([]*plan, error) {
	var plans []*plan
	for _, l := range s.Leagues {
		p, err := planOf(ctx, st, l, nil)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// planOf is a league's plan given its stored games, leaving out those
// skip says a resubmission replaces (nil: none).
func planOf(ctx context.Context, st results.Store, l *leaguefile.League, skip func(results.Match) bool) (*plan, error) {
	p, err := planStored(ctx, st, l, skip)
	if err != nil {
		return nil, err
	}
	if p.sched != nil {
		// A static schedule is handed out a window at a time.
		p.kept = p.sched.count()
		p.missing = p.sched.left
		p.batch = p.sched.window(scheduleWindow)
		p.pending = p.batch
	} else {
		res, batch, err := l.Walk(p.pts)
		if err != nil {
			return nil, err
		}
		p.batch, p.pending = batch, missing(batch, p.pts)
		p.kept = len(res) + len(batch) - len(p.pending)
		p.missing = len(p.pending)
	}
	p.extra = p.stored - p.kept
	p.total = max(l.Tournament.Planned(), p.kept+p.missing)
	return p, nil
}

// planStored counts a league's stored games in one pass, a record at a
// time: which are stored (a bit per game of a static schedule, points by
// match id otherwise), the tally and the SPRT; games skip names are left
// out.
func planStored(ctx context.Context, st results.Store, l *leaguefile.League, skip func(results.Match) bool) (*plan, error) {
	p := &plan{l: l, pts: map[string]float64{}, sched: newStaticSchedule(l), t: newTally(l), sprt: standings.NewSPRTCount(l.Agents[0].Name)}
	err := results.EachGame(ctx, st, l.Name, func(g results.Game) error {
		if skip != nil && skip(g.Match) {
			return nil
		}
		p.stored++
		if p.sched == nil || !p.sched.mark(g.Match) {
			p.pts[g.Match.ID] = g.Record.Outcome(0)
		}
		p.t.add(g.Record)
		if l.Format == leaguefile.AB {
			p.sprt.Add(g.Match, g.Record)
		}
		return nil
	})
	return p, err
}

// checkChanged refuses a changed configuration before touching anything;
// with --force, it says exactly what is kept and what is played, and
// refuses again (unless forced twice) when old and new games would mix.
func checkChanged(ctx context.Context, st results.Store, s *leaguefile.Spec, plans []*plan, opt RunOptions, logw io.Writer) error {
	var changes, plansText []string
	mixed := false
	for _, p := range plans {
		c, err := changed(ctx, st, p.l, p.versions)
		if err != nil {
			return err
		}
		if len(c) == 0 {
			continue
		}
		changes = append(changes, c...)
		line := fmt.Sprintf("league %s: keeps %d stored game(s) of the new schedule, plays %d missing game(s)", p.l.Name, p.kept, p.missing)
		if p.extra > 0 {
			mixed = true
			line += fmt.Sprintf("; %d stored game(s) are not in the new schedule and stay in the standings, mixed with the new games", p.extra)
		}
		plansText = append(plansText, line)
	}
	if len(changes) == 0 {
		return nil
	}
	if !opt.Force {
		return &ChangedError{Dir: s.Output, Changes: changes}
	}
	if mixed && !opt.ForceMixed {
		return &MixedError{Dir: s.Output, Changes: changes, Plan: plansText}
	}
	fmt.Fprintf(logw, "--force: continuing despite:\n  %s\n  %s\n", strings.Join(changes, "\n  "), strings.Join(plansText, "\n  "))
	return nil
}

// saveLeague stores a league's row, agents and the matches handed out.
func saveLeague(ctx context.Context, st results.Store, l *leaguefile.League, matches []results.Match) error {
	return st.SaveLeague(ctx, results.League{
		Name: l.Name, Game: l.Game.Info().Name, Params: l.Params, Profile: l.Profile.Name,
		Overrides: overrideStrings(l), Format: l.Format, ConfigHash: l.Hash, Config: l.Config,
	}, storeAgents(l), matches)
}

// saveLeagues stores every league with its first matches, and counts the
// run's games: all, and those already played. An ab league whose SPRT
// has decided plays nothing more.
func saveLeagues(ctx context.Context, st results.Store, plans []*plan) (total, done int, err error) {
	for _, p := range plans {
		if err := saveLeague(ctx, st, p.l, p.batch); err != nil {
			return 0, 0, err
		}
		if p.l.Format == leaguefile.AB && len(p.pending) > 0 {
			if _, _, _, _, d := p.sprt.Test(p.l.SPRT); d != ratings.Continue {
				p.pending, p.missing = nil, 0
			}
		}
		if p.l.Format == leaguefile.AB {
			p.total = p.kept + p.missing
		}
		total += p.total
		done += p.kept
	}
	return total, done, nil
}

// setupSlots makes the CPU slots pool and the warning sink of a local run.
func setupSlots(s *leaguefile.Spec, opt *RunOptions, logw io.Writer) error {
	if opt.Slots == nil && opt.Remote == nil && wallClock(s) {
		pool, err := slots.New(slots.DefaultDir(), s.Machine)
		if err != nil {
			return err
		}
		opt.Slots = pool
	}
	if opt.Warn == nil {
		opt.Warn = func(msg string) { fmt.Fprintln(logw, "warning:", msg) }
	}
	if opt.Slots != nil && opt.Remote == nil {
		warnSlots(opt.Slots, s.Machine, opt.Warn)
	}
	return nil
}

// MixedError refuses a forced resume that would count games of the old
// schedule together with games of the new one, until forced twice.
type MixedError struct {
	Dir     string
	Changes []string
	Plan    []string
}

func (e *MixedError) Error() string {
	return fmt.Sprintf("the league directory %s holds results of a different configuration:\n  %s\nwith --force the run would do this:\n  %s\nrerun with --force --force to mix them, or use another output directory (--output)",
		e.Dir, strings.Join(e.Changes, "\n  "), strings.Join(e.Plan, "\n  "))
}

// otherLeagues refuses a directory that holds another league's results
// (a league file run with another --name, or two files naming the same
// output), unless the directory was named on purpose on the command line
// or in the environment.
func otherLeagues(ctx context.Context, st results.Store, s *leaguefile.Spec) error {
	if s.OutputExplicit {
		return nil
	}
	stored, err := st.Leagues(ctx)
	if err != nil {
		return err
	}
	var others []string
	for _, l := range stored {
		base, _, _ := strings.Cut(l.Name, "/")
		if base != s.Config.Name {
			others = append(others, l.Name)
		}
	}
	if len(others) == 0 {
		return nil
	}
	return fmt.Errorf("the league directory %s holds league %s, not %s: one directory keeps one league's results; give --output DIR for a directory of its own (or --output %s to share this one on purpose)",
		s.Output, strings.Join(others, ", "), s.Config.Name, s.Output)
}

func overrideStrings(l *leaguefile.League) []string {
	out := make([]string, 0, len(l.Overrides))
	for _, o := range l.Overrides {
		out = append(out, o.String())
	}
	return out
}

func storeAgents(l *leaguefile.League) []results.Agent {
	out := make([]results.Agent, len(l.Agents))
	for i, a := range l.Agents {
		out[i] = results.Agent{Name: a.Name, Ref: a.Ref, Hash: a.Hash, Options: a.Options}
	}
	return out
}

// changed compares a league with its stored version.
func changed(ctx context.Context, st results.Store, l *leaguefile.League, v *versions) ([]string, error) {
	stored, agents, err := st.League(ctx, l.Name)
	if errors.Is(err, results.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if stored.ConfigHash != l.Hash && !v.explains(stored.Config, l.Config) {
		out = append(out, fmt.Sprintf("league %s: configuration changed (%s)", l.Name, configDiff(stored.Config, l.Config)))
	}
	for _, a := range l.Agents {
		for _, sa := range agents {
			if sa.Name == a.Name && sa.Hash != a.Hash && !v.resubmitted(a.Name) {
				out = append(out, fmt.Sprintf("league %s: agent %s (%s) changed: content hash %s, was %s", l.Name, a.Name, a.Ref, leaguefile.ShortHash(a.Hash), leaguefile.ShortHash(sa.Hash)))
			}
		}
	}
	return out, nil
}

// configDiff names the top-level keys whose values differ.
func configDiff(old, new string) string {
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(old), &a) != nil || json.Unmarshal([]byte(new), &b) != nil {
		return "stored configuration unreadable"
	}
	var diffs []string
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for k := range keys {
		if string(a[k]) != string(b[k]) {
			was, now := string(a[k]), string(b[k])
			if was == "" {
				was = "unset"
			}
			if now == "" {
				now = "unset"
			}
			if len(was)+len(now) > 120 {
				diffs = append(diffs, k)
			} else {
				diffs = append(diffs, fmt.Sprintf("%s: %s -> %s", k, was, now))
			}
		}
	}
	sort.Strings(diffs)
	if len(diffs) == 0 {
		return "same settings, different encoding"
	}
	return strings.Join(diffs, "; ")
}

// describe prints a league's setup; overrides are always shown.
func describe(w io.Writer, l *leaguefile.League, total, done int, remote bool) {
	fmt.Fprintf(w, "league %s: %s under profile %s", l.Name, l.Game.Info().Name, l.Profile.Name)
	if len(l.Params) > 0 {
		fmt.Fprintf(w, ", params %s", l.Params)
	}
	if remote {
		fmt.Fprintf(w, ", %s, %d agents, %d games (%d already played), on cluster workers (each with its own CPU slots)\n",
			l.FormatName(), len(l.Agents), total, done)
	} else {
		fmt.Fprintf(w, ", %s, %d agents, %d games (%d already played), %d at a time (%s)\n",
			l.FormatName(), len(l.Agents), total, done, l.Concurrency, l.ConcurrencyWhy)
	}
	for _, o := range l.Overrides {
		fmt.Fprintf(w, "  override %s\n", o)
	}
	if line := l.Openings.Line(); line != "" {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if l.Format == leaguefile.AB {
		fmt.Fprintf(w, "  SPRT %s vs %s: elo0=%g elo1=%g alpha=%g beta=%g, %s, at most %d games\n",
			l.Agents[0].Name, l.Agents[1].Name, l.SPRT.Elo0, l.SPRT.Elo1, l.SPRT.Alpha, l.SPRT.Beta, l.SPRT.Model, total)
	}
}

// tally keeps points per agent for the progress line's leader.
type tally struct {
	points map[string]float64
	games  map[string]int
	order  []string
}

func newTally(l *leaguefile.League) *tally {
	t := &tally{points: map[string]float64{}, games: map[string]int{}}
	for _, a := range l.Agents {
		t.order = append(t.order, a.Name)
	}
	return t
}

func (t *tally) add(rec *record.Game) {
	for seat := range 2 {
		n := rec.Agents[seat].Name
		t.points[n] += rec.Outcome(seat)
		t.games[n]++
	}
}

func (t *tally) leader() string {
	best := ""
	for _, n := range t.order {
		if t.games[n] == 0 {
			continue
		}
		if best == "" || t.points[n]/float64(t.games[n]) > t.points[best]/float64(t.games[best]) {
			best = n
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("%s %s/%d", best, standings.Points(t.points[best]), t.games[best])
}

// Remote plays a league's matches elsewhere (arena/cluster). The runner
// stays the only writer of the store: it stores each result, then calls
// the commit Play returned.
type Remote interface {
	// Begin is told the league about to be played and the matches the
	// store already holds, before any Play.
	Begin(ctx context.Context, l *leaguefile.League, stored map[string]bool) error
	// Play has the match played and returns its record.
	Play(ctx context.Context, l *leaguefile.League, m results.Match) (rec *record.Game, commit func() error, err error)
}

// Windowed is a Remote that says how many of its games may be in flight
// at once.
type Windowed interface {
	Window() int
}

// defaultRemoteWindow bounds the games in flight on a Remote that does
// not say.
const defaultRemoteWindow = 256

// PlayPinned referees one game. Under a wall-clock profile, with a pool,
// it first holds a slot per agent for the whole game and pins each agent
// to its own. pinned, if not nil, says where an agent's kept process is
// pinned now (nil: nowhere, or none is kept); the seats' CPUs are then
// swapped when that leaves more kept processes where they are.
func PlayPinned(ctx context.Context, pool *slots.Pool, ref referee.Referee, m referee.Match, pinned func(name string) []int) (*record.Game, error) {
	if pool == nil || m.Profile.Time != engine.PerMove {
		return ref.Play(ctx, m)
	}
	lease, err := pool.Acquire(ctx, min(2, pool.Size()))
	if err != nil {
		return nil, err
	}
	defer lease.Release()
	c := lease.CPUs()
	seats := seatCPUs(c, [2]string{m.Players[0].Name, m.Players[1].Name}, pinned)
	cpus := map[string][]int{}
	for seat, p := range m.Players {
		cpus[p.Name] = seats[seat]
	}
	if m.Players[0].Name == m.Players[1].Name {
		// An agent playing itself: both copies share the pair.
		cpus[m.Players[0].Name] = c
	}
	launch := ref.Launch
	ref.Launch = func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		o.CPUs = cpus[p.Name]
		return launch(ctx, p, o)
	}
	return ref.Play(ctx, m)
}

// seatCPUs gives each seat one CPU of c: seat i the i-th, or, when that
// moves more kept processes (pinned) than the swap does, the other. Moving
// a kept process costs a walk over its threads and leaves its caches
// behind, and a round robin swaps seats every game.
func seatCPUs(c []int, names [2]string, pinned func(string) []int) [2][]int {
	at := func(seat int) []int { return []int{c[seat%len(c)]} }
	seats := [2][]int{at(0), at(1)}
	if pinned == nil || len(c) < 2 {
		return seats
	}
	stay := func(s [2][]int) int {
		n := 0
		for i, name := range names {
			if slices.Equal(pinned(name), s[i]) {
				n++
			}
		}
		return n
	}
	if swapped := [2][]int{at(1), at(0)}; stay(swapped) > stay(seats) {
		return swapped
	}
	return seats
}

// gameDeleter is a store that can remove games (resultsdb.SQLite).
type gameDeleter interface {
	DeleteGames(ctx context.Context, league string, ids []string) (int, error)
}

// dropContended deletes the games with a verdict the machine caused,
// noting each in its league's replays so that the new play's record lists
// the deleted one.
func dropContended(ctx context.Context, st results.Store, s *leaguefile.Spec, rps map[string]*replays, logw io.Writer) error {
	del, ok := st.(gameDeleter)
	if !ok {
		return errors.New("replay-late: the results store cannot delete games")
	}
	for _, l := range s.Leagues {
		var ids []string
		err := results.EachGame(ctx, st, l.Name, func(g results.Game) error {
			if why := g.Record.MachineCaused(); why != "" {
				ids = append(ids, g.Match.ID)
				rps[l.Name].dropped(g, "league replay-late: "+why)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			fmt.Fprintf(logw, "league %s: no game has a late move marked possibly contention\n", l.Name)
			continue
		}
		n, err := del.DeleteGames(ctx, l.Name, ids)
		if err != nil {
			return fmt.Errorf("league %s: %w", l.Name, err)
		}
		fmt.Fprintf(logw, "league %s: replaying %d game(s) with a late move marked possibly contention: %s\n", l.Name, n, strings.Join(ids, ", "))
	}
	return nil
}

// wallClock reports whether any league of s times moves by the wall clock.
func wallClock(s *leaguefile.Spec) bool {
	for _, l := range s.Leagues {
		if l.Profile.Time == engine.PerMove {
			return true
		}
	}
	return false
}

// warnSlots warns when agents cannot have a core each, or when the
// machine is already busier than the slots left free: moves timed by the
// wall clock may then be late through no fault of the agents.
func warnSlots(pool *slots.Pool, m slots.Machine, warn func(string)) {
	if pool.Size() < 2 {
		warn(fmt.Sprintf("one CPU slot only (%s): both agents of a game share it, and a move timed by the wall clock may wait for the opponent's", m.Why))
	}
	free := pool.Free()
	smp, ok := slots.Now()
	if !ok {
		return
	}
	if busy(smp, free) {
		warn(fmt.Sprintf("the machine is busy: load average %.2f, %d task(s) running, over the %d free CPU slot(s) of %d; a move timed by the wall clock may be late while waiting for a core, and such moves are marked \"possibly contention\" (arena league replay-late replays their games)",
			smp.Load, smp.Runnable, free, pool.Size()))
	}
}

// busy reports whether the machine has more work than free slots: by the
// one-minute load average, which lags behind a machine that just got
// busy, or by the tasks running now, which do not.
func busy(smp slots.Sample, free int) bool {
	return smp.Load > float64(free) || smp.Runnable > free
}

// orDefault is v, or def when v is not positive (unset).
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// lockDir takes an exclusive lock on a league directory, so two runs never
// play the same games at once. The kernel drops the lock when the process
// dies, however it dies.
func lockDir(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("league directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("league directory %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("league directory %s is in use by another arena league run", dir)
		}
		return nil, fmt.Errorf("league directory %s: lock: %w", dir, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// writeRecordsFile rewrites the directory's records export atomically.
func writeRecordsFile(ctx context.Context, st results.Store, s *leaguefile.Spec) error {
	leagues, err := st.Leagues(ctx)
	if err != nil {
		return err
	}
	var names []string
	for _, l := range leagues {
		names = append(names, l.Name)
	}
	err = atomicfile.Write(filepath.Join(s.Output, RecordsFile), func(w io.Writer) error {
		return standings.WriteRecords(ctx, st, names, w)
	})
	if err != nil {
		return fmt.Errorf("records export: %w", err)
	}
	return nil
}

// JournalFile is the league directory's write-ahead log of finished games
// (package journal says how durable it is).
const JournalFile = journal.File

// Batch defaults: a store commit per this many games, or after this long
// with a game waiting, whichever comes first.
const (
	DefaultCommitEvery    = journal.DefaultCommitEvery
	DefaultCommitInterval = journal.DefaultCommitInterval
)
