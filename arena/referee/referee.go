// Package referee plays one match between two agents under a course
// profile: it asks the side to move through its agent handle, measures the
// reply's time around the call, judges the reply with the game's own parser,
// applies the profile's penalty for any failure, and writes every event into
// a record.Game.
package referee

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arena/arena/buildinfo"
	"arena/arena/clock"
	"arena/arena/record"
	"arena/arena/slots"
	"arena/engine"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// Handle is the referee's grip on one running agent.
type Handle interface {
	protocol.Agent
	// Kill ends the agent's process group; safe to repeat.
	Kill()
	// CPUTime is the agent's total CPU time so far.
	CPUTime() (time.Duration, error)
	// MemoryExceeded is closed when the agent was killed for its memory.
	MemoryExceeded() <-chan struct{}
	// Stderr is the captured tail of the agent's stderr.
	Stderr() string
}

// Sender is a Handle that says when a move request has left (MoveSent
// calls sent then, before it waits for the reply). The referee takes the
// agent's CPU readings there, while the agent wakes up, instead of on the
// move's critical path; a Handle without it is read before the request.
type Sender interface {
	MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error)
}

// Player is an agent entered in a match.
type Player struct {
	Name    string            // display name
	Ref     string            // agent reference
	Options map[string]string // passed to the agent at start
	Hash    string            // content hash, recorded
}

// Match is one game to referee.
type Match struct {
	ID        string
	Game      engine.Game
	Params    engine.Params
	Profile   engine.Profile
	Overrides []engine.Override
	Players   [2]Player // by seat; seat 0 moves first
	Seed      uint64
	// Opening, when set, is played from the start before the agents are
	// asked for a move: they see its moves as the game's history.
	Opening *record.Opening
}

// Launcher starts the agent for a seat.
type Launcher func(ctx context.Context, p Player, opt host.Options) (Handle, error)

// Referee plays matches. The zero value is not usable: set Launch.
type Referee struct {
	Launch Launcher
	// Clock measures and limits thinking time (default: the real clock).
	Clock clock.Clock
	// EndTimeout bounds the goodbye call to each agent (default 1 s).
	EndTimeout time.Duration
	// OnEvent, if set, is told of each event as it is recorded, so a
	// console can show a penalty when it happens. It is called from the
	// game's goroutine; games may run at once.
	OnEvent func(m *Match, e record.Event)
	// OnMove, if set, is told after each move is made (an agent's, a
	// substitute, a skipped turn, an opening's) with the record so far,
	// for a live view. It is called from the game's goroutine and must
	// not keep rec, which the referee goes on changing.
	OnMove func(m *Match, rec *record.Game)
	// Sample reads the machine's load for the contention evidence of late
	// moves (default: slots.Now).
	Sample func() (slots.Sample, bool)
	// Runtime tells what runs a player's agent, for the profile's memory
	// rule (engine.Profile.MemoryFor): a course JVM or Python agent is
	// held as its course held it. Nil: every agent is native.
	Runtime func(p Player) engine.Runtime
}

// HostLauncher launches agents as plugin subprocesses.
func HostLauncher(l *host.Launcher) Launcher {
	return func(ctx context.Context, p Player, opt host.Options) (Handle, error) {
		proc, err := l.Launch(ctx, p.Ref, opt)
		if err != nil {
			return nil, err
		}
		return Wrap(proc), nil
	}
}

// Wrap makes a running agent process a Handle.
func Wrap(p *host.Process) Handle { return processHandle{p} }

type processHandle struct{ *host.Process }

func (h processHandle) Describe(ctx context.Context) (protocol.Description, error) {
	return h.Agent.Describe(ctx)
}
func (h processHandle) Start(ctx context.Context, i protocol.StartInfo) error {
	return h.Agent.Start(ctx, i)
}
func (h processHandle) Move(ctx context.Context, r protocol.MoveRequest) (string, error) {
	return h.Agent.Move(ctx, r)
}
func (h processHandle) MoveSent(ctx context.Context, r protocol.MoveRequest, sent func()) (string, error) {
	if s, ok := h.Agent.(Sender); ok {
		return s.MoveSent(ctx, r, sent)
	}
	sent()
	return h.Agent.Move(ctx, r)
}
func (h processHandle) Observe(ctx context.Context, seat int, move string, ply int) error {
	return h.Agent.Observe(ctx, seat, move, ply)
}
func (h processHandle) End(ctx context.Context, i protocol.EndInfo) error {
	return h.Agent.End(ctx, i)
}

// Play referees one game to its end and returns its record. It returns an
// error only when the game could not be played at all (bad setup) or ctx
// was cancelled; agent failures are part of the record, never errors.
func (r *Referee) Play(ctx context.Context, m Match) (*record.Game, error) {
	if r.Launch == nil {
		return nil, errors.New("referee: no launcher")
	}
	prof := m.Profile
	if err := prof.Validate(); err != nil {
		return nil, err
	}
	st, err := m.Game.NewState(m.Params)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", m.ID, err)
	}
	clk := r.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	g := &game{
		ref:   r,
		m:     m,
		prof:  prof,
		clk:   clk,
		st:    st,
		rng:   rand.New(rand.NewPCG(m.Seed, 0x9e3779b97f4a7c15)),
		perMv: clock.PerMove{Limit: prof.MoveLimit, FirstLimit: prof.FirstMoveLimit, Cushion: prof.Cushion},
		bud:   clock.Budget{Total: prof.Budget, Grace: prof.BudgetGrace},
	}
	g.rec = &record.Game{
		Schema:  record.SchemaVersion,
		ID:      m.ID,
		Game:    m.Game.Info().Name,
		Params:  map[string]string(m.Params.Clone()),
		Profile: prof.Name,
		Seed:    m.Seed,
		Start:   st.Text(),
		Started: clk.Now().UTC(),
		Arena:   buildinfo.Current().Stamp(),
	}
	for _, o := range m.Overrides {
		g.rec.Overrides = append(g.rec.Overrides, o.String())
	}
	for i, p := range m.Players {
		g.rec.Agents[i] = record.Agent{Name: p.Name, Ref: p.Ref, Hash: p.Hash}
	}
	if err := g.playOpening(); err != nil {
		return nil, fmt.Errorf("match %s: opening %d: %w", m.ID, m.Opening.Index, err)
	}
	defer g.killAll()
	if err := g.run(ctx); err != nil {
		return nil, err
	}
	return g.rec, nil
}

// playOpening plays the match's opening, if any, as the record's first
// moves. No agent runs yet, so none is told of them but by the history of
// its first move request, which the protocol sends whole.
func (g *game) playOpening() error {
	o := g.m.Opening
	if o == nil {
		return nil
	}
	for ply, text := range o.Moves {
		if g.st.Terminal() {
			return fmt.Errorf("ply %d %q: the game is already over", ply, text)
		}
		mv, err := g.st.ParseMove(text)
		if err != nil {
			return fmt.Errorf("ply %d %q: %w", ply, text, err)
		}
		g.apply(g.st.ToMove(), mv, record.SourceOpening, 0)
	}
	if g.st.Terminal() {
		return errors.New("the game is over after the opening")
	}
	g.rec.Opening = &record.Opening{Index: o.Index, Moves: append([]string(nil), g.history...)}
	return nil
}

// game is the state of one match in progress.
type game struct {
	ref   *Referee
	m     Match
	prof  engine.Profile
	clk   clock.Clock
	st    engine.State
	rng   *rand.Rand
	perMv clock.PerMove
	bud   clock.Budget
	rec   *record.Game

	h       [2]Handle
	dead    [2]bool // gone for the rest of the game
	restart [2]bool // killed after a missed deadline; relaunch before its next turn
	asked   [2]int  // move requests sent, for the first-move allowance

	// cpuDue is, per seat, the agent's last move still owed its CPU
	// reading after the reply (see settleCPU); launched counts each seat's
	// launches, so a reading of a later process never settles it.
	cpuDue   [2]pendingCPU
	launched [2]int

	deathRecorded [2]bool // the death event is written once per seat
	history       []string
	buf           []engine.Move
	over          bool

	load   slots.Sample // the last load reading for move records
	loadAt time.Time

	mem [2]engine.MemoryRule // each seat's memory rule
}

// Releaser is a Handle that can outlive its game: at the game's end the
// referee releases it instead of killing it (a league keeping agent
// processes for their next game). Kill still ends it for good.
type Releaser interface {
	Release()
}

func (g *game) killAll() {
	for i, h := range g.h {
		if h != nil {
			if s := h.Stderr(); s != "" {
				g.rec.Stderr[i] = s
			}
			if r, ok := h.(Releaser); ok && !g.dead[i] && !g.restart[i] {
				r.Release()
				continue
			}
			h.Kill()
			if s := h.Stderr(); s != "" {
				g.rec.Stderr[i] = s
			}
		}
	}
}

func (g *game) run(ctx context.Context) error {
	// Both agents start together: a slow starter must not eat its
	// opponent's time.
	type started struct {
		seat int
		err  error
	}
	ch := make(chan started, 2)
	for seat := range 2 {
		go func() { ch <- started{seat, g.launch(ctx, seat)} }()
	}
	var noShow [2]error
	for range 2 {
		s := <-ch
		noShow[s.seat] = s.err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// A course Python agent whose constructor passed the course's space
	// limit came, as its course saw it, and lost for space: the course's
	// referee measured __init__ as it measured every call.
	var breach [2]string
	for seat, err := range noShow {
		if d, ok := g.startSpaceBreach(seat, err); ok {
			breach[seat], noShow[seat] = d, nil
			g.dead[seat], g.deathRecorded[seat] = true, true
		}
	}
	// An agent that never completed its handshake never played: it
	// forfeits whatever the profile says about dead agents, and two such
	// agents leave no result.
	for seat, err := range noShow {
		if err != nil {
			g.dead[seat] = true
			g.deathRecorded[seat] = true
			g.event(seat, engine.FailNoShow, engine.Loss, "did not complete the handshake: "+err.Error(), "")
		}
	}
	switch {
	case noShow[0] != nil && noShow[1] != nil:
		g.finishNoResult("neither agent completed the handshake")
		g.rec.Result.Forfeit = string(engine.FailNoShow)
	case noShow[0] != nil, noShow[1] != nil:
		seat := 0
		if noShow[0] == nil {
			seat = 1
		}
		g.forfeit(seat, engine.FailNoShow, nil)
		g.rec.Result.Detail = protocol.Bounded(noShow[seat].Error(), 4*keepReply)
	}
	for seat, d := range breach {
		if d != "" && !g.over {
			g.penalize(seat, engine.FailMemory, d, "")
		}
	}
	// A start-up that blew the CPU budget loses before the first move.
	for seat := range 2 {
		if g.over {
			break
		}
		if !g.dead[seat] && g.prof.Time == engine.CPUBudget {
			g.chargeCPU(seat)
		}
	}
	for !g.over && !g.st.Terminal() {
		if err := ctx.Err(); err != nil {
			return err
		}
		seat := g.st.ToMove()
		if g.dead[seat] && g.dead[1-seat] && g.prof.PenaltyFor(engine.FailDead) == engine.SkipTurn {
			g.finishNoResult("both agents are dead")
			break
		}
		if err := g.turn(ctx, seat); err != nil {
			return err
		}
	}
	if !g.over {
		res := g.st.Result()
		g.rec.Result = record.Result{Winner: res.Winner, Draw: res.Draw, Reason: res.Reason}
		if g.m.Game.Info().HasScores {
			g.rec.Result.Scores = []int{res.Scores[0], res.Scores[1]}
		}
	}
	g.rec.Final = g.st.Text()
	g.settleCPU(0)
	g.settleCPU(1)
	g.goodbye(ctx)
	g.rec.Ended = g.clk.Now().UTC()
	return nil
}

// launch starts seat's agent and opens the game with it.
func (g *game) launch(ctx context.Context, seat int) error {
	p := g.m.Players[seat]
	rt := engine.RuntimeNative
	if g.ref.Runtime != nil {
		rt = g.ref.Runtime(p)
	}
	g.mem[seat] = g.prof.MemoryFor(rt)
	h, err := g.ref.Launch(ctx, p, host.Options{StartTimeout: g.prof.StartupTimeout, MemoryMB: g.mem[seat].TreeMB, MaxReplyBytes: g.prof.ReplyLimit()})
	if err != nil {
		return err
	}
	g.h[seat] = h
	g.launched[seat]++
	sctx := ctx
	var cancel context.CancelFunc = func() {}
	if g.prof.StartupTimeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, g.prof.StartupTimeout)
	}
	defer cancel()
	err = h.Start(sctx, protocol.StartInfo{
		GameID:   g.m.ID,
		Game:     g.m.Game.Info().Name,
		Params:   map[string]string(g.m.Params),
		Seat:     seat,
		Profile:  g.prof.Name,
		Opponent: g.m.Players[1-seat].Name,
		Options:  withOptions(p.Options, g.mem[seat].Options()),
		Seed:     g.m.Seed*2 + uint64(seat) + 1,
		Clock: protocol.Clock{
			Model: string(g.prof.Time), MoveLimit: g.prof.MoveLimit, FirstMoveLimit: g.prof.FirstMoveLimit,
			Cushion: g.prof.Cushion, Budget: g.prof.Budget,
		},
	})
	if err != nil {
		h.Kill()
		return fmt.Errorf("start game: %w", err)
	}
	return nil
}

// withOptions is the player's start options with the referee's extra
// ones, which win a clash: a player's options cannot widen its rule.
func withOptions(own, extra map[string]string) map[string]string {
	if len(extra) == 0 {
		return own
	}
	out := make(map[string]string, len(own)+len(extra))
	for k, v := range own {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// reply is what came back from one move request.
type reply struct {
	text string
	err  error
}

func (r reply) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	return r.text
}

// relaunch starts a fresh process for seat after a missed deadline; a
// failure to start is the agent's death, an error only when ctx ended.
func (g *game) relaunch(ctx context.Context, seat int) error {
	g.restart[seat] = false
	if g.h[seat] != nil {
		g.settleCPU(seat)
		g.h[seat].Kill()
	}
	if err := g.launch(ctx, seat); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.dead[seat] = true
		g.event(seat, engine.FailDead, "", "restart after a missed deadline failed: "+err.Error(), "")
		return nil
	}
	g.event(seat, "restart", "", "agent restarted after a missed deadline", "")
	return nil
}

// request is seat's move request now, with the limit its reply is judged
// against and the hard deadline that cancels it.
func (g *game) request(seat int, first bool) (req protocol.MoveRequest, limit, hard time.Duration) {
	var timeLeft time.Duration
	if g.prof.Time == engine.CPUBudget {
		hard = g.bud.Hard(seat)
		limit = hard
		timeLeft = g.bud.Remaining(seat)
	} else {
		limit, hard = g.perMv.Window(first)
		timeLeft = limit
	}
	req = protocol.MoveRequest{
		// Capped: the history only grows by appends, which can then never
		// write into what the agent's handle was given.
		History:  g.history[:len(g.history):len(g.history)],
		Board:    g.st.Text(),
		Seat:     seat,
		Ply:      g.st.Ply(),
		TimeLeft: timeLeft,
	}
	req.Deadline = g.clk.Now().Add(limit)
	if v, ok := g.st.(engine.AgentViewer); ok {
		view, err := v.AgentView(seat, g.m.Players[1-seat].Name, req.Deadline)
		if err == nil {
			req.View = view
		}
	}
	return req, limit, hard
}

// timedOut judges a request the hard deadline cancelled, elapsed after it
// left; before is the agent's reading then.
func (g *game) timedOut(seat int, h Handle, elapsed, limit, hard time.Duration, before usageReading) {
	detail := fmt.Sprintf("no reply within %v (waited %v)", hard, elapsed.Round(time.Millisecond))
	// Measured before a restart kills the process and its CPU count.
	ev := g.evidence(h, elapsed, limit, before)
	defer g.attach(len(g.rec.Events), ev)
	if g.prof.PenaltyFor(engine.FailTimeout) != engine.Loss {
		// The agent may still be thinking about this request; a fresh
		// process answers the next one, as the course client reconnected.
		h.Kill()
		g.restart[seat] = true
	}
	g.penalize(seat, engine.FailTimeout, detail, "")
}

// turn gets one move for seat, by asking its agent or by the profile's
// penalty, and applies it (or ends the game).
func (g *game) turn(ctx context.Context, seat int) error {
	if g.restart[seat] && !g.dead[seat] {
		if err := g.relaunch(ctx, seat); err != nil {
			return err
		}
	}
	if g.dead[seat] {
		g.penalize(seat, engine.FailDead, "", "")
		return nil
	}
	h := g.h[seat]
	first := g.asked[seat] == 0
	g.asked[seat]++
	req, limit, hard := g.request(seat, first)
	before := usageReading{err: errNotSent}
	sent := func() {
		before = g.readUsage(h)
		if before.err == nil {
			g.settle(seat, before.cpu) // moving again: the same instant ends its last move
		}
		g.settleCPU(1 - seat)
	}
	rp, timedOut, start := g.ask(ctx, h, req, hard, sent)
	if err := ctx.Err(); err != nil && rp.err != nil {
		return err // the game is called off; the failure is the arena's
	}
	if timedOut {
		g.timedOut(seat, h, g.clk.Now().Sub(start), limit, hard, before)
		return nil
	}
	if rp.err != nil && isMemory(h) {
		g.penalize(seat, engine.FailMemory, g.mem[seat].Breach(), "")
		return nil
	}
	elapsed := g.clk.Now().Sub(start)
	wall := float64(elapsed.Microseconds()) / 1000

	// The clock first: a late reply is discarded whatever it says.
	var after time.Duration // under a CPU budget, the reading after the reply
	afterOK := false
	if g.prof.Time == engine.CPUBudget {
		var ended bool
		if ended, after, afterOK = g.chargeCPU(seat); ended {
			return nil
		}
	} else {
		verdict := g.perMv.Judge(first, elapsed)
		if verdict == clock.Late || verdict == clock.Over {
			defer g.attach(len(g.rec.Events), g.evidence(h, elapsed, limit, before))
		}
		switch verdict {
		case clock.Late:
			g.penalize(seat, engine.FailLate, fmt.Sprintf("reply after %v, past the %v limit; discarded", elapsed.Round(time.Millisecond), limit), rp.String())
			return nil
		case clock.Over:
			g.penalize(seat, engine.FailTimeout, fmt.Sprintf("reply after %v, past the %v deadline", elapsed.Round(time.Millisecond), hard), rp.String())
			return nil
		}
	}
	if rp.err != nil {
		g.replyFailed(seat, h, rp.err)
		return nil
	}
	if n := len(rp.text); n > g.prof.ReplyLimit() {
		g.badReply(seat, fmt.Sprintf("reply of %d bytes, over the %d-byte limit", n, g.prof.ReplyLimit()), rp.text)
		return nil
	}
	if why := protocol.ValidText(rp.text); why != "" {
		g.badReply(seat, why, rp.text)
		return nil
	}
	mv, err := g.st.ParseMove(rp.text)
	if err != nil {
		var me *engine.MoveError
		if !errors.As(err, &me) {
			me = &engine.MoveError{Kind: engine.Unparseable, Text: rp.text, Detail: err.Error()}
		}
		f := engine.FailIllegal
		if me.Kind == engine.Unparseable {
			f = engine.FailUnparseable
		}
		g.penalizeMove(seat, f, me)
		return nil
	}
	g.apply(seat, mv, record.SourceAgent, wall)
	if before.err == nil {
		g.cpuDue[seat] = pendingCPU{due: true, launch: g.launched[seat], move: len(g.rec.Moves) - 1, before: before.cpu}
		if afterOK {
			// The budget's reading, taken before the move's notifications:
			// what the agent does with its own move's is not its move.
			g.settle(seat, after)
		}
	}
	if load, ok := g.moveLoad(); ok {
		g.rec.Moves[len(g.rec.Moves)-1].Load = &load
	}
	return nil
}

// replyFailed judges a reply that came back as an error in time: one the
// transport refused (too large, malformed), a course Python agent's space
// breach, the agent's own error, or a process that died or hung up.
func (g *game) replyFailed(seat int, h Handle, err error) {
	switch {
	case protocol.IsBadReply(err):
		g.badReply(seat, err.Error(), "")
	case g.spaceBreach(seat, err):
	case protocol.IsAgentError(err):
		g.penalize(seat, engine.FailError, err.Error(), "")
	default:
		if killedForMemory(h) {
			g.penalize(seat, engine.FailMemory, g.mem[seat].Breach(), "")
			return
		}
		g.dead[seat] = true
		g.penalize(seat, engine.FailDead, "agent process died or hung up: "+err.Error(), "")
	}
}

// killedForMemory kills an agent whose call failed and reports whether it
// had gone over its memory. The kill settles that: the host reads the
// kernel's verdict once more as it kills, so an OOM kill its watcher had
// not yet seen (the busier the machine, the likelier) is not judged a
// death.
func killedForMemory(h Handle) bool {
	h.Kill()
	return isMemory(h)
}

// ask sends req and waits for the reply, on the game's goroutine: a move
// is the call made dozens of times a game, and a goroutine and a channel
// per call, with the wake-ups of the runtime's threads they cost, took
// longer than the round trip itself. The deadline, hard after the
// request, cancels the call; timedOut says it did before a reply came.
// A memory breach needs no watch: the host kills the agent, so the call
// fails. start is the clock when the request left.
func (g *game) ask(ctx context.Context, h Handle, req protocol.MoveRequest, hard time.Duration, sent func()) (rp reply, timedOut bool, start time.Time) {
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var fired atomic.Bool
	s, ok := h.(Sender)
	if !ok {
		sent()
	}
	start = g.clk.Now()
	stop := g.clk.AfterFunc(hard, func() {
		fired.Store(true)
		cancel()
	})
	if ok {
		rp.text, rp.err = s.MoveSent(callCtx, req, sent)
	} else {
		rp.text, rp.err = h.Move(callCtx, req)
	}
	// A reply is judged by its time (Judge), even one that came with the
	// deadline; a call the deadline ended is a timeout.
	if !stop() && fired.Load() && rp.err != nil && ctx.Err() == nil {
		return rp, true, start
	}
	return rp, false, start
}

// errNotSent: a move request never left, so its agent was not read.
var errNotSent = errors.New("the request was not sent")

// pendingCPU is a move owed the CPU reading after its reply.
type pendingCPU struct {
	due    bool
	launch int           // the launch of the process read (game.launched)
	move   int           // the move's index in the record
	before time.Duration // the reading when its request left
}

// settleCPU gives seat's last move, if it is owed one, the reading after
// its reply. The reading is put off to the next request's sending, where
// it costs no time on any move's round trip; the agent is idle between its
// reply and then, so the count (in 10 ms clock ticks) is the same. Before
// a game's end or a restart the reading is taken at once.
func (g *game) settleCPU(seat int) {
	if !g.cpuDue[seat].due || g.h[seat] == nil {
		return
	}
	if after, err := g.h[seat].CPUTime(); err == nil {
		g.settle(seat, after)
	}
	g.cpuDue[seat] = pendingCPU{}
}

// settle records after, a reading of seat's current process, as the one
// after its pending move, if that move was read from the same process.
func (g *game) settle(seat int, after time.Duration) {
	d := g.cpuDue[seat]
	g.cpuDue[seat] = pendingCPU{}
	if !d.due || d.launch != g.launched[seat] {
		return
	}
	ms := float64((after - d.before).Microseconds()) / 1000
	g.rec.Moves[d.move].MoveCPUMS = &ms
}

// badReply judges a reply that is no move text at all (too large, not
// UTF-8, NUL bytes) as the profile judges an unparseable move, with the
// game's own reason for one.
func (g *game) badReply(seat int, why, text string) {
	// What the record keeps, and what the game's parser is shown so that
	// its verdict carries the course's reason and kind (hex cross-out calls
	// any bad text illegal): a bounded prefix without NUL bytes, or a
	// description of a reply never received.
	shown := strings.ReplaceAll(protocol.Bounded(text, keepReply), "\x00", "\uFFFD")
	if text == "" {
		shown = "<" + why + ">"
	}
	me := &engine.MoveError{Kind: engine.Unparseable, Text: shown, Detail: why}
	if _, err := g.st.ParseMove(shown); err != nil {
		var ge *engine.MoveError
		if errors.As(err, &ge) {
			// The parser's detail would be about the stand-in text; the
			// reason is the course's.
			me.Kind, me.Reason = ge.Kind, ge.Reason
		}
	}
	f := engine.FailUnparseable
	if me.Kind == engine.Illegal {
		f = engine.FailIllegal
	}
	g.penalty(seat, f, why, shown, me)
}

func isMemory(h Handle) bool {
	select {
	case <-h.MemoryExceeded():
		return true
	default:
		return false
	}
}

// chargeCPU reads seat's CPU time and ends the game if the budget is
// blown. It reports whether the game ended, and the reading (read: one
// was taken).
func (g *game) chargeCPU(seat int) (ended bool, used time.Duration, read bool) {
	h := g.h[seat]
	if h == nil {
		return false, 0, false
	}
	used, err := h.CPUTime()
	if err != nil {
		return false, 0, false // the process is gone; the caller sees that separately
	}
	if g.bud.Charge(seat, used) == clock.Over {
		g.penalize(seat, engine.FailTimeout, fmt.Sprintf("used %v of CPU, over the %v budget", used.Round(time.Millisecond), g.bud.Total), "")
		return true, used, true
	}
	if isMemory(h) {
		g.penalize(seat, engine.FailMemory, g.mem[seat].Breach(), "")
		return true, used, true
	}
	return false, used, true
}

// apply plays a move and tells the agents when the profile asks for it.
func (g *game) apply(seat int, mv engine.Move, source string, wallMS float64) {
	text := g.st.FormatMove(mv)
	ply := len(g.history) // counts skipped turns too, unlike some games' Ply
	g.st.Apply(mv)
	g.history = append(g.history, text)
	rm := record.Move{Ply: ply, Seat: seat, Text: text, Source: source, WallMS: wallMS}
	if g.prof.Time == engine.CPUBudget {
		rm.CPUMS = float64(g.bud.Used(seat).Microseconds()) / 1000
	}
	g.rec.Moves = append(g.rec.Moves, rm)
	g.moved()
	if g.prof.NotifyMoves {
		g.notify(seat, text, ply)
	}
}

// moved tells the referee's OnMove of the record so far.
func (g *game) moved() {
	if g.ref.OnMove != nil {
		g.ref.OnMove(&g.m, g.rec)
	}
}

// notify tells both live agents of a move, red first as the course did,
// charging each notification to its receiver.
func (g *game) notify(mover int, text string, ply int) {
	for s := range 2 {
		if g.over || g.dead[s] || g.h[s] == nil {
			continue
		}
		wait := g.bud.Hard(s)
		if g.prof.Time != engine.CPUBudget {
			_, wait = g.perMv.Window(false)
		}
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		err := g.h[s].Observe(ctx, mover, text, ply)
		cancel()
		if err != nil && !g.dead[s] {
			if isMemory(g.h[s]) {
				g.penalize(s, engine.FailMemory, g.mem[s].Breach(), "")
				continue
			}
			if g.spaceBreach(s, err) {
				continue
			}
			if killedForMemory(g.h[s]) {
				g.penalize(s, engine.FailMemory, g.mem[s].Breach(), "")
				continue
			}
			g.dead[s] = true
			g.penalize(s, engine.FailDead, "agent failed a move notification: "+err.Error(), "")
			continue
		}
		if g.prof.Time == engine.CPUBudget {
			g.chargeCPU(s)
		}
	}
}

// spaceBreach judges a course Python agent's report that its peak passed
// the course's space limit (engine.SpaceBreach) as a memory failure. Only
// an agent held to that rule can report it: from any other it stays an
// agent error.
func (g *game) spaceBreach(seat int, err error) bool {
	detail, ok := g.spaceBreachDetail(seat, err)
	if ok {
		g.penalize(seat, engine.FailMemory, detail, "")
	}
	return ok
}

// startSpaceBreach is spaceBreachDetail for the error of opening a game,
// which the protocol returns as the agent's text ("the agent failed:
// ...") rather than as an AgentError.
func (g *game) startSpaceBreach(seat int, err error) (string, bool) {
	if d, ok := g.spaceBreachDetail(seat, err); ok || err == nil || g.mem[seat].PythonPeakMB <= 0 {
		return d, ok
	}
	_, detail, ok := strings.Cut(err.Error(), "the agent failed: "+engine.SpaceBreach)
	return detail, ok
}

// spaceBreachDetail is the detail of err when it is a course Python
// agent's report of a space breach (spaceBreach).
func (g *game) spaceBreachDetail(seat int, err error) (string, bool) {
	var ae *protocol.AgentError
	if err == nil || g.mem[seat].PythonPeakMB <= 0 || !errors.As(err, &ae) {
		return "", false
	}
	return strings.CutPrefix(ae.Message, engine.SpaceBreach)
}

// penalizeMove handles an unparseable or illegal reply.
func (g *game) penalizeMove(seat int, f engine.Failure, me *engine.MoveError) {
	g.penalty(seat, f, me.Detail, me.Text, me)
}

// penalize handles a failure that is not about the move text; replyText is
// the discarded reply, if any.
func (g *game) penalize(seat int, f engine.Failure, detail, replyText string) {
	g.penalty(seat, f, detail, replyText, nil)
}

// penalty applies the profile's penalty for failure f of seat, following
// "as-timeout" and "as-dead" indirections, and records one event.
func (g *game) penalty(seat int, f engine.Failure, detail, replyText string, me *engine.MoveError) {
	cause := f
	pen := g.prof.PenaltyFor(f)
	for range 3 {
		switch pen {
		case engine.AsTimeout:
			f = engine.FailTimeout
			pen = g.prof.PenaltyFor(f)
			continue
		case engine.AsDead:
			if g.h[seat] != nil {
				g.h[seat].Kill()
			}
			g.dead[seat] = true
			// This failure's event stands for the death: one breach, one
			// penalty in the record.
			g.deathRecorded[seat] = true
			f = engine.FailDead
			pen = g.prof.PenaltyFor(f)
			continue
		}
		break
	}
	// A dead agent's later turns are routine; record its death once.
	if cause != engine.FailDead || !g.deathRecorded[seat] {
		g.event(seat, cause, pen, detail, replyText)
	}
	switch pen {
	case engine.RandomMove:
		var mv engine.Move
		var ok bool
		mv, g.buf, ok = engine.SubstituteMove(g.st, g.rng, g.buf)
		if !ok {
			g.finishNoResult("no legal move to substitute")
			return
		}
		g.apply(seat, mv, record.SourceRandom, 0)
	case engine.SkipTurn:
		p, ok := g.st.(engine.Passer)
		if !ok {
			g.forfeit(seat, f, me)
			return
		}
		ply := len(g.history)
		p.Pass()
		g.history = append(g.history, "")
		g.rec.Moves = append(g.rec.Moves, record.Move{Ply: ply, Seat: seat, Source: record.SourceSkip})
		g.moved()
	default:
		g.forfeit(seat, f, me)
	}
}

// forfeit ends the game: seat loses for failure f.
func (g *game) forfeit(seat int, f engine.Failure, me *engine.MoveError) {
	reason := g.prof.ReasonFor(f, seat)
	detail := ""
	if me != nil {
		if reason == "" {
			reason = me.Reason
		}
		detail = me.Detail
	}
	if reason == "" {
		reason = fmt.Sprintf("%s: player %d", strings.ToUpper(string(f)), seat+1)
	}
	g.over = true
	// Some course reasons quote the reply (hex cross-out's "played ..."):
	// the record keeps a bounded prefix of it, as of every bad reply.
	g.rec.Result = record.Result{Winner: 1 - seat, Reason: protocol.Bounded(reason, 4*keepReply), Detail: protocol.Bounded(detail, 4*keepReply), Forfeit: string(f)}
	if g.m.Game.Info().HasScores {
		s := g.st.Scores()
		g.rec.Result.Scores = []int{s[0], s[1]}
	}
}

func (g *game) finishNoResult(why string) {
	g.over = true
	g.rec.Result = record.Result{Winner: engine.NoSeat, Reason: "NO RESULT: " + why}
}

// goodbye tells live agents the result; their processes are killed after.
func (g *game) goodbye(ctx context.Context) {
	timeout := g.ref.EndTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	info := protocol.EndInfo{Winner: g.rec.Result.Winner, Draw: g.rec.Result.Draw, Reason: g.rec.Result.Reason, Scores: g.rec.Result.Scores}
	end := func(s int) {
		if g.h[s] == nil || g.dead[s] || g.restart[s] {
			return
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		_ = g.h[s].End(cctx, info)
		cancel()
	}
	// Both at once: the two round trips overlap, and an agent slow to
	// take its leave does not hold up its opponent's.
	var wg sync.WaitGroup
	wg.Go(func() { end(1) })
	end(0)
	wg.Wait()
}

// keepReply bounds the part of a discarded reply a record keeps.
const keepReply = 256

// event records what the referee did about seat. Only a bounded prefix of
// the reply is kept: a reply is the agent's to make as large as it likes.
func (g *game) event(seat int, kind engine.Failure, pen engine.Penalty, detail, reply string) {
	if kind == engine.FailDead {
		g.deathRecorded[seat] = true
	}
	ev := record.Event{Ply: g.st.Ply(), Seat: seat, Kind: string(kind), Penalty: string(pen),
		Detail: protocol.Bounded(detail, 4*keepReply), Reply: protocol.Bounded(reply, keepReply)}
	g.rec.Events = append(g.rec.Events, ev)
	if g.ref.OnEvent != nil {
		g.ref.OnEvent(&g.m, ev)
	}
}
