// Package check validates one agent the way a course's submission system
// would before accepting it: it starts the agent under the game's course
// profile and the arena's sandbox, checks the handshake and the protocol
// version, plays a few short games against reference opponents through the
// real referee, and turns what it saw into a Report — start-up time, the
// slowest move against the limit, memory and CPU against the profile, every
// penalty with the board where it happened and the agent's stderr there —
// with a PASS/FAIL verdict.
package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// Causes of a failed check: each names what the agent did wrong.
const (
	CauseStart       = "start"            // could not be started (missing, unreadable, not an agent)
	CauseProtocol    = "protocol-version" // built against another protocol version
	CauseStdoutNoise = "stdout-noise"     // printed on stdout before the handshake
	CauseOpen        = "open-game"        // failed to open a game (StartGame, Lua init)
	CauseSlow        = "slow"             // a reply past the limit and the cushion (a timeout)
	CauseLate        = "late"             // a reply inside the cushion (discarded)
	CauseIllegal     = "illegal"          // an illegal move
	CauseUnparseable = "unparseable"      // a reply that is not a move
	CauseError       = "error"            // the agent reported no move (an error or a panic)
	CauseCrash       = "crash"            // the process died or hung up mid-game
	CauseMemory      = "memory"           // over the profile's memory limit
	CauseCPU         = "cpu-budget"       // over the game's CPU budget
	// CauseMachine is a late reply or timeout the machine caused: the
	// agent waited for a CPU long enough to explain it (record.Evidence).
	// The check cannot judge the agent's time then.
	CauseMachine = "machine-busy"
)

// DefaultOpponents are the agents a check plays against: a random mover
// and the course's baseline. The baseline thinks a tenth of each move's
// limit so a check takes seconds, not minutes; its strength is not what is
// being checked.
func DefaultOpponents() []string { return []string{"builtin:random", "builtin:baseline?time=0.1"} }

// nearFraction is how much of a limit a move may use before the report
// warns that a loaded machine could push it into the cushion.
const nearFraction = 0.75

// Config is one check to run.
type Config struct {
	Agent     string // the agent reference, as for arena play
	Game      engine.Game
	Params    engine.Params
	Profile   engine.Profile    // the course profile, with any overrides applied
	Overrides []engine.Override // recorded in the report
	Games     int               // games to play (default 4), seats and opponents alternating
	Opponents []string          // default DefaultOpponents()
	Seed      uint64
	Launcher  *host.Launcher
	// Runtime tells what runs the agent, for the profile's memory rule
	// (referee.Referee.Runtime; nil: native).
	Runtime func(ref string) engine.Runtime
	// Progress, if set, is told when each game starts (for a console).
	Progress func(game, of int, opponent string)
}

// Report is the outcome of a check; its JSON form is the machine-readable
// report of `arena check --json`.
type Report struct {
	Agent     string            `json:"agent"`
	Name      string            `json:"name,omitempty"` // what the agent calls itself
	Game      string            `json:"game"`
	Params    map[string]string `json:"params,omitempty"`
	Profile   string            `json:"profile"`
	Overrides []string          `json:"overrides,omitempty"`
	Sandboxed bool              `json:"sandboxed"`
	Pass      bool              `json:"pass"`
	// Verdict is "PASS" or "FAIL: cause, cause".
	Verdict string `json:"verdict"`

	Protocol ProtocolCheck `json:"protocol"`
	Startup  Measure       `json:"startup"`
	Time     TimeCheck     `json:"time"`
	Memory   Measure       `json:"memory"`
	CPU      *Measure      `json:"cpu,omitempty"` // CPU-budget profiles only

	Games    []GameSummary `json:"games"`
	Problems []Problem     `json:"problems"`
	// Stdout is what the agent printed on stdout after the handshake,
	// which the arena discards (its last bytes).
	Stdout   string   `json:"stdout,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// ProtocolCheck is the handshake: OK when the agent completed it in this
// arena's protocol version.
type ProtocolCheck struct {
	Arena int  `json:"arena_version"`
	OK    bool `json:"ok"`
}

// Measure is one quantity against its limit; Limit 0 means none.
type Measure struct {
	Value float64 `json:"value"`
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"` // "ms" or "MiB"
}

// TimeCheck is the slowest move against its limit.
type TimeCheck struct {
	Model     string  `json:"model"` // per-move or cpu-budget
	SlowestMS float64 `json:"slowest_ms"`
	LimitMS   float64 `json:"limit_ms"`   // the slowest move's limit (first-move allowance for a first move)
	CushionMS float64 `json:"cushion_ms"` // grace after the limit in which a reply is discarded
	SpareMS   float64 `json:"spare_ms"`   // limit minus the slowest move: how far it stayed from the cushion
	Game      int     `json:"game"`       // where the slowest move was (1-based), 0 when none
	Ply       int     `json:"ply"`
	Moves     int     `json:"moves"` // moves the agent played itself
	// NoReply: the slowest request got no reply at all before the
	// referee's deadline (SlowestMS is when it gave up).
	NoReply bool `json:"no_reply,omitempty"`
}

// GameSummary is one game of the check.
type GameSummary struct {
	N        int    `json:"n"` // 1-based
	Opponent string `json:"opponent"`
	Seat     int    `json:"seat"`
	Outcome  string `json:"outcome"` // won, lost, draw, no result
	Result   string `json:"result"`
	Moves    int    `json:"moves"` // plies in the game
}

// Problem is one failure of the agent.
type Problem struct {
	Cause   string `json:"cause"`
	Game    int    `json:"game,omitempty"` // 1-based; 0 before any game
	Ply     int    `json:"ply"`
	Penalty string `json:"penalty,omitempty"` // what the course profile did about it
	Detail  string `json:"detail"`
	Reply   string `json:"reply,omitempty"`
	Board   string `json:"board,omitempty"`  // the position where it happened, drawn by the game
	Stderr  string `json:"stderr,omitempty"` // the agent's stderr tail at that moment
}

// Run checks the agent. It returns an error only when the check itself
// could not run (bad configuration, interrupted); everything the agent
// does wrong is in the report.
func Run(ctx context.Context, c Config) (*Report, error) {
	if c.Launcher == nil || c.Game == nil {
		return nil, errors.New("check: no launcher or game")
	}
	if c.Games <= 0 {
		c.Games = 4
	}
	if len(c.Opponents) == 0 {
		c.Opponents = DefaultOpponents()
	}
	if err := c.Profile.Validate(); err != nil {
		return nil, err
	}
	if err := c.Launcher.Check(); err != nil {
		return nil, err
	}
	r := newReport(c, c.Launcher.Sandboxed())
	if ok, err := handshake(ctx, c, r); err != nil || !ok {
		r.finish()
		return r, err
	}
	if err := play(ctx, c, r); err != nil {
		return nil, err
	}
	r.finish()
	return r, nil
}

// memory is the memory rule the agent is held to.
func (c Config) memory() engine.MemoryRule {
	rt := engine.RuntimeNative
	if c.Runtime != nil {
		rt = c.Runtime(c.Agent)
	}
	return c.Profile.MemoryFor(rt)
}

// newReport is an empty report for c.
func newReport(c Config, sandboxed bool) *Report {
	r := &Report{
		Agent: c.Agent, Game: c.Game.Info().Name, Params: map[string]string(c.Params.Clone()),
		Profile: c.Profile.Name, Sandboxed: sandboxed,
		Protocol: ProtocolCheck{Arena: protocol.Version},
		Startup:  Measure{Unit: "ms", Limit: ms(c.Profile.StartupTimeout)},
		Memory:   Measure{Unit: "MiB", Limit: float64(c.memory().TreeMB)},
		Time:     TimeCheck{Model: string(c.Profile.Time), CushionMS: ms(c.Profile.Cushion)},
		Games:    []GameSummary{},
		Problems: []Problem{},
	}
	if len(r.Params) == 0 {
		r.Params = nil
	}
	for _, o := range c.Overrides {
		r.Overrides = append(r.Overrides, o.String())
	}
	if c.Profile.Time == engine.CPUBudget {
		r.CPU = &Measure{Unit: "ms", Limit: ms(c.Profile.Budget)}
	}
	if !r.Sandboxed {
		r.Warnings = append(r.Warnings, "agents run without a sandbox on this machine (arena doctor says why): the course's machine may refuse what this one allowed")
	}
	return r
}

// StartFailure is the report of an agent that failed before it could be
// started at all (a missing file, a Lua script that does not compile).
func StartFailure(c Config, sandboxed bool, err error) *Report {
	r := newReport(c, sandboxed)
	r.Problems = append(r.Problems, startProblem(err, c.Profile.StartupTimeout))
	r.finish()
	return r
}

// handshake starts the agent once, as a game would, timing the start-up
// (process, handshake, opening a game). It reports whether the agent can
// play at all.
func handshake(ctx context.Context, c Config, r *Report) (bool, error) {
	timeout := c.Profile.StartupTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	p, err := c.Launcher.Launch(cctx, c.Agent, host.Options{StartTimeout: timeout, MemoryMB: c.memory().TreeMB})
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		r.Problems = append(r.Problems, startProblem(err, timeout))
		return false, nil // Protocol.OK stays false: no handshake completed
	}
	defer p.Kill()
	r.Protocol.OK = true
	if d, err := p.Agent.Describe(cctx); err == nil {
		r.Name = d.Name
	}
	err = p.Agent.Start(cctx, startInfo(c, "check-start", 0, "check"))
	r.Startup.Value = ms(time.Since(start))
	r.Memory.Value = float64(p.PeakRSS()) / (1 << 20)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		detail := agentMessage(err)
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			detail = fmt.Sprintf("did not open a game within the %v start-up limit", timeout)
		}
		r.Problems = append(r.Problems, Problem{Cause: CauseOpen, Detail: "failed to open a " + r.Game + " game: " + detail, Stderr: p.Stderr()})
		return false, nil
	}
	ectx, ecancel := context.WithTimeout(ctx, time.Second)
	_ = p.Agent.End(ectx, protocol.EndInfo{Winner: engine.NoSeat, Reason: "check"})
	ecancel()
	return true, nil
}

// startProblem names why an agent could not be started.
func startProblem(err error, timeout time.Duration) Problem {
	msg := err.Error()
	switch {
	case errors.Is(err, host.ErrVersion):
		return Problem{Cause: CauseProtocol, Detail: msg}
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		// go-plugin reads the handshake from the first line of stdout:
		// anything printed before it breaks the handshake.
		return Problem{Cause: CauseStdoutNoise, Detail: "the agent printed on stdout before the plugin handshake, which must be its first line of stdout (print diagnostics to stderr): " + msg}
	case strings.Contains(msg, "not readable") || strings.Contains(msg, "permission denied"):
		return Problem{Cause: CauseStart, Detail: msg + " (sandboxed agents run as an unprivileged user: the binary and the files it reads must be readable by all users)"}
	case strings.Contains(msg, "timeout while waiting for plugin to start") || errors.Is(err, context.DeadlineExceeded):
		return Problem{Cause: CauseStart, Detail: fmt.Sprintf("did not complete the plugin handshake within the %v start-up limit (does it call sdk.Serve promptly?): %s", timeout, msg)}
	}
	return Problem{Cause: CauseStart, Detail: msg}
}

func startInfo(c Config, id string, seat int, opponent string) protocol.StartInfo {
	p := c.Profile
	return protocol.StartInfo{
		GameID: id, Game: c.Game.Info().Name, Params: map[string]string(c.Params), Seat: seat,
		Profile: p.Name, Opponent: opponent, Seed: c.Seed*2 + uint64(seat) + 1,
		Clock: protocol.Clock{Model: string(p.Time), MoveLimit: p.MoveLimit, FirstMoveLimit: p.FirstMoveLimit, Cushion: p.Cushion, Budget: p.Budget},
	}
}

// tracker follows the checked agent's process in the game being played,
// for its memory, its stdout and its stderr at the moment of a penalty.
type tracker struct {
	mu     sync.Mutex
	calls  []call          // every move request to the agent, in order
	flying sync.WaitGroup  // move requests not yet returned
	procs  []*host.Process // every process of the agent in this game (restarts included)
	events []seen
}

// call is one move request to the agent, timed around the call.
type call struct {
	ply     int
	elapsed time.Duration
	noReply bool // the referee gave up waiting (its deadline cancelled the call)
}

// timed times the agent's move requests, late and unanswered ones too
// (the record keeps the time of accepted moves only).
type timed struct {
	referee.Handle
	tr *tracker
}

func (h timed) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	h.tr.flying.Add(1)
	defer h.tr.flying.Done()
	start := time.Now()
	text, err := h.Handle.Move(ctx, req)
	d := time.Since(start)
	h.tr.mu.Lock()
	h.tr.calls = append(h.tr.calls, call{ply: req.Ply, elapsed: d, noReply: err != nil && ctx.Err() != nil})
	h.tr.mu.Unlock()
	return text, err
}

// Usage passes the process's run-queue reading on (referee.UsageReader),
// so that the check tells a late reply the machine caused as a league does.
func (h timed) Usage() (cpu, runQueue time.Duration, err error) {
	if u, ok := h.Handle.(referee.UsageReader); ok {
		return u.Usage()
	}
	return 0, 0, referee.ErrNoRunQueue
}

type seen struct {
	ev     record.Event
	stderr string
	cpu    time.Duration // the agent's CPU time then (a budget overrun has no move to carry it)
}

func (t *tracker) current() *host.Process {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.procs) == 0 {
		return nil
	}
	return t.procs[len(t.procs)-1]
}

// waitFlying waits up to d for the agent's move requests to return.
func waitFlying(tr *tracker, d time.Duration) {
	done := make(chan struct{})
	go func() { tr.flying.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// settledStderr is the agent's stderr once it stops growing: the reply
// (or the death) can reach the referee before the last lines written
// before it come through the pipe. It waits at most 300 ms, and only
// after a penalty, when the game's clocks are not running.
func settledStderr(p *host.Process) string {
	last := p.Stderr()
	for range 15 {
		time.Sleep(20 * time.Millisecond)
		cur := p.Stderr()
		if cur == last && cur != "" {
			break
		}
		last = cur
	}
	return last
}

// play runs the games one after another: timing is what is being checked,
// so games never compete for the processor.
func play(ctx context.Context, c Config, r *Report) error {
	for i := range c.Games {
		opp := c.Opponents[i%len(c.Opponents)]
		// Each opponent meets the agent in both seats.
		seat := i % 2
		if len(c.Opponents)%2 == 0 {
			seat = (i + i/len(c.Opponents)) % 2
		}
		if c.Progress != nil {
			c.Progress(i+1, c.Games, opp)
		}
		tr := &tracker{}
		agentName, oppName := "agent", "opponent"
		launch := func(ctx context.Context, p referee.Player, opt host.Options) (referee.Handle, error) {
			proc, err := c.Launcher.Launch(ctx, p.Ref, opt)
			if err != nil {
				return nil, err
			}
			if p.Name != agentName {
				return referee.Wrap(proc), nil
			}
			tr.mu.Lock()
			tr.procs = append(tr.procs, proc)
			tr.mu.Unlock()
			return timed{referee.Wrap(proc), tr}, nil
		}
		ref := &referee.Referee{Launch: launch, OnEvent: func(_ *referee.Match, e record.Event) {
			if e.Seat != seat {
				return
			}
			s := seen{ev: e}
			if p := tr.current(); p != nil {
				s.cpu, _ = p.CPUTime()
				s.stderr = settledStderr(p)
			}
			tr.mu.Lock()
			tr.events = append(tr.events, s)
			tr.mu.Unlock()
		}}
		if c.Runtime != nil {
			ref.Runtime = func(p referee.Player) engine.Runtime { return c.Runtime(p.Ref) }
		}
		players := [2]referee.Player{{Name: agentName, Ref: c.Agent}, {Name: oppName, Ref: opp}}
		if seat == 1 {
			players[0], players[1] = players[1], players[0]
		}
		rec, err := ref.Play(ctx, referee.Match{
			ID: fmt.Sprintf("check-%s-g%d", c.Game.Info().Name, i+1), Game: c.Game, Params: c.Params,
			Profile: c.Profile.Clone(), Overrides: c.Overrides, Players: players, Seed: c.Seed*1_000_003 + uint64(i),
		})
		if err != nil {
			return fmt.Errorf("check game %d against %s: %w", i+1, opp, err)
		}
		// A request the referee stopped waiting for returns once its
		// call is cancelled or the agent killed: wait for its timing.
		waitFlying(tr, 5*time.Second)
		r.addGame(c, i+1, opp, seat, rec, tr)
	}
	return nil
}

// addGame folds one finished game into the report.
func (r *Report) addGame(c Config, n int, opp string, seat int, rec *record.Game, tr *tracker) {
	g := GameSummary{N: n, Opponent: opp, Seat: seat, Result: rec.Summary(), Moves: len(rec.Moves)}
	switch {
	case rec.Result.Draw:
		g.Outcome = "draw"
	case rec.Result.Winner == seat:
		g.Outcome = "won"
	case rec.Result.Winner == engine.NoSeat:
		g.Outcome = "no result"
	default:
		g.Outcome = "lost"
	}
	r.Games = append(r.Games, g)

	// Time: every reply of the agent, discarded late ones and timeouts
	// included, against the limit it had (the first request of a game has
	// the first-move allowance). The slowest is the one closest to, or
	// furthest past, its own limit.
	var cpu float64
	for _, m := range rec.Moves {
		if m.Seat == seat && m.Source == record.SourceAgent {
			r.Time.Moves++
			cpu = max(cpu, m.CPUMS)
		}
	}
	tr.mu.Lock()
	calls := append([]call(nil), tr.calls...)
	tr.mu.Unlock()
	for i, cl := range calls {
		wall := ms(cl.elapsed)
		if c.Profile.Time == engine.CPUBudget {
			if wall > r.Time.SlowestMS {
				r.Time.SlowestMS, r.Time.Game, r.Time.Ply = wall, n, cl.ply
			}
			continue
		}
		limit := c.Profile.MoveLimit
		if i == 0 && c.Profile.FirstMoveLimit > 0 {
			limit = c.Profile.FirstMoveLimit
		}
		if r.Time.NoReply {
			continue // nothing is slower than no reply
		}
		if r.Time.Game == 0 || cl.noReply || wall-ms(limit) > r.Time.SlowestMS-r.Time.LimitMS {
			r.Time.SlowestMS, r.Time.LimitMS, r.Time.Game, r.Time.Ply, r.Time.NoReply = wall, ms(limit), n, cl.ply, cl.noReply
		}
	}
	if r.CPU != nil {
		r.CPU.Value = max(r.CPU.Value, cpu)
	}

	// Memory and stdout over every process the agent had in this game.
	tr.mu.Lock()
	procs := append([]*host.Process(nil), tr.procs...)
	events := append([]seen(nil), tr.events...)
	tr.mu.Unlock()
	for _, p := range procs {
		r.Memory.Value = max(r.Memory.Value, float64(p.PeakRSS())/(1<<20))
		if out := p.Stdout(); out != "" && len(r.Stdout) < 2048 {
			r.Stdout += out
		}
	}

	gone := false // the agent was already killed in this game
	for _, s := range events {
		cause := causeOf(s.ev.Kind, c.Profile.Time)
		if cause == "" {
			continue
		}
		// An agent killed for its memory (or another failure the profile
		// treats as death) is recorded dead at its next turn: that is the
		// same failure again, not a second one.
		if cause == CauseCrash && gone && s.ev.Detail == "" {
			continue
		}
		if pen := engine.Penalty(s.ev.Penalty); pen == engine.AsDead || cause == CauseCrash || cause == CauseMemory {
			gone = true
		}
		if r.CPU != nil && cause == CauseCPU {
			r.CPU.Value = max(r.CPU.Value, ms(s.cpu))
		}
		stderr := s.stderr
		if stderr == "" {
			stderr = rec.Stderr[seat]
		}
		detail := s.ev.Detail
		if why := machineCaused(rec, s.ev); why != "" {
			cause, detail = CauseMachine, detail+"; "+why
		}
		r.Problems = append(r.Problems, Problem{
			Cause: cause, Game: n, Ply: s.ev.Ply, Penalty: s.ev.Penalty, Detail: detail, Reply: s.ev.Reply,
			Board: boardAt(c, rec, s.ev), Stderr: tailLines(stderr, 12),
		})
	}
}

// machineCaused says how long the agent waited for a CPU when the
// record's evidence for ev (attached after the event was seen) puts its
// verdict down to the machine; "" otherwise.
func machineCaused(rec *record.Game, ev record.Event) string {
	for _, e := range rec.Events {
		if e.Ply != ev.Ply || e.Seat != ev.Seat || e.Kind != ev.Kind || !e.Evidence.Contended() {
			continue
		}
		return fmt.Sprintf("it waited %.0f ms for a CPU: the machine was too busy for a fair verdict", *e.Evidence.RunQueueMS)
	}
	return ""
}

// causeOf maps a referee event kind to a check cause ("" for events that
// are not failures, such as a restart).
func causeOf(kind string, model engine.TimeModel) string {
	switch engine.Failure(kind) {
	case engine.FailTimeout:
		if model == engine.CPUBudget {
			return CauseCPU
		}
		return CauseSlow
	case engine.FailLate:
		return CauseLate
	case engine.FailIllegal:
		return CauseIllegal
	case engine.FailUnparseable:
		return CauseUnparseable
	case engine.FailError:
		return CauseError
	case engine.FailDead:
		return CauseCrash
	case engine.FailMemory:
		return CauseMemory
	}
	return ""
}

// boardAt draws the position the agent was asked to move in when the
// event happened: the first position of the game, replayed from its
// history, at the event's ply with the agent to move.
func boardAt(c Config, rec *record.Game, ev record.Event) string {
	st, err := c.Game.NewState(c.Params)
	if err != nil {
		return ""
	}
	hist := rec.History()
	for i := 0; ; i++ {
		if st.Ply() == ev.Ply && (st.ToMove() == ev.Seat || st.Terminal()) {
			break
		}
		if i >= len(hist) || engine.Replay(st, hist[i:i+1]) != nil {
			break
		}
	}
	if d, ok := st.(engine.Drawer); ok {
		return d.Draw()
	}
	return st.Text()
}

// finish sets the verdict and the warnings that follow from the numbers.
func (r *Report) finish() {
	if r.Time.Model == string(engine.PerMove) && r.Time.Game > 0 {
		r.Time.SpareMS = r.Time.LimitMS - r.Time.SlowestMS
		if r.Time.SlowestMS > nearFraction*r.Time.LimitMS && r.Time.SlowestMS <= r.Time.LimitMS {
			r.Warnings = append(r.Warnings, fmt.Sprintf("the slowest move used %.0f%% of its %s limit: a loaded machine can push such a move into the cushion, where it is discarded",
				100*r.Time.SlowestMS/r.Time.LimitMS, fmtMS(r.Time.LimitMS)))
		}
	}
	if r.Memory.Limit > 0 && r.Memory.Value > nearFraction*r.Memory.Limit {
		r.Warnings = append(r.Warnings, fmt.Sprintf("memory peaked at %.0f MiB of the %.0f MiB limit", r.Memory.Value, r.Memory.Limit))
	}
	if r.CPU != nil && r.CPU.Limit > 0 && r.CPU.Value > nearFraction*r.CPU.Limit {
		r.Warnings = append(r.Warnings, fmt.Sprintf("a game used %s of the %s CPU budget: a longer game may run out", fmtMS(r.CPU.Value), fmtMS(r.CPU.Limit)))
	}
	if r.Stdout != "" {
		r.Warnings = append(r.Warnings, "the agent printed on stdout during the games; the arena discards it (stdout belongs to the plugin protocol): print diagnostics to stderr, which is kept with the game record")
	}
	if r.Startup.Limit > 0 && r.Startup.Value > nearFraction*r.Startup.Limit {
		r.Warnings = append(r.Warnings, fmt.Sprintf("start-up took %s of the %s allowed", fmtMS(r.Startup.Value), fmtMS(r.Startup.Limit)))
	}
	causes := r.Causes()
	r.Pass = len(causes) == 0
	r.Verdict = "PASS"
	if !r.Pass {
		r.Verdict = "FAIL: " + strings.Join(causes, ", ")
	}
}

// Causes lists the distinct causes of the report's problems, in order.
func (r *Report) Causes() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range r.Problems {
		if !seen[p.Cause] {
			seen[p.Cause] = true
			out = append(out, p.Cause)
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fmtMS(v float64) string {
	return time.Duration(v * float64(time.Millisecond)).Round(time.Millisecond).String()
}

// agentMessage strips the gRPC wrapping from an error an agent returned.
func agentMessage(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "desc = "); ok {
		msg = rest
	}
	return msg
}

// tailLines keeps the last n lines of s.
func tailLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
