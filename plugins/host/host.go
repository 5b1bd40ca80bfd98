// Package host starts agent plugins as subprocesses and keeps them on a
// leash: each agent runs in its own process group, its stdout is reserved
// for the go-plugin handshake, its stderr is captured (size-capped), its
// memory is watched, and Kill takes the whole group.
package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"arena/plugins/protocol"
)

// Launcher knows how to start agents.
type Launcher struct {
	// Self is the command line that starts this program as an agent host;
	// the agent reference is appended. Built-in and Lua agents run this way.
	Self []string
	// Builtins names the built-in agents, for resolving bare names and for
	// error messages.
	Builtins []string
	// StderrBytes caps the stderr kept per agent (default 8 KiB).
	StderrBytes int
	// Env is added to agent processes' environment.
	Env []string
}

// Options for one agent process.
type Options struct {
	StartTimeout time.Duration // handshake deadline (default 30 s)
	MemoryMB     int           // resident memory limit; 0 = none
	// MaxReplyBytes bounds every message received from the agent (a move
	// reply's text, plus framing); 0 = the default. Nothing larger is
	// buffered by the arena.
	MaxReplyBytes int
	// ProtocolVersion overrides the protocol version the arena asks for
	// (tests of the version check only).
	ProtocolVersion uint
}

// Command is how to start one agent reference.
type Command struct {
	Ref  string   // as written by the user
	Kind string   // "builtin", "lua" or "binary"
	Argv []string // program and arguments
}

// Resolve turns an agent reference into a command line:
// "builtin:NAME" or a bare built-in NAME, "lua:PATH[?k=v&...]", or the
// path of an agent binary built with the SDK.
func (l *Launcher) Resolve(ref string) (Command, error) {
	switch {
	case strings.HasPrefix(ref, "builtin:"):
		name := strings.TrimPrefix(ref, "builtin:")
		if !l.isBuiltin(name) {
			return Command{}, l.unknown(ref)
		}
		return Command{Ref: ref, Kind: "builtin", Argv: append(append([]string{}, l.Self...), "builtin:"+name)}, nil
	case strings.HasPrefix(ref, "lua:"):
		path := strings.TrimPrefix(ref, "lua:")
		file, _, _ := strings.Cut(path, "?")
		if _, err := os.Stat(file); err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		return Command{Ref: ref, Kind: "lua", Argv: append(append([]string{}, l.Self...), "lua:"+abs)}, nil
	case l.isBuiltin(ref):
		return l.Resolve("builtin:" + ref)
	}
	if strings.ContainsRune(ref, os.PathSeparator) || strings.HasPrefix(ref, ".") {
		fi, err := os.Stat(ref)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		if fi.IsDir() {
			return Command{}, fmt.Errorf("agent %s is a directory: give the path of an agent binary built with the arena SDK", ref)
		}
		if fi.Mode()&0o111 == 0 {
			return Command{}, fmt.Errorf("agent %s is not executable", ref)
		}
		abs, err := filepath.Abs(ref)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		return Command{Ref: ref, Kind: "binary", Argv: []string{abs}}, nil
	}
	return Command{}, l.unknown(ref)
}

func (l *Launcher) isBuiltin(name string) bool {
	for _, b := range l.Builtins {
		if b == name {
			return true
		}
	}
	return false
}

func (l *Launcher) unknown(ref string) error {
	names := make([]string, len(l.Builtins))
	for i, b := range l.Builtins {
		names[i] = "builtin:" + b
	}
	return fmt.Errorf("unknown agent %q: use one of %s, lua:PATH.lua, or the path of an agent binary built with the arena SDK",
		ref, strings.Join(names, ", "))
}

// Process is one running agent.
type Process struct {
	Agent protocol.Agent
	Cmd   Command

	client *plugin.Client
	pid    int
	stderr *Tail
	limit  int64

	mu       sync.Mutex
	killed   bool
	overMem  bool
	peak     int64
	stopOnce sync.Once
	stop     chan struct{}
	memHit   chan struct{}
}

// ErrVersion marks a handshake refused for a protocol version mismatch.
var ErrVersion = errors.New("agent protocol version mismatch")

// Launch starts the agent and completes the handshake.
func (l *Launcher) Launch(ctx context.Context, ref string, opt Options) (*Process, error) {
	c, err := l.Resolve(ref)
	if err != nil {
		return nil, err
	}
	return l.Start(ctx, c, opt)
}

// Start starts a resolved command.
func (l *Launcher) Start(ctx context.Context, c Command, opt Options) (*Process, error) {
	if opt.StartTimeout <= 0 {
		opt.StartTimeout = 30 * time.Second
	}
	version := uint(protocol.Version)
	if opt.ProtocolVersion != 0 {
		version = opt.ProtocolVersion
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Env = append(os.Environ(), l.Env...)
	isolate(cmd)
	tail := NewTail(l.StderrBytes)
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  protocol.Handshake(version),
		Plugins:          protocol.Plugins(nil),
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     opt.StartTimeout,
		Stderr:           tail,
		SyncStderr:       tail,
		SyncStdout:       io.Discard,
		Logger:           hclog.NewNullLogger(),
		GRPCDialOptions: []grpc.DialOption{
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(protocol.RecvLimit(opt.MaxReplyBytes))),
		},
	})
	p := &Process{Cmd: c, client: client, stderr: tail, stop: make(chan struct{}), memHit: make(chan struct{})}
	started := make(chan error, 1)
	var err error
	go func() {
		_, err := client.Start()
		started <- err
	}()
	select {
	case err = <-started:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if cmd.Process != nil {
		p.pid = cmd.Process.Pid
	}
	if err != nil {
		p.Kill()
		return nil, p.launchError(err, version)
	}
	rpc, err := client.Client()
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("agent %s: connect: %w", c.Ref, err)
	}
	raw, err := rpc.Dispense(protocol.PluginName)
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("agent %s: %w", c.Ref, err)
	}
	p.Agent = raw.(protocol.Agent)
	if c, ok := raw.(*protocol.Client); ok {
		c.MaxReply = opt.MaxReplyBytes
	}
	if opt.MemoryMB > 0 {
		p.limit = int64(opt.MemoryMB) << 20
	}
	go p.watch()
	return p, nil
}

func (p *Process) launchError(err error, version uint) error {
	msg := err.Error()
	if strings.Contains(msg, "incompatible API version") {
		return fmt.Errorf("agent %s was refused: %w: this arena speaks agent protocol version %d; %s; rebuild the agent against this arena's SDK",
			p.Cmd.Ref, ErrVersion, version, firstLine(msg))
	}
	if strings.Contains(msg, "Unrecognized remote plugin message") {
		msg = "it did not complete the plugin handshake (is it an agent built with the arena SDK?): " + firstLine(msg)
	}
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		return fmt.Errorf("agent %s failed to start: %s\nagent stderr:\n%s", p.Cmd.Ref, firstLine(msg), tail)
	}
	return fmt.Errorf("agent %s failed to start: %s", p.Cmd.Ref, firstLine(msg))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// watchEvery is how often memory is sampled; an allocation faster than this
// can overshoot the limit briefly before the kill.
const watchEvery = 20 * time.Millisecond

// watch samples memory until the process ends, killing it over the limit.
func (p *Process) watch() {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		_, peak, err := memory(p.pid)
		if err != nil {
			return // gone
		}
		p.mu.Lock()
		if peak > p.peak {
			p.peak = peak
		}
		over := p.limit > 0 && peak > p.limit && !p.overMem
		if over {
			p.overMem = true
		}
		p.mu.Unlock()
		if over {
			close(p.memHit)
			p.Kill()
			return
		}
	}
}

// MemoryExceeded is closed when the agent went over its memory limit (and
// was killed for it).
func (p *Process) MemoryExceeded() <-chan struct{} { return p.memHit }

// OverMemory reports whether the agent was killed for its memory.
func (p *Process) OverMemory() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.overMem
}

// PeakRSS is the highest resident memory seen, in bytes.
func (p *Process) PeakRSS() int64 {
	if _, peak, err := memory(p.pid); err == nil {
		p.mu.Lock()
		if peak > p.peak {
			p.peak = peak
		}
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// CPUTime is the CPU time (user+system) the agent process has used.
func (p *Process) CPUTime() (time.Duration, error) { return cpuTime(p.pid) }

// Pid is the agent process id (and its process group id).
func (p *Process) Pid() int { return p.pid }

// Exited reports whether the agent process has ended.
func (p *Process) Exited() bool { return p.client.Exited() }

// Stderr returns the captured tail of the agent's stderr.
func (p *Process) Stderr() string { return p.stderr.String() }

// Kill ends the agent's whole process group and waits for go-plugin to
// clean up. Safe to call more than once and concurrently.
func (p *Process) Kill() {
	p.mu.Lock()
	already := p.killed
	p.killed = true
	p.mu.Unlock()
	p.stopOnce.Do(func() { close(p.stop) })
	if already {
		return
	}
	if p.pid > 0 {
		_ = killGroup(p.pid, syscall.SIGKILL)
	}
	p.client.Kill()
}

// GroupAlive reports whether any process of the agent's group remains.
func (p *Process) GroupAlive() bool { return p.pid > 0 && groupAlive(p.pid) }

// WaitGone waits up to d for the agent's whole process group to be gone
// (the kernel reaps killed processes shortly after the kill) and reports
// whether it is.
func (p *Process) WaitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for p.GroupAlive() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
