package referee_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// step is what a fake agent does on one move request.
type step struct {
	think time.Duration // fake time that passes before the reply
	hang  bool          // never reply; the referee's deadline must fire
	text  string        // the reply ("" = first legal move)
	err   error         // a reported error
	cpu   time.Duration // CPU used by this move
	wait  time.Duration // time this move's threads waited for a CPU
	oom   bool          // killed by the host for its memory while thinking
	// breach: the host reports a memory breach after the agent thought
	// for think, or 300 ms (within any limit), and kills it, which fails
	// the call.
	breach bool
	// unseenOOM: the kernel killed the agent for its memory and the call
	// failed, but the host's watcher has not ticked since: the breach
	// shows only once the agent is killed (the host's last read).
	unseenOOM bool
}

// fakeAgent is an in-process Handle driven by a fake clock, for exact
// boundary tests that real processes cannot give.
type fakeAgent struct {
	clk   *replyClock
	steps []step
	n     int
	cpu   time.Duration
	wait  time.Duration // run-queue delay so far
	mem   chan struct{}
	mu    sync.Mutex
	state engine.State
	game  engine.Game // the game played (nil: Bohnenspiel)
	// stderr is the agent's stderr tail; Kill appends lastWords to it, as
	// a process's final output arrives as it dies.
	stderr     string
	lastWords  string
	killed     bool
	oomAtKill  bool          // Kill closes mem (step.unseenOOM)
	params     engine.Params // the game's parameters (nil: none)
	observed   int           // Observe calls
	observeCPU time.Duration // CPU each Observe uses
	ended      int           // End calls
	endLeft    time.Duration // the time the last End call was given
}

func (f *fakeAgent) Describe(context.Context) (protocol.Description, error) {
	return protocol.Description{Name: "fake"}, nil
}
func (f *fakeAgent) Start(_ context.Context, info protocol.StartInfo) error {
	var g engine.Game = bohnenspiel.Game{}
	if f.game != nil {
		g = f.game
	}
	st, err := g.NewState(f.params)
	f.state = st
	return err
}
func (f *fakeAgent) Observe(context.Context, int, string, int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.observed++
	f.cpu += f.observeCPU
	return nil
}
func (f *fakeAgent) End(ctx context.Context, _ protocol.EndInfo) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended++
	if dl, ok := ctx.Deadline(); ok {
		f.endLeft = time.Until(dl)
	}
	return nil
}
func (f *fakeAgent) Kill() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.killed {
		f.killed = true
		f.stderr += f.lastWords
		if f.oomAtKill {
			close(f.mem)
		}
	}
}
func (f *fakeAgent) Stderr() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stderr
}
func (f *fakeAgent) MemoryExceeded() <-chan struct{} { return f.mem }
func (f *fakeAgent) CPUTime() (time.Duration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cpu, nil
}

func (f *fakeAgent) Usage() (cpu, runQueue time.Duration, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cpu, f.wait, nil
}

func (f *fakeAgent) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	s := step{}
	if f.n < len(f.steps) {
		s = f.steps[f.n]
	}
	f.n++
	f.mu.Lock()
	f.cpu += s.cpu
	f.wait += s.wait
	f.mu.Unlock()
	// Wait until the referee has set this request's deadline timer, so
	// that moving the clock is seen by it.
	f.clk.awaitTimer()
	if s.oom {
		close(f.mem)
		return "", errors.New("rpc error: code = Unavailable desc = error reading from server: EOF")
	}
	if s.unseenOOM {
		f.mu.Lock()
		f.oomAtKill = true
		f.mu.Unlock()
		return "", errors.New("move channel: EOF")
	}
	if s.hang {
		f.clk.Advance(24 * time.Hour)
		<-ctx.Done()
		return "", ctx.Err()
	}
	if s.breach {
		// The host's watcher catches the breach after the agent has
		// thought a while, and kills it: the call fails.
		f.clk.reply(cmp.Or(s.think, 300*time.Millisecond))
		close(f.mem)
		return "", errors.New("move channel: read unix @->@: read: connection reset by peer")
	}
	f.clk.reply(s.think)
	if s.think > 0 {
		// Hand the reply over a little late, as a loaded machine may: the
		// verdict must come from the clock's ordering, not from this
		// goroutine winning a race against the referee's deadline timer.
		time.Sleep(200 * time.Microsecond)
	}
	if s.err != nil {
		return "", s.err
	}
	if s.text != "" {
		return s.text, nil
	}
	st := f.state.Clone()
	if err := engine.Replay(st, req.History); err != nil {
		return "", err
	}
	ms := st.LegalMoves(nil)
	return st.FormatMove(ms[0]), nil
}

func fakeMatch(t *testing.T, prof engine.Profile, a, b []step) (*record.Game, [2]*fakeAgent, int) {
	t.Helper()
	rec, agents, launches, err := fakeMatchE(t.Name(), prof, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return rec, agents, launches
}

// fakeMatchE is fakeMatch for any goroutine: it returns its error.
func fakeMatchE(id string, prof engine.Profile, a, b []step) (*record.Game, [2]*fakeAgent, int, error) {
	clk := newReplyClock(time.Unix(1000, 0))
	agents := [2]*fakeAgent{{clk: clk, steps: a, mem: make(chan struct{})}, {clk: clk, steps: b, mem: make(chan struct{})}}
	var launches atomic.Int32
	r := &referee.Referee{
		Clock: clk,
		Launch: func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
			launches.Add(1)
			if p.Ref == "0" {
				return agents[0], nil
			}
			return agents[1], nil
		},
	}
	rec, err := r.Play(context.Background(), referee.Match{
		ID: id, Game: bohnenspiel.Game{}, Profile: prof, Seed: 3,
		Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}},
	})
	return rec, agents, int(launches.Load()), err
}

// seatLauncher starts no process: the player with Ref "0" gets a, the
// other b.
func seatLauncher(a, b referee.Handle) referee.Launcher {
	return func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
		if p.Ref == "0" {
			return a, nil
		}
		return b, nil
	}
}

// fakeSeats are the players of a match between seatLauncher's handles.
var fakeSeats = [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}}

func comp424(t *testing.T) engine.Profile {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// boundaryCase is one reply timing of seat 0's second move (its first has
// the 30 s allowance) under COMP424's 700 ms limit and 1 s cushion.
type boundaryCase struct {
	name  string
	step  step
	event string // the one event expected for seat 0 ("" = none)
	loss  bool
}

var boundaryCases = func() []boundaryCase {
	ms := time.Millisecond
	return []boundaryCase{
		{"at the limit", step{think: 700 * ms}, "", false},
		{"just late", step{think: 701 * ms}, "late", false},
		{"end of cushion", step{think: 1700 * ms}, "late", false},
		{"past the cushion", step{think: 1701 * ms}, "timeout", true},
		{"silent", step{hang: true}, "timeout", true},
		{"error report", step{err: &protocol.AgentError{Message: "boom"}}, "error", false},
		{"garbage in time", step{text: "PIT"}, "unparseable", true},
		{"late garbage is only late", step{think: 900 * ms, text: "PIT"}, "late", false},
	}
}()

func TestPerMoveBoundariesExact(t *testing.T) {
	for _, c := range boundaryCases {
		t.Run(c.name, func(t *testing.T) {
			if err := checkBoundary(c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkBoundary plays one boundary case and says what went wrong; it may
// run on any goroutine.
func checkBoundary(c boundaryCase) error {
	prof, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		return err
	}
	rec, _, _, err := fakeMatchE(c.name, prof, []step{{think: 29 * time.Second}, c.step}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	var got []record.Event
	for _, e := range rec.Events {
		if e.Seat == 0 {
			got = append(got, e)
		}
	}
	if c.event == "" {
		if len(got) != 0 || rec.Result.Forfeit != "" {
			return fmt.Errorf("%s: events %+v result %+v", c.name, got, rec.Result)
		}
		return nil
	}
	if len(got) != 1 || got[0].Kind != c.event {
		return fmt.Errorf("%s: events %+v, want one %s", c.name, got, c.event)
	}
	// A late or timed-out move carries its evidence, whichever way the
	// verdict came; a move judged by its text has none.
	switch k := got[0].Kind; {
	case (k == "late" || k == "timeout") && got[0].Evidence == nil:
		return fmt.Errorf("%s: %s event without evidence", c.name, k)
	case k != "late" && k != "timeout" && got[0].Evidence != nil:
		return fmt.Errorf("%s: %s event with timing evidence %+v", c.name, k, got[0].Evidence)
	}
	if c.loss {
		if rec.Result.Winner != 1 || rec.Result.Reason != "TIMEOUT" {
			return fmt.Errorf("%s: result %+v, want TIMEOUT loss", c.name, rec.Result)
		}
		return nil
	}
	if rec.Result.Forfeit != "" || rec.Moves[2].Source != record.SourceRandom {
		return fmt.Errorf("%s: want a random substitute at ply 2 and no forfeit: %+v %+v", c.name, rec.Moves[2], rec.Result)
	}
	return nil
}

func TestFirstMoveAllowanceForEachSide(t *testing.T) {
	// Both sides' first moves may take 30 s; the second may not.
	rec, _, _ := fakeMatch(t, comp424(t),
		[]step{{think: 30 * time.Second}},
		[]step{{think: 30 * time.Second}, {think: 701 * time.Millisecond}})
	if len(rec.Events) != 1 || rec.Events[0].Seat != 1 || rec.Events[0].Kind != "late" || rec.Events[0].Ply != 3 {
		t.Fatalf("events %+v", rec.Events)
	}
	if rec.Moves[0].WallMS != 30000 {
		t.Fatalf("wall time measured around the call: %v ms, want 30000", rec.Moves[0].WallMS)
	}
}

func cpuProfile() engine.Profile {
	return engine.Profile{
		Name: "cpu-test", Time: engine.CPUBudget, Budget: 10 * time.Second, BudgetGrace: 5 * time.Second,
		Penalties: map[engine.Failure]engine.Penalty{},
		Reasons:   map[engine.Failure]string{engine.FailTimeout: "player {player} exceeded available time"},
	}
}

func TestCPUBudgetExceeded(t *testing.T) {
	// Seat 1 spends 4 s of CPU per move: its third reply puts it at 12 s,
	// over the 10 s budget, and that move is not applied.
	heavy := []step{{cpu: 4 * time.Second}, {cpu: 4 * time.Second}, {cpu: 4 * time.Second, text: "PIT 1 0"}}
	rec, _, _ := fakeMatch(t, cpuProfile(), nil, heavy)
	if rec.Result.Winner != 0 || rec.Result.Reason != "player 2 exceeded available time" {
		t.Fatalf("result %+v", rec.Result)
	}
	if n := len(rec.Moves); n != 5 {
		t.Fatalf("%d moves applied, want 5 (the over-budget reply discarded)", n)
	}
	if rec.Moves[3].CPUMS != 8000 {
		t.Fatalf("CPU recorded %v ms, want 8000", rec.Moves[3].CPUMS)
	}
}

func TestCPUBudgetExactlyUsedIsFine(t *testing.T) {
	rec, _, _ := fakeMatch(t, cpuProfile(), nil, []step{{cpu: 5 * time.Second}, {cpu: 5 * time.Second}})
	if rec.Result.Forfeit != "" {
		t.Fatalf("a player at exactly its budget lost: %+v", rec.Result)
	}
}

func TestCPUBudgetWallClockKill(t *testing.T) {
	// A silent agent is given up on at its remaining budget plus the grace.
	rec, _, _ := fakeMatch(t, cpuProfile(), []step{{hang: true}}, nil)
	if rec.Result.Winner != 1 || rec.Result.Reason != "player 1 exceeded available time" {
		t.Fatalf("result %+v", rec.Result)
	}
	if ev := rec.Events; len(ev) != 1 || ev[0].Kind != "timeout" {
		t.Fatalf("events %+v", ev)
	}
}

func TestTimeoutWithRandomPenaltyRestartsAgent(t *testing.T) {
	// A profile whose timeout is a substitute (as hex-crossout's): the
	// silent agent is replaced by a fresh process for its next turn.
	p := comp424(t)
	p.Penalties = map[engine.Failure]engine.Penalty{engine.FailTimeout: engine.RandomMove}
	rec, _, launches := fakeMatch(t, p, []step{{}, {hang: true}}, nil)
	if rec.Result.Forfeit != "" {
		t.Fatalf("result %+v", rec.Result)
	}
	var kinds []string
	for _, e := range rec.Events {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != "[timeout restart]" || launches != 3 {
		t.Fatalf("events %v, launches %d; want a timeout, then a restart (3 launches)", kinds, launches)
	}
}

func TestMemoryBreachDuringMove(t *testing.T) {
	// Seat 0's first move is normal; during its second the host reports
	// the memory breach while the referee waits for the reply.
	p := cpuProfile()
	p.MemoryMB = 100
	p.Reasons[engine.FailMemory] = "player {player} exceeded space limit"
	rec, agents, _ := fakeMatch(t, p, []step{{}, {breach: true}}, nil)
	if agents[0].n != 2 {
		t.Fatalf("seat 0 was asked %d times, want 2 (the breach must come during a move)", agents[0].n)
	}
	if rec.Result.Winner != 1 || rec.Result.Reason != "player 1 exceeded space limit" || rec.Result.Forfeit != string(engine.FailMemory) {
		t.Fatalf("result %+v", rec.Result)
	}
	if len(rec.Moves) != 2 {
		t.Fatalf("%d moves applied, want 2 (one each before the breach)", len(rec.Moves))
	}
	if ev := rec.Events; len(ev) != 1 || ev[0].Kind != string(engine.FailMemory) || ev[0].Seat != 0 || ev[0].Ply != 2 {
		t.Fatalf("events %+v, want one memory event for seat 0 at ply 2", ev)
	}
}
