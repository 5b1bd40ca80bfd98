package lua

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	glua "github.com/yuin/gopher-lua"

	"arena/engine"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// startLimit bounds loading a script and its init when the arena gave no
// deadline for the start.
const startLimit = 30 * time.Second

// stopGrace is how long a call waits past its deadline for the script to
// report where it was stopped.
const stopGrace = 100 * time.Millisecond

// backstop is how long past the referee's hard deadline (the move's limit
// plus the cushion) a script is stopped when its caller never cancels the
// request. The referee has judged the move a timeout by then; the host
// never stops a script before that, for the time is the agent's.
const backstop = 500 * time.Millisecond

// Options configure a Lua agent.
type Options struct {
	// Params are the agent's parameters (from "lua:PATH?k=v"); the script's
	// init sees them as game_info.params.
	Params map[string]string
	// MemoryMB caps the heap while the script runs (default
	// DefaultMemoryMB).
	MemoryMB int
	// Stderr receives print output and tracebacks (default os.Stderr).
	Stderr io.Writer
	// Cache shares compiled scripts (default: a cache of the agent's own).
	Cache *Cache
	// OnRunaway is called when the heap passes twice the cap although the
	// script was told to stop: one library call allocated past it. The
	// agent host ends its process there; nil leaves it to the caller.
	OnRunaway func(heap, limit uint64)
}

// Agent is a Lua script playing as an sdk.Agent. Each game gets a fresh
// Lua state, owned by a goroutine of its own that runs every call into it.
type Agent struct {
	script *Script
	opts   Options
	watch  heapWatch

	mu      sync.Mutex
	w       *worker       // the current game's
	cushion time.Duration // the current game's, from its clock
}

var (
	_ sdk.Agent     = (*Agent)(nil)
	_ sdk.Starter   = (*Agent)(nil)
	_ sdk.Ender     = (*Agent)(nil)
	_ sdk.Describer = (*Agent)(nil)
)

// New compiles the script at path (through opts.Cache) and returns an
// agent that runs it.
func New(path string, opts Options) (*Agent, error) {
	if opts.Cache == nil {
		opts.Cache = new(Cache)
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.MemoryMB <= 0 {
		opts.MemoryMB = DefaultMemoryMB
	}
	s, err := opts.Cache.Load(path)
	if err != nil {
		return nil, err
	}
	limit := uint64(opts.MemoryMB) << 20
	w := heapWatch{limit: limit, onRunaway: opts.OnRunaway}
	if opts.OnRunaway != nil {
		w.hard = 2 * limit
	}
	return &Agent{script: s, opts: opts, watch: w}, nil
}

// Describe names the agent after its script.
func (a *Agent) Describe() protocol.Description {
	return protocol.Description{
		Name:        "lua:" + filepath.Base(a.script.Path),
		Description: fmt.Sprintf("Lua script %s (sha256 %s)", a.script.Path, a.script.Hash[:12]),
	}
}

// Start opens a game: a new Lua state runs the script's top level, then
// its init(game_info) if it has one.
func (a *Agent) Start(ctx context.Context, g sdk.Game) error {
	w := newWorker()
	a.mu.Lock()
	old := a.w
	a.w = w
	a.cushion = g.Clock.Cushion
	a.mu.Unlock()
	if old != nil {
		old.close()
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startLimit)
		defer cancel()
	}
	return w.run(ctx, func() error {
		s, err := a.open(ctx, g)
		if err != nil {
			return err
		}
		w.sess = s
		return nil
	})
}

// Move asks choose_move(state, clock) for the move. The script sees the
// move's deadline (the limit) in its clock, but runs until the request is
// cancelled, which the referee does at its hard deadline: a script that
// has not returned by then has not replied, a timeout, exactly as any
// agent. It is never stopped at the limit itself, which would turn a
// runaway script into an error report or a late reply. Past the hard
// deadline plus a backstop it is stopped for callers that never cancel. A
// script error is returned as the agent's error; a returned string is the
// move, legal or not.
func (a *Agent) Move(ctx context.Context, t sdk.Turn) (string, error) {
	a.mu.Lock()
	w, cushion := a.w, a.cushion
	a.mu.Unlock()
	if w == nil {
		return "", errors.New("lua agent: move requested before the game started")
	}
	deadline := t.Deadline
	if deadline.IsZero() && t.TimeLeft > 0 {
		deadline = time.Now().Add(t.TimeLeft)
	}
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(cushion+backstop))
		defer cancel()
	}
	var move string
	err := w.run(ctx, func() error {
		switch {
		case w.sess == nil:
			return errors.New("lua agent: the game did not start")
		case w.sess.lost != nil:
			return fmt.Errorf("lua agent: no Lua state since an earlier failure in this game: %w", w.sess.lost)
		}
		var err error
		move, err = a.move(ctx, w.sess, t, deadline)
		var le *lostError
		if errors.As(err, &le) {
			w.sess.lost = le
		}
		return err
	})
	return move, err
}

// End closes the game's Lua state.
func (a *Agent) End(context.Context, protocol.EndInfo) error {
	a.Close()
	return nil
}

// Close ends the current game's Lua state, if any.
func (a *Agent) Close() {
	a.mu.Lock()
	w := a.w
	a.w = nil
	a.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// session is one game's Lua state and what the agent keeps about it.
type session struct {
	L      *glua.LState
	env    *gameEnv
	choose *glua.LFunction
	game   sdk.Game
	lost   error // set when a failure left L unusable
}

func (a *Agent) open(ctx context.Context, g sdk.Game) (*session, error) {
	src := rand.NewPCG(g.Seed, pcgStream)
	rng := rand.New(src)
	L := newSandbox(a.opts.Stderr, src, rng)
	env := newGameEnv(L, g.Game, engine.Params(g.Params), g.Seat, src, rng)
	env.openSearch(L)
	s := &session{L: L, env: env, game: g}
	fail := func(err error) (*session, error) {
		L.Close()
		return nil, err
	}
	chunk := L.NewFunctionFromProto(a.script.proto)
	if err := a.protect(ctx, L, "loading the script", func(h *glua.LFunction) error {
		L.Push(chunk)
		return L.PCall(0, 0, h)
	}); err != nil {
		return fail(err)
	}
	choose, ok := L.GetGlobal("choose_move").(*glua.LFunction)
	if !ok {
		return fail(fmt.Errorf("%s: the script defines no global function choose_move(state, clock)", a.script.Path))
	}
	s.choose = choose
	if init, ok := L.GetGlobal("init").(*glua.LFunction); ok {
		info := a.gameInfo(L, g)
		if err := a.protect(ctx, L, "init", func(h *glua.LFunction) error {
			return L.CallByParam(glua.P{Fn: init, NRet: 0, Protect: true, Handler: h}, info)
		}); err != nil {
			return fail(err)
		}
	}
	return s, nil
}

func (a *Agent) move(ctx context.Context, s *session, t sdk.Turn, deadline time.Time) (string, error) {
	if t.State == nil {
		return "", errors.New("lua agent: no position to move in")
	}
	L := s.L
	began := time.Now()
	state := s.env.wrap(t.State)
	clock := a.clock(L, s, t, began, deadline)
	var ret glua.LValue
	err := a.protect(ctx, L, "choose_move", func(h *glua.LFunction) error {
		if err := L.CallByParam(glua.P{Fn: s.choose, NRet: 1, Protect: true, Handler: h}, state, clock); err != nil {
			return err
		}
		ret = L.Get(-1)
		L.Pop(1)
		return nil
	})
	if err != nil {
		return "", err
	}
	str, ok := ret.(glua.LString)
	if !ok {
		example := ""
		if len(t.Legal) > 0 {
			example = fmt.Sprintf(" such as %q", t.Legal[0])
		}
		return "", fmt.Errorf("%s:%d: choose_move returned %s, want the move as text%s",
			a.script.Path, s.choose.Proto.LineDefined, describeValue(ret), example)
	}
	return string(str), nil
}

func describeValue(v glua.LValue) string {
	switch v := v.(type) {
	case *glua.LNilType:
		return "nil (nothing)"
	case glua.LNumber:
		return "the number " + v.String()
	case glua.LBool:
		return "the boolean " + v.String()
	}
	return "a " + v.Type().String()
}

// protect runs f (a protected Lua call, given the error handler to use)
// under ctx and the heap watch, and turns a failure into the message a
// script author needs: where it happened, and why it was stopped if it was.
func (a *Agent) protect(ctx context.Context, L *glua.LState, what string, f func(handler *glua.LFunction) error) error {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var trace string
	handler := traceHandler(L, &trace)
	stop := a.watch.start(cancel)
	began := time.Now()
	L.SetContext(fastDone{cctx, cctx.Done()})
	err, lost := callRecovering(func() error { return f(handler) })
	L.RemoveContext()
	stop()
	if err == nil {
		return nil
	}
	msg := luaError(err)
	if lost {
		fmt.Fprintf(a.opts.Stderr, "lua: %s: %s\n", what, msg)
		return &lostError{fmt.Errorf("lua %s: %s; the script's Lua state is lost for the rest of the game", what, msg)}
	}
	var stopped string
	var me *memoryError
	switch cause := context.Cause(cctx); {
	case errors.As(cause, &me):
		stopped = me.Error()
		// The script is stopped; give its garbage back before the next call.
		debug.FreeOSMemory()
	case errors.Is(cause, context.DeadlineExceeded):
		stopped = fmt.Sprintf("stopped past the hard deadline (limit + cushion), after %v", time.Since(began).Round(time.Millisecond))
	case cause != nil:
		stopped = fmt.Sprintf("stopped: the referee gave up waiting, after %v", time.Since(began).Round(time.Millisecond))
	}
	if stopped != "" {
		// gopher-lua raises the context's error at the instruction it
		// stopped; keep that position, replace the text. A different
		// message is the script's own error, raised first.
		for _, s := range []string{context.DeadlineExceeded.Error(), context.Canceled.Error()} {
			if strings.Contains(msg, s) {
				msg = strings.Replace(msg, s, stopped, 1)
				break
			}
		}
	}
	if trace != "" {
		fmt.Fprintf(a.opts.Stderr, "lua: %s: %s\n%s\n", what, msg, trace)
	}
	return fmt.Errorf("lua %s: %s", what, msg)
}

// callRecovering runs a protected Lua call, recovering the one panic that
// escapes gopher-lua's protection: an error raised with the registry full
// (a registry overflow) panics again while the error handler is pushed.
// The Lua state is inconsistent afterwards, so lost reports it.
func callRecovering(f func() error) (err error, lost bool) {
	defer func() {
		if r := recover(); r != nil {
			lost = true
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	return f(), false
}

// lostError is a failure after which the game's Lua state cannot be used.
type lostError struct{ error }

func (e *lostError) Unwrap() error { return e.error }

// fastDone is a context whose Done is a plain field read: gopher-lua
// polls Done before every instruction, and a cancelCtx's Done costs an
// atomic load on top of the channel poll.
type fastDone struct {
	context.Context
	done <-chan struct{}
}

func (c fastDone) Done() <-chan struct{} { return c.done }

// gameInfo is init's argument.
func (a *Agent) gameInfo(L *glua.LState, g sdk.Game) *glua.LTable {
	t := L.CreateTable(0, 10)
	t.RawSetString("game", glua.LString(g.Game))
	t.RawSetString("seat", glua.LNumber(g.Seat))
	t.RawSetString("profile", glua.LString(g.Profile))
	t.RawSetString("opponent", glua.LString(g.Opponent))
	t.RawSetString("game_id", glua.LString(g.GameID))
	t.RawSetString("seed", glua.LNumber(float64(g.Seed)))
	t.RawSetString("script", glua.LString(a.script.Path))

	params := map[string]string{}
	for k, v := range g.Options {
		params[k] = v
	}
	for k, v := range a.opts.Params {
		params[k] = v
	}
	t.RawSetString("params", stringTable(L, params, true))
	t.RawSetString("game_params", stringTable(L, g.Params, false))

	c := L.CreateTable(0, 5)
	c.RawSetString("model", glua.LString(g.Clock.Model))
	c.RawSetString("move_limit", ms(g.Clock.MoveLimit))
	c.RawSetString("first_move_limit", ms(g.Clock.FirstMoveLimit))
	c.RawSetString("cushion", ms(g.Clock.Cushion))
	c.RawSetString("budget", ms(g.Clock.Budget))
	t.RawSetString("clock", c)
	return t
}

func ms(d time.Duration) glua.LNumber {
	return glua.LNumber(float64(d) / float64(time.Millisecond))
}

// stringTable converts parameters; with numbers, values that read as
// numbers become Lua numbers.
func stringTable(L *glua.LState, m map[string]string, numbers bool) *glua.LTable {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t := L.CreateTable(0, len(m))
	for _, k := range keys {
		v := m[k]
		if f, err := strconv.ParseFloat(v, 64); numbers && err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			t.RawSetString(k, glua.LNumber(f))
		} else {
			t.RawSetString(k, glua.LString(v))
		}
	}
	return t
}

// clock is choose_move's second argument.
func (a *Agent) clock(L *glua.LState, s *session, t sdk.Turn, began, deadline time.Time) *glua.LTable {
	c := L.CreateTable(0, 6)
	c.RawSetString("model", glua.LString(s.game.Clock.Model))
	c.RawSetString("time_left", ms(t.TimeLeft))
	if !deadline.IsZero() {
		c.RawSetString("deadline", glua.LNumber(deadline.UnixMilli()))
	}
	c.RawSetString("remaining", L.NewFunction(func(L *glua.LState) int {
		if deadline.IsZero() {
			L.Push(glua.LNumber(math.Inf(1)))
			return 1
		}
		L.Push(ms(time.Until(deadline)))
		return 1
	}))
	c.RawSetString("elapsed", L.NewFunction(func(L *glua.LState) int {
		L.Push(ms(time.Since(began)))
		return 1
	}))
	return c
}

// worker owns one game's Lua state: every call into it runs on the
// worker's goroutine, one at a time.
type worker struct {
	jobs chan func()
	quit chan struct{}
	once sync.Once
	sess *session // touched only on the worker's goroutine
}

func newWorker() *worker {
	w := &worker{jobs: make(chan func()), quit: make(chan struct{})}
	go w.loop()
	return w
}

func (w *worker) loop() {
	defer func() {
		if w.sess != nil {
			w.sess.L.Close()
			w.sess = nil
		}
	}()
	for {
		select {
		case f := <-w.jobs:
			f()
		case <-w.quit:
			return
		}
	}
}

// run runs f on the worker and waits for it, or for ctx. A script stuck
// past ctx in a library call is left to finish on its own; the next job
// waits for it.
func (w *worker) run(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	select {
	case w.jobs <- func() { done <- f() }:
	case <-w.quit:
		return errors.New("lua agent: the game is closed")
	case <-ctx.Done():
		return fmt.Errorf("lua agent: still busy with the previous request: %w", ctx.Err())
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// The script is stopped at the same deadline, and its own error says
	// where it was; wait a moment for it.
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace):
		return fmt.Errorf("lua agent: the script did not stop in time: %w", ctx.Err())
	}
}

// close ends the worker once its current job is done.
func (w *worker) close() {
	w.once.Do(func() { close(w.quit) })
}
