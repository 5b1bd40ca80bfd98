// Package protocol binds the agent protocol to hashicorp/go-plugin over
// gRPC: the handshake, the plugin that serves an Agent in the agent
// process, and the client the arena calls. The protocol's messages are
// package agentapi's, named here as this package's own.
package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"arena/engine"
	"arena/plugins/agentapi"
	pb "arena/plugins/proto"
)

// Version is the agent protocol version. Bump it on any incompatible change
// to agent.proto; agents built against another version are refused at the
// handshake with a message naming both versions and the SDK to rebuild
// with (Refusal). The SDK serves this version (sdk.ProtocolVersion), so an
// agent's protocol is the one of the arena checkout it was built against.
//
// Version 2: a move request carries only the moves the agent has not
// acknowledged (MoveRequest.history_from); the agent's side of the binding
// keeps the game's history and hands agents the whole of it, as before.
// Version 3: moves travel on the move channel (movechan.go) where the
// arena opens one.
// Version 4: so do a game's start, observations and end.
const Version = 4

// Refusal explains a handshake refused for the protocol version: goMsg is
// go-plugin's error text ("... Plugin version: 2, Client versions: [1]"),
// want the version the arena asked for. It names the SDK version the agent
// needs and how to get it.
func Refusal(goMsg string, want uint) string {
	agent := "another version"
	if _, rest, ok := strings.Cut(goMsg, "Plugin version: "); ok {
		if v, _, ok := strings.Cut(rest, ","); ok {
			agent = "version " + strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("the agent speaks agent protocol %s, this arena protocol version %d; "+
		"it needs the SDK of protocol version %d (arena/plugins/sdk with sdk.ProtocolVersion == %d, the SDK of this arena's checkout): "+
		"point the agent's go.mod at this checkout (arena new-agent writes that replace line) and rebuild it",
		agent, want, want, want)
}

// PluginName is the name the agent is served under.
const PluginName = "agent"

// Handshake is the go-plugin handshake for agents of protocol version v.
func Handshake(v uint) plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion: v,
		// The cookie only stops an agent binary started by hand from
		// waiting silently for a handshake; it is not a security measure.
		MagicCookieKey:   "ARENA_AGENT_PLUGIN",
		MagicCookieValue: "f6b3c0d2-arena-agent",
	}
}

// The protocol's messages are package agentapi's, which needs no gRPC.
type (
	Clock       = agentapi.Clock
	StartInfo   = agentapi.StartInfo
	MoveRequest = agentapi.MoveRequest
	EndInfo     = agentapi.EndInfo
	Description = agentapi.Description
)

// Agent is one side of the protocol, implemented by agent processes and
// called by the arena.
type Agent interface {
	Describe(ctx context.Context) (Description, error)
	Start(ctx context.Context, info StartInfo) error
	// Move returns the move text. An *AgentError is the agent reporting that
	// it has no move; any other error is a failure to reach the agent.
	Move(ctx context.Context, req MoveRequest) (string, error)
	Observe(ctx context.Context, seat int, move string, ply int) error
	End(ctx context.Context, info EndInfo) error
}

// AgentError is an error the agent itself reported instead of a move.
type AgentError struct{ Message string }

func (e *AgentError) Error() string { return "agent reported an error: " + e.Message }

// IsAgentError reports whether err is an error the agent reported.
func IsAgentError(err error) bool {
	var ae *AgentError
	return errors.As(err, &ae)
}

// BadReplyError is a reply that cannot be a move whatever the game: too
// large to receive (the transport refused it before holding it). The
// referee judges it an unparseable move, not a dead agent.
type BadReplyError struct {
	Size  int64 // the reply's size in bytes as announced, or -1 if unknown
	Limit int   // the limit it broke
}

func (e *BadReplyError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("reply of %d bytes, over the %d-byte limit; not received", e.Size, e.Limit)
	}
	return fmt.Sprintf("reply over the %d-byte limit; not received", e.Limit)
}

// IsBadReply reports whether err is a reply judged unparseable by size.
func IsBadReply(err error) bool {
	var be *BadReplyError
	return errors.As(err, &be)
}

// replyOverhead is room for the protobuf framing around a reply's text in
// a gRPC message, so a text of exactly the limit still arrives.
const replyOverhead = 1 << 10

// RecvLimit is the gRPC receive limit for an arena talking to an agent
// whose replies may be maxReply bytes (0: the default): every message
// from the agent, not only moves, is refused past it.
func RecvLimit(maxReply int) int {
	if maxReply <= 0 {
		maxReply = engine.DefaultMaxReplyBytes
	}
	return maxReply + replyOverhead
}

// SendLimit is the gRPC send limit of agents built with the SDK: nothing
// a profile may accept is refused, and a runaway reply costs the agent
// nothing more than building it.
const SendLimit = engine.MaxReplyBytesCeiling + replyOverhead

// ErrorTextLimit bounds an agent's error report as kept by the arena.
const ErrorTextLimit = 1 << 10

// oversize matches gRPC's messages for a message over a size limit, on
// receipt ("received message larger than max (N vs. M)") or on sending
// ("trying to send message larger than max (N vs. M)").
var oversize = regexp.MustCompile(`message larger than max \((\d+) vs\. (\d+)\)`)

// asBadReply recognises gRPC's refusal of an oversized message, on either
// side: the agent's SDK refusing to send, or this client refusing to
// receive. gRPC reports both as ResourceExhausted with no error type.
func asBadReply(err error, limit int) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.ResourceExhausted {
		return err
	}
	m := oversize.FindStringSubmatch(st.Message())
	if m == nil {
		return err
	}
	size, perr := strconv.ParseInt(m[1], 10, 64)
	if perr != nil {
		size = -1
	}
	return &BadReplyError{Size: size, Limit: limit}
}

// Bounded returns at most n bytes of s as valid UTF-8 (bad bytes shown as
// U+FFFD), marking a cut: the prefix of a bad reply fit for a record.
func Bounded(s string, n int) string {
	cut := len(s) > n
	if cut {
		s = s[:n]
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if cut {
		s += "..."
	}
	return s
}

// Plugin binds Agent to go-plugin's gRPC transport. Impl is set on the
// serving side only.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Agent
}

var _ plugin.GRPCPlugin = (*Plugin)(nil)

// GRPCServer registers the agent's service.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("protocol: no agent to serve")
	}
	srv := &server{impl: p.Impl}
	pb.RegisterAgentServer(s, srv)
	if conn := MoveChannelFromEnv(); conn != nil {
		go srv.serveMoveChannel(conn)
	}
	return nil
}

// GRPCClient returns an Agent that calls the plugin.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &Client{rpc: pb.NewAgentClient(c)}, nil
}

// Plugins is the plugin set for go-plugin configs.
func Plugins(impl Agent) plugin.PluginSet {
	return plugin.PluginSet{PluginName: &Plugin{Impl: impl}}
}

// server adapts an Agent to the generated gRPC service. A panic in the agent
// becomes an error report, as the course clients turned exceptions into
// "no move" rather than a crash.
type server struct {
	pb.UnimplementedAgentServer
	impl Agent

	mu      sync.Mutex
	history []string // the game's moves as the arena sent them
}

// fullHistory merges a request's moves into the game's history and returns
// a copy of the whole of it, or false when the request assumes moves this
// side does not hold.
func (s *server) fullHistory(from int, moves []string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if from < 0 || from > len(s.history) {
		return nil, false
	}
	// Moves from an earlier request that was cut short may be resent:
	// the request's own are the truth from its index on.
	s.history = append(s.history[:from], moves...)
	return slices.Clone(s.history), true
}

func recovered(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("agent panicked: %v", r)
	}
}

func (s *server) Describe(ctx context.Context, _ *pb.DescribeRequest) (_ *pb.DescribeReply, err error) {
	defer recovered(&err)
	d, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, err
	}
	return &pb.DescribeReply{Name: d.Name, Description: d.Description, Games: d.Games}, nil
}

func (s *server) StartGame(ctx context.Context, r *pb.StartRequest) (_ *pb.StartReply, err error) {
	defer recovered(&err)
	c := r.GetClock()
	info := StartInfo{
		GameID: r.GameId, Game: r.Game, Params: r.Params, Seat: int(r.Seat), Profile: r.Profile,
		Opponent: r.Opponent, Options: r.Options, Seed: r.Seed,
		Clock: Clock{
			Model:          c.GetModel(),
			MoveLimit:      time.Duration(c.GetMoveLimitMs()) * time.Millisecond,
			FirstMoveLimit: time.Duration(c.GetFirstMoveLimitMs()) * time.Millisecond,
			Cushion:        time.Duration(c.GetCushionMs()) * time.Millisecond,
			Budget:         time.Duration(c.GetBudgetMs()) * time.Millisecond,
		},
	}
	s.mu.Lock()
	s.history = nil
	s.mu.Unlock()
	if err := s.impl.Start(ctx, info); err != nil {
		return nil, err
	}
	return &pb.StartReply{}, nil
}

func (s *server) Move(ctx context.Context, r *pb.MoveRequest) (reply *pb.MoveReply, err error) {
	defer func() {
		if p := recover(); p != nil {
			reply, err = &pb.MoveReply{Error: []byte(fmt.Sprintf("agent panicked: %v", p))}, nil
		}
	}()
	history, ok := s.fullHistory(int(r.HistoryFrom), r.History)
	if !ok {
		return &pb.MoveReply{NeedHistory: true}, nil
	}
	req := MoveRequest{
		History: history, Board: r.Board, Seat: int(r.Seat), Ply: int(r.Ply),
		TimeLeft: time.Duration(r.TimeLeftMs) * time.Millisecond,
		Deadline: time.UnixMilli(r.DeadlineUnixMs),
		View:     r.View,
	}
	move, err := s.impl.Move(ctx, req)
	if err != nil {
		return &pb.MoveReply{Error: []byte(err.Error())}, nil
	}
	return &pb.MoveReply{Move: []byte(move)}, nil
}

func (s *server) Observe(ctx context.Context, r *pb.ObserveRequest) (_ *pb.ObserveReply, err error) {
	defer recovered(&err)
	if err := s.impl.Observe(ctx, int(r.Seat), r.Move, int(r.Ply)); err != nil {
		return nil, err
	}
	return &pb.ObserveReply{}, nil
}

func (s *server) EndGame(ctx context.Context, r *pb.EndRequest) (_ *pb.EndReply, err error) {
	defer recovered(&err)
	scores := make([]int, len(r.Scores))
	for i, v := range r.Scores {
		scores[i] = int(v)
	}
	if err := s.impl.End(ctx, EndInfo{Winner: int(r.Winner), Draw: r.Draw, Reason: r.Reason, Scores: scores}); err != nil {
		return nil, err
	}
	return &pb.EndReply{}, nil
}

// Client calls an agent plugin over gRPC. It remembers how much of the
// game's history the agent has acknowledged, and sends only the rest.
type Client struct {
	rpc pb.AgentClient
	// MaxReply is the longest move reply received, in bytes (0: the
	// default); a longer one is a *BadReplyError.
	MaxReply int

	mu    sync.Mutex
	acked int          // moves of the history the agent holds (from its last reply)
	ch    *moveChannel // nil: moves go through gRPC
}

// UseMoveChannel has move requests travel over conn, the arena's end of
// the agent process's move channel, from the next one on. The channel is
// closed by Close.
func (c *Client) UseMoveChannel(conn net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ch = newMoveChannel(conn)
}

// MoveChannel reports whether move requests travel on the move channel
// (false: through gRPC, there being none or it having gone down).
func (c *Client) MoveChannel() bool {
	c.mu.Lock()
	ch := c.ch
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	return ch.down() == nil
}

// Close closes the move channel, if any; the gRPC connection is go-plugin's.
func (c *Client) Close() {
	c.mu.Lock()
	ch := c.ch
	c.mu.Unlock()
	if ch != nil {
		ch.close()
	}
}

// move makes one move call: over the move channel while it is up, else
// through gRPC.
func (c *Client) move(ctx context.Context, msg *pb.MoveRequest, limit int, sent func()) (*pb.MoveReply, error) {
	c.mu.Lock()
	ch := c.ch
	c.mu.Unlock()
	if ch != nil {
		r, err := ch.call(ctx, msg, limit, sent)
		if !errors.Is(err, errChannelDown) {
			return r, err
		}
	}
	if sent != nil {
		sent()
	}
	r, err := c.rpc.Move(ctx, msg, grpc.MaxCallRecvMsgSize(RecvLimit(limit)))
	if err != nil {
		return nil, asBadReply(err, limit)
	}
	return r, nil
}

func (c *Client) maxReply() int {
	if c.MaxReply > 0 {
		return c.MaxReply
	}
	return engine.DefaultMaxReplyBytes
}

var _ Agent = (*Client)(nil)

// Describe asks the agent what it is.
func (c *Client) Describe(ctx context.Context) (Description, error) {
	r, err := c.rpc.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		return Description{}, err
	}
	return Description{Name: r.Name, Description: r.Description, Games: r.Games}, nil
}

// Start opens the game.
func (c *Client) Start(ctx context.Context, info StartInfo) error {
	c.mu.Lock()
	c.acked = 0
	c.mu.Unlock()
	req := &pb.StartRequest{
		GameId: info.GameID, Game: info.Game, Params: info.Params, Seat: int32(info.Seat),
		Profile: info.Profile, Opponent: info.Opponent, Options: info.Options, Seed: info.Seed,
		Clock: &pb.Clock{
			Model:            info.Clock.Model,
			MoveLimitMs:      info.Clock.MoveLimit.Milliseconds(),
			FirstMoveLimitMs: info.Clock.FirstMoveLimit.Milliseconds(),
			CushionMs:        info.Clock.Cushion.Milliseconds(),
			BudgetMs:         info.Clock.Budget.Milliseconds(),
		},
	}
	if done, err := c.onChannel(ctx, &pb.MoveRequest{Start: req}); done {
		return err
	}
	_, err := c.rpc.StartGame(ctx, req)
	return err
}

// onChannel makes a call other than a move (start, observe, end) on the
// move channel while it is up. done is false when the call must go
// through gRPC instead: there is no channel, or it is down. The agent's
// failure comes back as an error with its text.
func (c *Client) onChannel(ctx context.Context, msg *pb.MoveRequest) (done bool, err error) {
	c.mu.Lock()
	ch := c.ch
	c.mu.Unlock()
	if ch == nil {
		return false, nil
	}
	r, err := ch.call(ctx, msg, c.maxReply(), nil)
	switch {
	case errors.Is(err, errChannelDown):
		return false, nil
	case err != nil:
		return true, err
	case len(r.Error) > 0:
		return true, fmt.Errorf("the agent failed: %s", Bounded(string(r.Error), ErrorTextLimit))
	}
	return true, nil
}

// Move asks for a move. req.History is the whole history; what goes on
// the wire is the part the agent has not acknowledged, or all of it when
// the agent asks. The reply's text comes back as sent, valid UTF-8 or not,
// for the referee to judge; a reply over MaxReply is refused by the
// transport before it is held (a *BadReplyError), and an error report is
// cut to ErrorTextLimit.
func (c *Client) Move(ctx context.Context, req MoveRequest) (string, error) {
	return c.MoveSent(ctx, req, nil)
}

// MoveSent is Move calling sent, when not nil, once the request has left
// (on gRPC, just before the call), before waiting for the reply: the
// referee takes its readings there, while the agent wakes up. sent is not
// called when the request could not be sent.
func (c *Client) MoveSent(ctx context.Context, req MoveRequest, sent func()) (string, error) {
	limit := c.maxReply()
	c.mu.Lock()
	from := c.acked
	c.mu.Unlock()
	if from > len(req.History) {
		from = 0 // not this game's continuation: start over
	}
	msg := &pb.MoveRequest{
		History: req.History[from:], HistoryFrom: int32(from), Board: req.Board, Seat: int32(req.Seat), Ply: int32(req.Ply),
		TimeLeftMs: req.TimeLeft.Milliseconds(), DeadlineUnixMs: req.Deadline.UnixMilli(), View: req.View,
	}
	r, err := c.move(ctx, msg, limit, sent)
	if err == nil && r.NeedHistory && from > 0 {
		msg.History, msg.HistoryFrom = req.History, 0
		r, err = c.move(ctx, msg, limit, nil)
	}
	if err != nil {
		return "", err
	}
	if r.NeedHistory {
		return "", &AgentError{Message: "the agent asked for the move history although it was sent in full"}
	}
	c.mu.Lock()
	c.acked = len(req.History)
	c.mu.Unlock()
	if len(r.Error) > 0 {
		return "", &AgentError{Message: Bounded(string(r.Error), ErrorTextLimit)}
	}
	if len(r.Move) > limit {
		return "", &BadReplyError{Size: int64(len(r.Move)), Limit: limit}
	}
	return string(r.Move), nil
}

// ValidText says why a reply's text cannot be a move in any game's
// notation, or "" when it may be one: the course servers read text lines,
// which invalid UTF-8 and NUL bytes are not.
func ValidText(s string) string {
	if !utf8.ValidString(s) {
		return "the reply is not valid UTF-8 text"
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		return fmt.Sprintf("the reply contains a NUL byte at offset %d", i)
	}
	return ""
}

// Observe reports a played move.
func (c *Client) Observe(ctx context.Context, seat int, move string, ply int) error {
	req := &pb.ObserveRequest{Seat: int32(seat), Move: move, Ply: int32(ply)}
	if done, err := c.onChannel(ctx, &pb.MoveRequest{Observe: req}); done {
		return err
	}
	_, err := c.rpc.Observe(ctx, req)
	return err
}

// End closes the game.
func (c *Client) End(ctx context.Context, info EndInfo) error {
	scores := make([]int32, len(info.Scores))
	for i, v := range info.Scores {
		scores[i] = int32(v)
	}
	req := &pb.EndRequest{Winner: int32(info.Winner), Draw: info.Draw, Reason: info.Reason, Scores: scores}
	if done, err := c.onChannel(ctx, &pb.MoveRequest{End: req}); done {
		return err
	}
	_, err := c.rpc.EndGame(ctx, req)
	return err
}
