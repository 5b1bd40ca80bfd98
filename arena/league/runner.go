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
	"sync"
	"syscall"
	"time"

	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/results"
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
	// game; an error refuses the run.
	Preflight func(ctx context.Context, s *Spec) error
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
func Run(ctx context.Context, s *Spec, opt RunOptions) error {
	if opt.Launch == nil {
		return errors.New("league run: no agent launcher")
	}
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	st := opt.Store
	if st == nil {
		// The lock comes first: a second run on the same directory is
		// refused before it builds, checks or prints anything.
		unlock, err := lockDir(s.Output)
		if err != nil {
			return err
		}
		defer unlock()
	}
	if err := Prepare(ctx, s, logw); err != nil {
		return err
	}
	if opt.Preflight != nil {
		if err := opt.Preflight(ctx, s); err != nil {
			return err
		}
	}
	var jnl *journal
	if st == nil {
		db, err := results.OpenDir(ctx, s.Output)
		if err != nil {
			return err
		}
		defer db.Close()
		st = db
		// Games a killed run finished but had not committed to the store
		// are in the journal: they go in before anything is planned.
		n, err := replayJournal(ctx, st, s.Output)
		if err != nil {
			return err
		}
		if n > 0 {
			fmt.Fprintf(logw, "%d finished game(s) recovered from %s\n", n, filepath.Join(s.Output, JournalFile))
		}
		if opt.CommitEvery != 1 {
			j, err := openJournal(s.Output)
			if err != nil {
				return err
			}
			defer j.close()
			jnl = j
		}
		// Bring the records export up to date with the store first, so a
		// run that crashed before rewriting it leaves it behind no longer
		// than the next start.
		if err := writeRecordsFile(ctx, st, s); err != nil {
			return err
		}
	}
	if err := otherLeagues(ctx, st, s); err != nil {
		return err
	}
	if opt.ReplayLate {
		if err := dropContended(ctx, st, s, logw); err != nil {
			return err
		}
	}

	type plan struct {
		l       *League
		sched   []results.Match
		pending []results.Match
		games   []results.Game // stored, for the tally and the SPRT
		kept    int            // stored games of the schedule
		extra   int            // stored games outside the schedule
	}
	var plans []*plan
	for _, l := range s.Leagues {
		p := &plan{l: l, sched: l.Schedule()}
		games, err := st.Games(ctx, l.Name)
		if err != nil {
			return err
		}
		inSched := map[string]bool{}
		for _, m := range p.sched {
			inSched[m.ID] = true
		}
		have := map[string]bool{}
		for _, g := range games {
			if inSched[g.Match.ID] {
				have[g.Match.ID] = true
			} else {
				p.extra++
			}
		}
		p.kept = len(have)
		p.games = games
		for _, m := range p.sched {
			if !have[m.ID] {
				p.pending = append(p.pending, m)
			}
		}
		plans = append(plans, p)
	}

	// Refuse a changed configuration before touching anything; with
	// --force, say exactly what is kept and what is played, and refuse
	// again (unless forced twice) when old and new games would mix.
	var changes, plansText []string
	mixed := false
	for _, p := range plans {
		c, err := changed(ctx, st, p.l)
		if err != nil {
			return err
		}
		if len(c) == 0 {
			continue
		}
		changes = append(changes, c...)
		line := fmt.Sprintf("league %s: keeps %d stored game(s) of the new schedule, plays %d missing game(s)", p.l.Name, p.kept, len(p.pending))
		if p.extra > 0 {
			mixed = true
			line += fmt.Sprintf("; %d stored game(s) are not in the new schedule and stay in the standings, mixed with the new games", p.extra)
		}
		plansText = append(plansText, line)
	}
	if len(changes) > 0 {
		if !opt.Force {
			return &ChangedError{Dir: s.Output, Changes: changes}
		}
		if mixed && !opt.ForceMixed {
			return &MixedError{Dir: s.Output, Changes: changes, Plan: plansText}
		}
		fmt.Fprintf(logw, "--force: continuing despite:\n  %s\n  %s\n", strings.Join(changes, "\n  "), strings.Join(plansText, "\n  "))
	}

	total, done := 0, 0
	for _, p := range plans {
		l := p.l
		if err := st.SaveLeague(ctx, results.League{
			Name: l.Name, Game: l.Game.Info().Name, Params: l.Params, Profile: l.Profile.Name,
			Overrides: overrideStrings(l), Format: l.Format, ConfigHash: l.Hash, Config: l.Config,
		}, storeAgents(l), p.sched); err != nil {
			return err
		}
		if l.Format == AB && len(p.pending) > 0 {
			if _, _, _, _, d := sprtOf(l.SPRT, l.Agents[0].Name, p.games); d != ratings.Continue {
				p.pending = nil
			}
		}
		total += p.kept + len(p.pending)
		done += p.kept
	}
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
	if opt.OnStart != nil {
		opt.OnStart(total, done)
	}
	prog := &Progress{Done: done, Total: total}
	var runErr error
	for _, p := range plans {
		describe(logw, p.l, len(p.sched), len(p.sched)-len(p.pending), opt.Remote != nil)
		if err := runLeague(ctx, st, jnl, p.l, p.pending, p.games, opt, logw, prog); err != nil {
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
func otherLeagues(ctx context.Context, st results.Store, s *Spec) error {
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

func overrideStrings(l *League) []string {
	out := make([]string, 0, len(l.Overrides))
	for _, o := range l.Overrides {
		out = append(out, o.String())
	}
	return out
}

func storeAgents(l *League) []results.Agent {
	out := make([]results.Agent, len(l.Agents))
	for i, a := range l.Agents {
		out[i] = results.Agent{Name: a.Name, Ref: a.Ref, Hash: a.Hash, Options: a.Options}
	}
	return out
}

// changed compares a league with its stored version.
func changed(ctx context.Context, st results.Store, l *League) ([]string, error) {
	stored, agents, err := st.League(ctx, l.Name)
	if errors.Is(err, results.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	if stored.ConfigHash != l.Hash {
		out = append(out, fmt.Sprintf("league %s: configuration changed (%s)", l.Name, configDiff(stored.Config, l.Config)))
	}
	for _, a := range l.Agents {
		for _, sa := range agents {
			if sa.Name == a.Name && sa.Hash != a.Hash {
				out = append(out, fmt.Sprintf("league %s: agent %s (%s) changed: content hash %s, was %s", l.Name, a.Name, a.Ref, short(a.Hash), short(sa.Hash)))
			}
		}
	}
	return out, nil
}

func short(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if h == "" {
		return "none"
	}
	if len(h) > 12 {
		h = h[:12]
	}
	return h
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
func describe(w io.Writer, l *League, total, done int, remote bool) {
	fmt.Fprintf(w, "league %s: %s under profile %s", l.Name, l.Game.Info().Name, l.Profile.Name)
	if len(l.Params) > 0 {
		fmt.Fprintf(w, ", params %s", l.Params)
	}
	if remote {
		fmt.Fprintf(w, ", %s, %d agents, %d games (%d already played), on cluster workers (each with its own CPU slots)\n",
			l.Format, len(l.Agents), total, done)
	} else {
		fmt.Fprintf(w, ", %s, %d agents, %d games (%d already played), %d at a time (%s)\n",
			l.Format, len(l.Agents), total, done, l.Concurrency, l.ConcurrencyWhy)
	}
	for _, o := range l.Overrides {
		fmt.Fprintf(w, "  override %s\n", o)
	}
	if l.Format == AB {
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

func newTally(l *League) *tally {
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
	return fmt.Sprintf("%s %s/%d", best, fmtPoints(t.points[best]), t.games[best])
}

// runLeague plays one league's pending games.
func runLeague(ctx context.Context, st results.Store, jnl *journal, l *League, pending []results.Match, stored []results.Game, opt RunOptions, logw io.Writer, prog *Progress) error {
	prog.League = l.Name
	t := newTally(l)
	var ab []results.Game // light copies for the SPRT
	for _, g := range stored {
		t.add(g.Record)
		ab = append(ab, results.Game{Match: g.Match, Record: &record.Game{Agents: g.Record.Agents, Result: g.Record.Result}})
	}
	if len(pending) == 0 {
		if l.Format == AB {
			pairs, llr, lo, hi, d := sprtOf(l.SPRT, l.Agents[0].Name, ab)
			fmt.Fprintf(logw, "  SPRT already decided: %s (LLR %.2f, bounds [%.2f, %.2f], %d pairs)\n", d, llr, lo, hi, pairs)
		}
		return nil
	}
	launch := map[string]string{}
	players := map[string]referee.Player{}
	reusable := map[string]bool{}
	for _, a := range l.Agents {
		launch[a.Name] = a.Launch
		players[a.Name] = referee.Player{Name: a.Name, Ref: a.Ref, Options: a.Options, Hash: a.Hash}
		reusable[a.Name] = !opt.NoReuse && Reusable(a, l.Profile.ProcessRule())
	}
	direct := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		// Records keep the reference as written; the launcher gets the
		// resolved one.
		p.Ref = launch[p.Name]
		return opt.Launch(ctx, p, o)
	}
	slotPool := opt.Slots
	if l.Profile.Time != engine.PerMove {
		slotPool = nil
	}
	// Each worker has its own referee and pool of kept processes.
	newWorker := func() (*referee.Referee, *pool) {
		pl := newPool(direct)
		return &referee.Referee{Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
			if reusable[p.Name] {
				return pl.get(ctx, p, o)
			}
			return direct(ctx, p, o)
		}, OnEvent: opt.OnEvent, Sample: opt.Sample}, pl
	}
	play := func(ctx context.Context, ref *referee.Referee, pl *pool, m referee.Match, sm results.Match) (*record.Game, func() error, error) {
		if opt.Remote != nil {
			return opt.Remote.Play(ctx, l, sm)
		}
		rec, err := PlayPinned(ctx, slotPool, *ref, m, pl.pinned)
		return rec, nil, err
	}
	if opt.Remote != nil {
		have := map[string]bool{}
		for _, g := range stored {
			have[g.Match.ID] = true
		}
		if err := opt.Remote.Begin(ctx, l, have); err != nil {
			return err
		}
	}

	// The SPRT's decision cancels the games in progress: the test has used
	// exactly the games stored, and a game cut short is never stored.
	lctx, decide := context.WithCancel(ctx)
	defer decide()
	type outcome struct {
		m      results.Match
		rec    *record.Game
		commit func() error // acknowledges a remote result once stored
		err    error
	}
	jobs := make(chan results.Match)
	outs := make(chan outcome)
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	var wg sync.WaitGroup
	workers := max(1, l.Concurrency)
	if opt.Remote != nil {
		// Remote workers bring their own slots: the pending matches are
		// handed out a window at a time (the remote's memory grows with
		// the window, not the league), and the workers take them as they
		// can.
		window := defaultRemoteWindow
		if w, ok := opt.Remote.(Windowed); ok && w.Window() > 0 {
			window = w.Window()
		}
		workers = max(1, min(len(pending), window))
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref, pl := newWorker()
			defer pl.close()
			for m := range jobs {
				rec, commit, err := play(lctx, ref, pl, referee.Match{
					ID: m.ID, Game: l.Game, Params: l.Params, Profile: l.Profile.Clone(), Overrides: l.Overrides,
					Players: [2]referee.Player{players[m.Seats[0]], players[m.Seats[1]]}, Seed: m.Seed,
				}, m)
				if rec != nil {
					for seat := range 2 {
						rec.Agents[seat].Process = pl.process(m.Seats[seat])
					}
				}
				pl.endGame()
				outs <- outcome{m, rec, commit, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, m := range pending {
			select {
			case <-stop:
				return
			case <-lctx.Done():
				return
			default:
			}
			select {
			case jobs <- m:
			case <-stop:
				return
			case <-lctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(outs) }()

	var firstErr error
	out := &sink{st: st, j: jnl, league: l.Name, every: orDefault(opt.CommitEvery, DefaultCommitEvery), interval: orDefault(opt.CommitInterval, DefaultCommitInterval)}
	decided := false
	finished := 0
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		var o outcome
		if d := out.due(); d > 0 {
			timer.Reset(d)
		} else {
			timer.Stop()
		}
		select {
		case next, ok := <-outs:
			if !ok {
				goto drained
			}
			o = next
		case <-timer.C:
			if err := out.flush(context.WithoutCancel(ctx)); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				halt()
			}
			continue
		}
		if o.err != nil {
			if firstErr == nil && lctx.Err() == nil {
				firstErr = fmt.Errorf("league %s: match %s: %w", l.Name, o.m.ID, o.err)
			}
			halt()
			if opt.Remote != nil {
				// Remote games wait for results that may never come (a
				// refused agent copy): stop waiting. Their jobs stay in
				// the stream for the next run.
				decide()
			}
			continue
		}
		if decided {
			// Finished in the moment the SPRT decided: the test stands on
			// the games before it, and the league holds exactly those.
			continue
		}
		// A finished game is stored even when the run is being
		// interrupted: it is complete, and replaying it would waste it.
		added, err := out.add(context.WithoutCancel(ctx), o.rec)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("league %s: %w", l.Name, err)
			}
			halt()
			continue
		}
		// A remote result is acknowledged only once stored: a coordinator
		// that dies in between gets it again and finds it stored.
		if o.commit != nil {
			if err := o.commit(); err != nil && firstErr == nil && lctx.Err() == nil {
				firstErr = fmt.Errorf("league %s: match %s: acknowledge result: %w", l.Name, o.m.ID, err)
			}
		}
		finished++
		if !added {
			continue
		}

		t.add(o.rec)
		prog.Done++
		prog.Game = o.rec
		prog.Leader = t.leader()
		prog.Stopped = false
		if l.Format == AB && !decided {
			ab = append(ab, results.Game{Match: o.m, Record: &record.Game{Agents: o.rec.Agents, Result: o.rec.Result}})
			pairs, llr, lo, hi, d := sprtOf(l.SPRT, l.Agents[0].Name, ab)
			if d != ratings.Continue {
				decided = true
				halt()
				decide()
				unplayed := len(pending) - finished
				prog.Total -= unplayed
				prog.Stopped = true
				fmt.Fprintf(logw, "\nSPRT decided: %s (LLR %.2f, bounds [%.2f, %.2f], %d pairs); the other %d game(s) are not played\n",
					d, llr, lo, hi, pairs, unplayed)
			}
		}
		if opt.OnGame != nil {
			opt.OnGame(*prog)
		}
	}
drained:
	// Whatever ended the run, the games journaled so far go to the store
	// (were this to fail, the next run would replay them).
	if err := out.flush(context.WithoutCancel(ctx)); err != nil && firstErr == nil {
		firstErr = err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return firstErr
}

// Remote plays a league's matches elsewhere (arena/cluster). The runner
// stays the only writer of the store: it stores each result, then calls
// the commit Play returned.
type Remote interface {
	// Begin is told the league about to be played and the matches the
	// store already holds, before any Play.
	Begin(ctx context.Context, l *League, stored map[string]bool) error
	// Play has the match played and returns its record.
	Play(ctx context.Context, l *League, m results.Match) (rec *record.Game, commit func() error, err error)
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

// gameDeleter is a store that can remove games (results.SQLite).
type gameDeleter interface {
	DeleteGames(ctx context.Context, league string, ids []string) (int, error)
}

// dropContended deletes the games with a move marked possibly contention.
func dropContended(ctx context.Context, st results.Store, s *Spec, logw io.Writer) error {
	del, ok := st.(gameDeleter)
	if !ok {
		return errors.New("replay-late: the results store cannot delete games")
	}
	for _, l := range s.Leagues {
		games, err := st.Games(ctx, l.Name)
		if err != nil {
			return err
		}
		var ids []string
		for _, g := range games {
			if g.Record.Contention(0)+g.Record.Contention(1) > 0 {
				ids = append(ids, g.Match.ID)
			}
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
func wallClock(s *Spec) bool {
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
func writeRecordsFile(ctx context.Context, st results.Store, s *Spec) error {
	leagues, err := st.Leagues(ctx)
	if err != nil {
		return err
	}
	var names []string
	for _, l := range leagues {
		names = append(names, l.Name)
	}
	err = WriteFileAtomic(filepath.Join(s.Output, RecordsFile), func(w io.Writer) error {
		return WriteRecords(ctx, st, names, w)
	})
	if err != nil {
		return fmt.Errorf("records export: %w", err)
	}
	return nil
}

// WriteFileAtomic writes path through a temporary file in the same
// directory: written, fsynced, renamed over path, and the directory
// fsynced. A kill or a power loss at any moment leaves either the old
// file or the complete new one, never a truncated one.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	// CreateTemp makes the file 0600; an export is meant to be read.
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	// The rename is durable only once the directory is synced.
	if d, err := os.Open(dir); err == nil {
		err = d.Sync()
		d.Close()
		if err != nil {
			return fmt.Errorf("sync %s: %w", dir, err)
		}
	}
	return nil
}
