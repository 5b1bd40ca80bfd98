package league

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"arena/arena/league/journal"
	"arena/arena/league/leaguefile"
	"arena/arena/league/live"
	"arena/arena/league/procpool"
	"arena/arena/league/standings"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/results"
	"arena/arena/slots"
	"arena/engine"
	"arena/plugins/host"
)

// sinks are where a run's games go besides the store: the journal of
// finished games, and the live files of games in progress (nil when the
// run has no directory of its own, or its games are played elsewhere).
type sinks struct {
	jnl  *journal.Journal
	live *live.Writer
}

// leagueRun is one league being played: round after round of what its
// format hands out, until the format is over or the SPRT decides.
type leagueRun struct {
	st results.Store
	sinks
	l    *leaguefile.League
	opt  RunOptions
	logw io.Writer
	prog *Progress
	t    *tally
	ab   *standings.SPRTCount // the SPRT's counts (format ab)
	pts  map[string]float64   // stored match id -> the first seat's points
	// sched is a static format's schedule, handed out a window at a time
	// (nil: the format is walked over pts).
	sched *staticSchedule
	// decided is set once the SPRT has decided.
	decided bool
	// rp withholds the plays whose verdict the machine caused.
	rp *replays
}

// outcome is one game's end as a worker saw it.
type outcome struct {
	m      results.Match
	rec    *record.Game
	commit func() error // acknowledges a remote result once stored
	err    error
}

// runLeague plays a league's missing games, round after round.
func runLeague(ctx context.Context, st results.Store, out sinks, p *plan, opt RunOptions, logw io.Writer, prog *Progress, rp *replays) error {
	l := p.l
	prog.League = l.Name
	r := &leagueRun{st: st, sinks: out, l: l, opt: opt, logw: logw, prog: prog, t: p.t, ab: p.sprt, pts: p.pts, sched: p.sched, rp: rp}
	if len(p.pending) == 0 && l.Format == leaguefile.AB {
		pairs, llr, lo, hi, d := r.ab.Test(l.SPRT)
		fmt.Fprintf(logw, "  SPRT already decided: %s (LLR %.2f, bounds [%.2f, %.2f], %d pairs)\n", d, llr, lo, hi, pairs)
		return nil
	}
	if opt.Remote != nil {
		have := map[string]bool{}
		for id := range p.pts {
			have[id] = true
		}
		if p.sched != nil {
			p.sched.ids(have)
		}
		if err := opt.Remote.Begin(ctx, l, have); err != nil {
			return err
		}
	}
	pending := p.pending
	for len(pending) > 0 {
		if err := r.playBatch(ctx, pending); err != nil || r.decided {
			return err
		}
		// Plays withheld because the machine caused a verdict are played
		// again before the format hands out more: the next round may
		// depend on them.
		if again := rp.take(); len(again) > 0 {
			fmt.Fprintf(logw, "league %s: playing again %d game(s) the machine was too busy to judge fairly\n", l.Name, len(again))
			pending = again
			continue
		}
		var err error
		if pending, err = r.nextBatch(ctx); err != nil {
			return err
		}
	}
	return nil
}

// nextBatch stores and returns the missing games the format hands out
// next: a static schedule's next window, or the first round with a game
// missing.
func (r *leagueRun) nextBatch(ctx context.Context) ([]results.Match, error) {
	if r.sched != nil {
		batch := r.sched.window(scheduleWindow)
		return batch, saveLeague(ctx, r.st, r.l, batch)
	}
	_, batch, err := r.l.Walk(r.pts)
	if err != nil {
		return nil, err
	}
	if err := saveLeague(ctx, r.st, r.l, batch); err != nil {
		return nil, err
	}
	return missing(batch, r.pts), nil
}

// stored notes a newly stored game for the format.
func (r *leagueRun) stored(m results.Match, rec *record.Game) {
	if r.sched == nil || !r.sched.mark(m) {
		r.pts[m.ID] = rec.Outcome(0)
	}
}

// notHandedOut is the number of missing games not yet handed to workers.
func (r *leagueRun) notHandedOut() int {
	if r.sched == nil {
		return 0
	}
	return r.sched.left
}

// missing lists the matches not yet stored.
func missing(batch []results.Match, stored map[string]float64) []results.Match {
	var out []results.Match
	for _, m := range batch {
		if _, ok := stored[m.ID]; !ok {
			out = append(out, m)
		}
	}
	return out
}

// newWorker makes a worker's referee and its pool of kept processes.
func (r *leagueRun) newWorker() (*referee.Referee, *procpool.Pool) {
	launch := map[string]string{}
	reusable := map[string]bool{}
	for _, a := range r.l.Agents {
		launch[a.Name] = a.Launch
		reusable[a.Name] = !r.opt.NoReuse && Reusable(a, r.l.Profile.ProcessRule())
	}
	direct := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		// Records keep the reference as written; the launcher gets the
		// resolved one.
		p.Ref = launch[p.Name]
		return r.opt.Launch(ctx, p, o)
	}
	pl := procpool.New(direct)
	return &referee.Referee{Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		if reusable[p.Name] {
			return pl.Get(ctx, p, o)
		}
		return direct(ctx, p, o)
	}, OnEvent: r.opt.OnEvent, OnMove: r.onMove(), Sample: r.opt.Sample, Runtime: r.opt.Runtime}, pl
}

// onMove writes the live file of a game in progress; nil without one.
func (r *leagueRun) onMove() func(*referee.Match, *record.Game) {
	if r.live == nil {
		return nil
	}
	return func(_ *referee.Match, rec *record.Game) { r.live.Update(r.l.Name, rec) }
}

// play referees one match here, or has the remote play it.
func (r *leagueRun) play(ctx context.Context, ref *referee.Referee, pl *procpool.Pool, m results.Match) (*record.Game, func() error, error) {
	if r.opt.Remote != nil {
		return r.opt.Remote.Play(ctx, r.l, m)
	}
	players := map[string]referee.Player{}
	for _, a := range r.l.Agents {
		players[a.Name] = referee.Player{Name: a.Name, Ref: a.Ref, Options: a.Options, Hash: a.Hash}
	}
	var slotPool *slots.Pool
	if r.l.Profile.Time == engine.PerMove {
		slotPool = r.opt.Slots
	}
	rec, err := PlayPinned(ctx, slotPool, *ref, referee.Match{
		ID: m.ID, Game: r.l.Game, Params: r.l.Params, Profile: r.l.Profile.Clone(), Overrides: r.l.Overrides,
		Players: [2]referee.Player{players[m.Seats[0]], players[m.Seats[1]]}, Seed: m.Seed,
		Opening: r.l.OpeningOf(m),
	}, pl.Pinned)
	if r.live != nil {
		r.live.Done(m.ID)
	}
	return rec, nil, err
}

// startWorkers plays the pending matches on the league's workers until
// they are done or stop is closed; outs closes when every worker is done.
func (r *leagueRun) startWorkers(lctx context.Context, pending []results.Match, stop <-chan struct{}) <-chan outcome {
	jobs := make(chan results.Match)
	outs := make(chan outcome)
	var wg sync.WaitGroup
	workers := max(1, r.l.Concurrency)
	if r.opt.Remote != nil {
		// Remote workers bring their own slots: the pending matches are
		// handed out a window at a time (the remote's memory grows with
		// the window, not the league), and the workers take them as they
		// can.
		window := defaultRemoteWindow
		if w, ok := r.opt.Remote.(Windowed); ok && w.Window() > 0 {
			window = w.Window()
		}
		workers = max(1, min(len(pending), window))
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref, pl := r.newWorker()
			defer pl.Close()
			for m := range jobs {
				rec, commit, err := r.play(lctx, ref, pl, m)
				if rec != nil {
					for seat := range 2 {
						rec.Agents[seat].Process = pl.Process(m.Seats[seat])
					}
				}
				pl.EndGame()
				outs <- outcome{m, rec, commit, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, m := range pending {
			// A stop seen before a send wins over a free worker.
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
	return outs
}

// playBatch plays one round's pending matches and stores each finished
// game at once.
func (r *leagueRun) playBatch(ctx context.Context, pending []results.Match) error {
	// The SPRT's decision cancels the games in progress: the test has used
	// exactly the games stored, and a game cut short is never stored.
	lctx, decide := context.WithCancel(ctx)
	defer decide()
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	outs := r.startWorkers(lctx, pending, stop)

	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
		halt()
	}
	out := &journal.Sink{Store: r.st, Journal: r.jnl, League: r.l.Name, Every: orDefault(r.opt.CommitEvery, DefaultCommitEvery), Interval: orDefault(r.opt.CommitInterval, DefaultCommitInterval)}
	finished := 0
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if d := out.Due(); d > 0 {
			timer.Reset(d)
		} else {
			timer.Stop()
		}
		var o outcome
		select {
		case next, ok := <-outs:
			if !ok {
				// Whatever ended the run, the games journaled so far go to
				// the store (were this to fail, the next run would replay
				// them).
				if err := out.Flush(context.WithoutCancel(ctx)); err != nil && firstErr == nil {
					firstErr = err
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				return firstErr
			}
			o = next
		case <-timer.C:
			if err := out.Flush(context.WithoutCancel(ctx)); err != nil {
				fail(err)
			}
			continue
		}
		if o.err != nil {
			if lctx.Err() == nil {
				fail(fmt.Errorf("league %s: match %s: %w", r.l.Name, o.m.ID, o.err))
			}
			halt()
			if r.opt.Remote != nil {
				// Remote games wait for results that may never come (a
				// refused agent copy): stop waiting. Their jobs stay in
				// the stream for the next run.
				decide()
			}
			continue
		}
		if r.decided {
			// Finished in the moment the SPRT decided: the test stands on
			// the games before it, and the league holds exactly those.
			continue
		}
		if lctx.Err() == nil && r.withhold(o) {
			continue
		}
		r.rp.stamp(o.m.ID, o.rec)
		// A finished game is stored even when the run is being
		// interrupted: it is complete, and replaying it would waste it.
		added, err := out.Add(context.WithoutCancel(ctx), o.rec)
		if err != nil {
			fail(fmt.Errorf("league %s: %w", r.l.Name, err))
			continue
		}
		// A remote result is acknowledged only once stored: a coordinator
		// that dies in between gets it again and finds it stored.
		if o.commit != nil {
			if err := o.commit(); err != nil && firstErr == nil && lctx.Err() == nil {
				firstErr = fmt.Errorf("league %s: match %s: acknowledge result: %w", r.l.Name, o.m.ID, err)
			}
		}
		finished++
		r.stored(o.m, o.rec)
		if added && r.count(o, len(pending)-finished+r.notHandedOut()) {
			halt()
			decide()
		}
	}
}

// withhold keeps o from the store when the machine caused a verdict in it
// (the game is played again after this batch) and reports whether it did.
// A remote result is acknowledged all the same: a coordinator that dies
// now has the game played again by the next run, as it would be anyway.
func (r *leagueRun) withhold(o outcome) bool {
	why := r.rp.hold(o.m, o.rec)
	if why == "" {
		return false
	}
	fmt.Fprintf(r.logw, "  game %s withheld, to be played again: %s\n", o.m.ID, why)
	if o.commit != nil {
		if err := o.commit(); err != nil {
			fmt.Fprintf(r.logw, "  game %s: acknowledge the withheld result: %v\n", o.m.ID, err)
		}
	}
	return true
}

// count adds a newly stored game to the progress and, in an ab league,
// to the SPRT; it reports whether the SPRT decided.
func (r *leagueRun) count(o outcome, unplayed int) bool {
	r.t.add(o.rec)
	r.prog.Done++
	r.prog.Game = o.rec
	r.prog.Leader = r.t.leader()
	r.prog.Stopped = false
	return r.sprt(o, unplayed)
}

// sprt adds a stored game to an ab league's test and reports whether it
// decided; either way it reports the game's progress.
func (r *leagueRun) sprt(o outcome, unplayed int) bool {
	decided := false
	if r.l.Format == leaguefile.AB {
		r.ab.Add(o.m, o.rec)
		pairs, llr, lo, hi, d := r.ab.Test(r.l.SPRT)
		if d != ratings.Continue {
			decided, r.decided = true, true
			r.prog.Total -= unplayed
			r.prog.Stopped = true
			fmt.Fprintf(r.logw, "\nSPRT decided: %s (LLR %.2f, bounds [%.2f, %.2f], %d pairs); the other %d game(s) are not played\n",
				d, llr, lo, hi, pairs, unplayed)
		}
	}
	if r.opt.OnGame != nil {
		r.opt.OnGame(*r.prog)
	}
	return decided
}
