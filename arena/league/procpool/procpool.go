// Package procpool keeps a league worker's agent processes from one game
// to its next (built-in and Lua agents by default): each game starts with
// a fresh agent state, and the pool says which process played it.
package procpool

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// Pool keeps one worker's agent processes between its games, by agent
// name. Only one game at a time uses a worker's pool.
type Pool struct {
	launch referee.Launcher
	mu     sync.Mutex
	idle   map[string]*pooled
	used   map[string]*pooled // handed out for the current game
}

// New is an empty pool that starts processes through launch.
func New(launch referee.Launcher) *Pool {
	return &Pool{launch: launch, idle: map[string]*pooled{}, used: map[string]*pooled{}}
}

// Get returns the agent's idle process, or starts one.
func (p *Pool) Get(ctx context.Context, pl referee.Player, opt host.Options) (referee.Handle, error) {
	p.mu.Lock()
	if p.used[pl.Name] != nil {
		// The agent plays itself: its second seat gets a process of its own.
		p.mu.Unlock()
		return p.launch(ctx, pl, opt)
	}
	h := p.idle[pl.Name]
	delete(p.idle, pl.Name)
	p.mu.Unlock()
	if h != nil && !h.alive() {
		h.Handle.Kill()
		h = nil
	}
	// A kept process pinned to other CPUs than this game's slot would run
	// on another game's core: its idle tree moves to the new slot, or, if
	// that fails, it is replaced.
	if h != nil && !slices.Equal(h.cpus, opt.CPUs) {
		if err := host.Repin(h.pid, opt.CPUs); err != nil {
			h.Handle.Kill()
			h = nil
		} else {
			h.cpus = slices.Clone(opt.CPUs)
		}
	}
	if h == nil {
		raw, err := p.launch(ctx, pl, opt)
		if err != nil {
			return nil, err
		}
		h = &pooled{Handle: raw, pool: p, name: pl.Name, cpus: slices.Clone(opt.CPUs)}
		if pr, ok := raw.(interface{ Pid() int }); ok {
			h.pid = pr.Pid()
		}
	}
	h.games++
	h.cpuBase, _ = h.Handle.CPUTime()
	h.errBase = h.Handle.Stderr()
	p.mu.Lock()
	p.used[pl.Name] = h
	p.mu.Unlock()
	return h, nil
}

// Pinned says where the agent's idle process is pinned (nil: nowhere, or
// no process is kept), for PlayPinned to leave it there.
func (p *Pool) Pinned(name string) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.idle[name]; h != nil {
		return h.cpus
	}
	return nil
}

// Process says which process served an agent in the game just played:
// "PID/N", the N-th game of that process ("" when it did not come from
// the pool).
func (p *Pool) Process(name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.used[name]
	if h == nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", h.pid, h.games)
}

// EndGame forgets the current game's handles.
func (p *Pool) EndGame() {
	p.mu.Lock()
	p.used = map[string]*pooled{}
	p.mu.Unlock()
}

// Close kills every idle process.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle = map[string]*pooled{}
	p.mu.Unlock()
	for _, h := range idle {
		h.Handle.Kill()
	}
}

// pooled is an agent process lent to one game at a time.
type pooled struct {
	referee.Handle
	pool    *Pool
	name    string
	pid     int
	cpus    []int         // the CPUs it is pinned to (nil: none)
	games   int           // games it has been handed out for, this one included
	cpuBase time.Duration // its CPU time when this game got it
	errBase string        // its stderr tail when this game got it
	killed  bool
}

// alive reports whether the process can serve another game: running, and
// its private directory holding nothing but its plugin socket (anything
// else the agent left there would reach the next game; a fresh process
// gets a fresh directory).
func (h *pooled) alive() bool {
	if h.killed {
		return false
	}
	pr, ok := h.Handle.(interface {
		Exited() bool
		Leftovers() ([]string, error)
	})
	if !ok || pr.Exited() {
		return false
	}
	left, err := pr.Leftovers()
	return err == nil && len(left) == 0
}

// Release returns the process to its worker's pool at the game's end.
func (h *pooled) Release() {
	if !h.alive() {
		h.Kill()
		return
	}
	// Whatever the agent started during the game ends with it; a tree
	// that cannot be cleaned is not reused.
	if pr, ok := h.Handle.(interface{ KillExtras() error }); ok && pr.KillExtras() != nil {
		h.Kill()
		return
	}
	h.pool.mu.Lock()
	h.pool.idle[h.name] = h
	h.pool.mu.Unlock()
}

// MoveSent passes the referee's hook for a sent request on to the
// process's handle (see referee.Sender).
func (h *pooled) MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error) {
	if s, ok := h.Handle.(referee.Sender); ok {
		return s.MoveSent(ctx, req, sent)
	}
	sent()
	return h.Handle.Move(ctx, req)
}

// Kill ends the process for good (a penalty's restart, a dead agent).
func (h *pooled) Kill() {
	h.killed = true
	h.Handle.Kill()
}

// CPUTime counts this game's CPU time only: a CPU budget is per game.
func (h *pooled) CPUTime() (time.Duration, error) {
	c, err := h.Handle.CPUTime()
	return c - h.cpuBase, err
}

// Usage reads the process's CPU time for this game, as CPUTime, with the
// run-queue delay of its threads (referee.UsageReader).
func (h *pooled) Usage() (cpu, runQueue time.Duration, err error) {
	u, ok := h.Handle.(referee.UsageReader)
	if !ok {
		return 0, 0, referee.ErrNoRunQueue
	}
	c, rq, err := u.Usage()
	return c - h.cpuBase, rq, err
}

// Stderr is what the agent wrote during this game, as far as the kept
// tail allows (when the tail overflowed, all of it).
func (h *pooled) Stderr() string {
	s := h.Handle.Stderr()
	if rest, ok := strings.CutPrefix(s, h.errBase); ok {
		return rest
	}
	return s
}

// Unwrap returns the process handle.
func (h *pooled) Unwrap() referee.Handle { return h.Handle }
