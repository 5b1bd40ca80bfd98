// Package sdk is what an agent author imports: write one type with a Move
// method and call sdk.Serve from main. The arena starts the binary as a
// go-plugin subprocess, one process per game, in a sandbox.
//
//	type bot struct{}
//
//	func (bot) Move(ctx context.Context, t sdk.Turn) (string, error) {
//		return t.Legal[0], nil
//	}
//
//	func main() { sdk.Serve(bot{}) }
//
// `arena new-agent --game GAME --lang go DIR` writes such an agent with a
// search, a test, a go.mod pointing at the arena checkout and a README.
//
// # The move request
//
// Each Move call gets a Turn: the move history in the course's notation
// (Turn.History, "" for a skipped turn), the canonical board text
// (Turn.Board), the seat to move (Turn.Seat, 0 moves first), the ply, the
// time left (Turn.TimeLeft: for this move under a per-move limit, for the
// rest of the game under a CPU budget) and the deadline (Turn.Deadline),
// the course's seat-relative JSON view where the course had one
// (Turn.View), the game as it was opened (Turn.Game: game, parameters,
// seat, profile, clock), and, rebuilt by the SDK from the history, the
// position as the engine's own engine.State (Turn.State, the agent's own
// copy) with its legal moves in course notation (Turn.Legal). The reply is
// the move's course text, e.g. t.State.FormatMove(m) for an engine.Move m.
// Package arena/plugins/sdk/search searches a Turn.State within the
// Turn's clock.
//
// # Logging
//
// Stdout belongs to the plugin handshake: anything printed there before
// Serve breaks the handshake (arena check names it), and later output is
// discarded. Print diagnostics to stderr, which the arena keeps (the last
// few KiB) with the game record; arena replay and arena check show it.
// go-plugin would forward os.Stderr over the plugin channel, where lines
// written just before the process exits are lost; the SDK puts os.Stderr
// back on the process's own standard error at the arena's first call, a
// pipe the arena reads itself, so every line reaches the record however
// the game ends. The arena reads it at a bounded rate (256 KiB/s after the
// first MiB): an agent that writes faster waits on its own writes.
//
// # The sandbox
//
// The agent runs as an unprivileged user in its own namespaces: no
// network, a read-only file system except its working directory (also
// $HOME and $TMPDIR, emptied after the game), no view of other processes,
// the profile's memory limit over its whole process tree. Its binary, and
// any file it reads, must be readable by all users (docs/security.md).
//
// # Protocol versions
//
// An agent speaks the protocol version of the SDK it was built with
// (ProtocolVersion). An incompatible change to the protocol bumps the
// version, and an arena refuses an agent of another version at the
// handshake with a message naming the SDK version the agent needs: rebuild
// it against the arena's checkout.
package sdk

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/agentapi"
	"arena/plugins/protocol"
)

// ProtocolVersion is the agent protocol version this SDK speaks; an arena
// refuses agents of another version (see the package documentation).
const ProtocolVersion = protocol.Version

// The types an agent implements and receives are package agentapi's,
// which needs no gRPC: a searcher or a house bot can use them without
// linking the plugin transport. Their documentation is there: go doc
// arena/plugins/agentapi Turn, for instance.
type (
	Game      = agentapi.Game
	Turn      = agentapi.Turn
	Agent     = agentapi.Agent
	Starter   = agentapi.Starter
	Observer  = agentapi.Observer
	Ender     = agentapi.Ender
	Describer = agentapi.Describer
)

// Option adjusts Serve and ServeConfig.
type Option func(*config)

type config struct {
	version  uint
	registry *engine.Registry
	fresh    func() Agent
}

// WithProtocolVersion serves a different protocol version. Only useful to
// test how an arena treats an agent built against another SDK.
func WithProtocolVersion(v uint) Option { return func(c *config) { c.version = v } }

// WithFreshAgent makes every game start with a new agent from fresh, so
// nothing of one game's agent reaches the next when the arena plays
// several games with one process.
func WithFreshAgent(fresh func() Agent) Option { return func(c *config) { c.fresh = fresh } }

// WithRegistry sets the games the agent can rebuild positions for (default:
// every course game).
func WithRegistry(r *engine.Registry) Option { return func(c *config) { c.registry = r } }

// Serve runs the agent as a plugin until the arena closes it. It does not
// return; it exits the process when the arena is done.
func Serve(a Agent, opts ...Option) {
	plugin.Serve(ServeConfig(a, opts...))
	os.Exit(0)
}

// ServeConfig is the go-plugin configuration Serve uses, for programs that
// serve in their own way.
func ServeConfig(a Agent, opts ...Option) *plugin.ServeConfig {
	c := config{version: protocol.Version}
	for _, o := range opts {
		o(&c)
	}
	if c.registry == nil {
		c.registry = all.Registry()
	}
	return &plugin.ServeConfig{
		HandshakeConfig: protocol.Handshake(c.version),
		Plugins:         protocol.Plugins(&adapter{agent: a, registry: c.registry, fresh: c.fresh, stderr: os.Stderr}),
		// The send limit stops a runaway reply here, in the agent, instead
		// of on the wire; the arena has its own, lower, receive limit.
		GRPCServer: func(o []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(o, grpc.MaxSendMsgSize(protocol.SendLimit))...)
		},
		// The channel's keys come from the arena (protocol.ServerTLS):
		// no key generation at start.
		TLSProvider: protocol.ServerTLS,
		Logger:      hclog.New(&hclog.LoggerOptions{Output: os.Stderr, Level: hclog.Error}),
	}
}

// adapter turns an sdk.Agent into a protocol.Agent, rebuilding the position
// from the history so authors start from a ready engine.State.
type adapter struct {
	agent    Agent
	fresh    func() Agent // if set, a new agent per game
	registry *engine.Registry
	game     Game
	start    engine.State
	cur      engine.State // start plus history[:applied]
	applied  []string
	buf      []engine.Move

	stderr     *os.File // the process's own standard error, before plugin.Serve
	stderrOnce sync.Once
}

// ownStderr puts os.Stderr back on the process's standard error, which
// plugin.Serve replaced (before serving any call) with a pipe it forwards
// over the plugin channel: a line written there just before the agent
// exits or is killed never reaches the arena.
func (a *adapter) ownStderr() {
	a.stderrOnce.Do(func() {
		if a.stderr != nil {
			os.Stderr = a.stderr
		}
	})
}

func (a *adapter) Describe(context.Context) (protocol.Description, error) {
	a.ownStderr()
	if d, ok := a.agent.(Describer); ok {
		return d.Describe(), nil
	}
	return protocol.Description{Name: fmt.Sprintf("%T", a.agent)}, nil
}

func (a *adapter) Start(ctx context.Context, info protocol.StartInfo) error {
	a.ownStderr()
	g, err := a.registry.Lookup(info.Game)
	if err != nil {
		return err
	}
	st, err := g.NewState(engine.Params(info.Params))
	if err != nil {
		return fmt.Errorf("start %s: %w", info.Game, err)
	}
	a.game, a.start, a.cur, a.applied = info, st, nil, nil
	if a.fresh != nil {
		a.agent = a.fresh()
	}
	if s, ok := a.agent.(Starter); ok {
		return s.Start(ctx, info)
	}
	return nil
}

func (a *adapter) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	a.ownStderr()
	if a.start == nil {
		return "", fmt.Errorf("move requested before the game started")
	}
	st, err := a.position(req.History)
	if err != nil {
		return "", err
	}
	a.buf = st.LegalMoves(a.buf[:0])
	legal := make([]string, len(a.buf))
	for i, m := range a.buf {
		legal[i] = st.FormatMove(m)
	}
	return a.agent.Move(ctx, Turn{MoveRequest: req, Game: a.game, State: st, Legal: legal})
}

// position returns the agent's own copy of the position after history,
// applying only the moves since the last request when history extends it.
func (a *adapter) position(history []string) (engine.State, error) {
	// A shorter history's prefix is shorter than applied, so not equal.
	extends := a.cur != nil && slices.Equal(history[:min(len(a.applied), len(history))], a.applied)
	if !extends {
		a.cur, a.applied = a.start.Clone(), nil
	}
	if err := engine.Replay(a.cur, history[len(a.applied):]); err != nil {
		a.cur, a.applied = nil, nil
		return nil, fmt.Errorf("rebuild position: %w", err)
	}
	a.applied = append(a.applied, history[len(a.applied):]...)
	return a.cur.Clone(), nil
}

func (a *adapter) Observe(ctx context.Context, seat int, move string, ply int) error {
	a.ownStderr()
	if o, ok := a.agent.(Observer); ok {
		return o.Observe(ctx, seat, move, ply)
	}
	return nil
}

func (a *adapter) End(ctx context.Context, r protocol.EndInfo) error {
	a.ownStderr()
	if e, ok := a.agent.(Ender); ok {
		return e.End(ctx, r)
	}
	return nil
}
