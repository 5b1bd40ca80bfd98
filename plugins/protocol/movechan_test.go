package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "arena/plugins/proto"
)

// socketPair returns two connected Unix stream sockets, as the host opens
// for an agent process.
func socketPair(t testing.TB) (net.Conn, net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	var conns [2]net.Conn
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "end")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
		t.Cleanup(func() { c.Close() })
	}
	return conns[0], conns[1]
}

// channelPair is pairWith with a move channel served by the same server.
func channelPair(t testing.TB, impl Agent) (*Client, *server, *recorder, *wire) {
	t.Helper()
	c, srv, rec, w := pairWith(t, impl)
	arenaEnd, agentEnd := socketPair(t)
	go srv.serveMoveChannel(agentEnd)
	c.UseMoveChannel(arenaEnd)
	return c, srv, rec, w
}

func grpcMoves(w *wire) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sent)
}

func TestMovesTravelOnTheChannel(t *testing.T) {
	ctx := context.Background()
	c, srv, rec, w := channelPair(t, nil)
	if err := c.Start(ctx, StartInfo{}); err != nil {
		t.Fatal(err)
	}
	histories := [][]string{{}, {"a", "b"}, {"a", "b", "c", "d"}}
	for _, h := range histories {
		m, err := c.Move(ctx, MoveRequest{History: h})
		if err != nil || m != "m" {
			t.Fatalf("move after %v: %q, %v", h, m, err)
		}
	}
	if n := grpcMoves(w); n != 0 {
		t.Errorf("%d moves went through gRPC with the channel up", n)
	}
	if !c.MoveChannel() {
		t.Error("MoveChannel reports the channel down")
	}
	rec.mu.Lock()
	seen := fmt.Sprint(rec.seen)
	rec.mu.Unlock()
	if seen != fmt.Sprint(histories) {
		t.Errorf("the agent saw %v, want %v", seen, histories)
	}
	// The agent loses its history: the channel asks again with all of it.
	srv.mu.Lock()
	srv.history = nil
	srv.mu.Unlock()
	full := []string{"a", "b", "c", "d", "e"}
	if m, err := c.Move(ctx, MoveRequest{History: full}); err != nil || m != "m" {
		t.Fatalf("move after a lost history: %q, %v", m, err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if got := rec.seen[len(rec.seen)-1]; !reflect.DeepEqual(got, full) {
		t.Errorf("after a lost history the agent saw %v, want %v", got, full)
	}
}

// agentFunc is an agent whose moves are a function.
type agentFunc func(ctx context.Context, req MoveRequest) (string, error)

func (agentFunc) Describe(context.Context) (Description, error) { return Description{}, nil }
func (agentFunc) Start(context.Context, StartInfo) error        { return nil }
func (f agentFunc) Move(ctx context.Context, req MoveRequest) (string, error) {
	return f(ctx, req)
}
func (agentFunc) Observe(context.Context, int, string, int) error { return nil }
func (agentFunc) End(context.Context, EndInfo) error              { return nil }

func TestChannelOversizedReplyIsABadReplyThenGRPCTakesOver(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("x", 5000)
	c, _, _, w := channelPair(t, agentFunc(func(_ context.Context, req MoveRequest) (string, error) {
		if req.Ply == 0 {
			return big, nil
		}
		return "ok", nil
	}))
	c.MaxReply = 100
	_, err := c.Move(ctx, MoveRequest{Ply: 0})
	var be *BadReplyError
	if !errors.As(err, &be) {
		t.Fatalf("oversized reply: %v, want a *BadReplyError", err)
	}
	if be.Limit != 100 || be.Size < int64(len(big)) || be.Size > int64(len(big))+64 {
		t.Errorf("BadReplyError %+v: want limit 100 and the frame's size (about %d)", be, len(big))
	}
	if c.MoveChannel() {
		t.Error("the channel is still up after a frame it could not read")
	}
	m, err := c.Move(ctx, MoveRequest{Ply: 1})
	if err != nil || m != "ok" {
		t.Fatalf("next move: %q, %v", m, err)
	}
	if n := grpcMoves(w); n != 1 {
		t.Errorf("%d moves through gRPC after the channel went down, want 1", n)
	}
}

func TestChannelCancelReachesTheAgentAndItsLateReplyIsDropped(t *testing.T) {
	cancelled := make(chan struct{})
	c, _, _, w := channelPair(t, agentFunc(func(ctx context.Context, req MoveRequest) (string, error) {
		if req.Ply == 0 {
			<-ctx.Done()
			close(cancelled)
			return "late", nil // arrives after the arena gave up
		}
		return "next", nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if m, err := c.Move(ctx, MoveRequest{Ply: 0}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled move: %q, %v; want context.Canceled", m, err)
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the agent's move context was never cancelled")
	}
	m, err := c.Move(context.Background(), MoveRequest{Ply: 1})
	if err != nil || m != "next" {
		t.Fatalf("move after a cancelled one: %q, %v; want its own reply", m, err)
	}
	if !c.MoveChannel() || grpcMoves(w) != 0 {
		t.Errorf("channel up %v, gRPC moves %d: a late reply must not take the channel down", c.MoveChannel(), grpcMoves(w))
	}
}

// rawAgent serves the agent's end of a channel by hand: each request read
// is answered by answer (nil: no reply).
func rawAgent(t *testing.T, conn net.Conn, answer func(req *pb.MoveRequest) []byte) {
	t.Helper()
	go func() {
		for {
			body, _, err := readFrame(conn, func() int { return maxRequestFrame })
			if err != nil {
				return
			}
			req := &pb.MoveRequest{}
			if proto.Unmarshal(body, req) != nil || req.Cancel {
				continue
			}
			if b := answer(req); b != nil {
				if _, err := conn.Write(b); err != nil {
					return
				}
			}
		}
	}()
}

func frame(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := encodeFrame(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestChannelMisbehaviourTakesItDownAndGRPCTakesOver(t *testing.T) {
	cases := map[string]func(t *testing.T, req *pb.MoveRequest) []byte{
		"a reply to a call never made": func(t *testing.T, req *pb.MoveRequest) []byte {
			return frame(t, &pb.MoveReply{CallId: req.CallId + 7, Move: []byte("x")})
		},
		"a reply without a call id": func(t *testing.T, req *pb.MoveRequest) []byte {
			return frame(t, &pb.MoveReply{Move: []byte("x")})
		},
		"a malformed frame": func(t *testing.T, req *pb.MoveRequest) []byte {
			return []byte{0, 0, 0, 3, 0xff, 0xff, 0xff}
		},
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			c, _, _, w := pair(t)
			arenaEnd, agentEnd := socketPair(t)
			rawAgent(t, agentEnd, func(req *pb.MoveRequest) []byte { return answer(t, req) })
			c.UseMoveChannel(arenaEnd)
			_, err := c.Move(context.Background(), MoveRequest{})
			if err == nil || IsAgentError(err) || IsBadReply(err) {
				t.Fatalf("move: %v; want a failure to reach the agent", err)
			}
			if m, err := c.Move(context.Background(), MoveRequest{}); err != nil || m != "m" {
				t.Fatalf("next move: %q, %v; want gRPC's reply", m, err)
			}
			if grpcMoves(w) != 1 || c.MoveChannel() {
				t.Errorf("gRPC moves %d, channel up %v; want 1 and down", grpcMoves(w), c.MoveChannel())
			}
		})
	}
}

func TestChannelClosedByTheAgentFailsTheWaitingMove(t *testing.T) {
	c, _, _, _ := pair(t)
	arenaEnd, agentEnd := socketPair(t)
	rawAgent(t, agentEnd, func(*pb.MoveRequest) []byte {
		agentEnd.Close()
		return nil
	})
	c.UseMoveChannel(arenaEnd)
	done := make(chan error, 1)
	go func() {
		_, err := c.Move(context.Background(), MoveRequest{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || IsAgentError(err) {
			t.Fatalf("move on a closed channel: %v; want a failure to reach the agent", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a move on a channel the agent closed never returned")
	}
}

// BenchmarkMoveChannel is BenchmarkMoveIncremental over the move channel
// (a socket pair in process, the agent doing nothing).
func BenchmarkMoveChannel(b *testing.B) {
	c, _, rec, _ := channelPair(b, nil)
	rec.discard = true
	ctx := context.Background()
	h := benchHistory()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 2 * (i % 30)
		if n == 0 {
			c.mu.Lock()
			c.acked = 0
			c.mu.Unlock()
		}
		if _, err := c.Move(ctx, MoveRequest{History: h[:n]}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzChannelReplies sends whatever bytes an agent might write back on its
// move channel: the call returns a reply to its own request or an error,
// never panics or hangs, and an error that is not the agent's own report
// leaves the channel down (later moves go through gRPC).
func FuzzChannelReplies(f *testing.F) {
	f.Add(frame(nilT{}, &pb.MoveReply{CallId: 1, Move: []byte("PIT 0")}))
	f.Add(frame(nilT{}, &pb.MoveReply{CallId: 1, NeedHistory: true}))
	f.Add(frame(nilT{}, &pb.MoveReply{CallId: 2, Move: []byte("x")}))
	f.Add([]byte{0, 0, 0, 3, 0xff, 0xff, 0xff})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		arenaEnd, agentEnd := socketPair(t)
		m := newMoveChannel(arenaEnd)
		go func() {
			// Read the request, answer with data, hang up.
			_, _, _ = readFrame(agentEnd, func() int { return maxRequestFrame })
			_, _ = agentEnd.Write(data)
			agentEnd.Close()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rep, err := m.call(ctx, &pb.MoveRequest{}, 100, nil)
		if ctx.Err() != nil {
			t.Fatal("a call on a channel the agent closed did not return")
		}
		if err == nil {
			if rep == nil || rep.CallId != 1 {
				t.Fatalf("reply %v to call 1", rep)
			}
			return
		}
		if m.down() == nil {
			t.Fatalf("error %v left the channel up", err)
		}
	})
}

// nilT lets frame build seed inputs outside a test.
type nilT struct{ testing.TB }

func (nilT) Helper()           {}
func (nilT) Fatal(args ...any) { panic(fmt.Sprint(args...)) }

// The watcher sleeps once moves stop coming; a long move begun after that
// still has its reading passed on, so its cancel is read.
func TestChannelHandsOnAfterTheWatcherSlept(t *testing.T) {
	cancelled := make(chan struct{})
	c, srv, _, _ := pairWith(t, agentFunc(func(ctx context.Context, req MoveRequest) (string, error) {
		if req.Ply == 1 {
			<-ctx.Done()
			close(cancelled)
			return "late", nil
		}
		return "quick", nil
	}))
	arenaEnd, agentEnd := socketPair(t)
	srvEnd := newAgentChannel(srv, agentEnd)
	t.Cleanup(srvEnd.stop)
	go srvEnd.watch()
	go srvEnd.read()
	c.UseMoveChannel(arenaEnd)

	if m, err := c.Move(context.Background(), MoveRequest{Ply: 0}); err != nil || m != "quick" {
		t.Fatalf("first move: %q, %v", m, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !srvEnd.parked.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the watcher never went to sleep with no move coming")
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Give up on the move once the agent is thinking on it.
	go func() {
		for srvEnd.answering.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, err := c.Move(ctx, MoveRequest{Ply: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled move: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the cancel of a move begun after the watcher slept was never read")
	}
	if m, err := c.Move(context.Background(), MoveRequest{Ply: 2}); err != nil || m != "quick" {
		t.Fatalf("move after the cancelled one: %q, %v", m, err)
	}
}

// gameCalls records the calls of a game other than moves.
type gameCalls struct {
	agentFunc
	mu       sync.Mutex
	log      []string
	startErr error // Start's answer
	block    bool  // Start waits for its context to end
	panicEnd bool
}

func (g *gameCalls) note(s string) {
	g.mu.Lock()
	g.log = append(g.log, s)
	g.mu.Unlock()
}

func (g *gameCalls) Start(ctx context.Context, info StartInfo) error {
	g.note(fmt.Sprintf("start %s seat %d %s %v seed %d", info.GameID, info.Seat, info.Clock.Model, info.Clock.MoveLimit, info.Seed))
	if g.block {
		<-ctx.Done()
		return ctx.Err()
	}
	return g.startErr
}

func (g *gameCalls) Observe(_ context.Context, seat int, move string, ply int) error {
	g.note(fmt.Sprintf("observe %d %s %d", seat, move, ply))
	return nil
}

func (g *gameCalls) End(_ context.Context, info EndInfo) error {
	if g.panicEnd {
		panic("end exploded")
	}
	g.note(fmt.Sprintf("end winner %d %s %v", info.Winner, info.Reason, info.Scores))
	return nil
}

func (g *gameCalls) seen() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.log, "; ")
}

func TestGameCallsTravelOnTheChannel(t *testing.T) {
	ctx := context.Background()
	g := &gameCalls{agentFunc: func(context.Context, MoveRequest) (string, error) { return "m", nil }}
	c, _, _, w := channelPair(t, g)
	if err := c.Start(ctx, StartInfo{GameID: "g1", Seat: 1, Seed: 7, Clock: Clock{Model: "per-move", MoveLimit: 2 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Observe(ctx, 0, "PIT 3", 4); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Move(ctx, MoveRequest{History: []string{"a"}}); err != nil || m != "m" {
		t.Fatalf("move: %q, %v", m, err)
	}
	if err := c.End(ctx, EndInfo{Winner: 1, Reason: "r", Scores: []int{3, 4}}); err != nil {
		t.Fatal(err)
	}
	want := "start g1 seat 1 per-move 2s seed 7; observe 0 PIT 3 4; end winner 1 r [3 4]"
	if got := g.seen(); got != want {
		t.Errorf("the agent saw %q, want %q", got, want)
	}
	w.mu.Lock()
	calls := fmt.Sprint(w.calls)
	w.mu.Unlock()
	if calls != "[]" {
		t.Errorf("gRPC calls %s with the channel up, want none", calls)
	}

	// The agent's failures come back with its words, and the channel
	// stays up for the next call.
	g.startErr = errors.New("no such game here")
	if err := c.Start(ctx, StartInfo{GameID: "g2"}); err == nil || !strings.Contains(err.Error(), "no such game here") {
		t.Errorf("failed start: %v, want the agent's words", err)
	}
	g.panicEnd = true
	if err := c.End(ctx, EndInfo{}); err == nil || !strings.Contains(err.Error(), "end exploded") {
		t.Errorf("panicking end: %v, want the panic reported", err)
	}
	if !c.MoveChannel() {
		t.Fatal("an agent's failure took the channel down")
	}

	// A start given up on is cancelled at the agent; the channel stays in
	// step for the move after it.
	g.startErr, g.block = nil, true
	sctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := c.Start(sctx, StartInfo{GameID: "g3"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("start past its deadline: %v", err)
	}
	if m, err := c.Move(ctx, MoveRequest{History: []string{"a"}}); err != nil || m != "m" {
		t.Fatalf("move after a cancelled start: %q, %v", m, err)
	}

	// Once the channel is down, the same calls go through gRPC.
	g.block = false
	c.Close()
	if err := c.Start(ctx, StartInfo{GameID: "g4"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Observe(ctx, 1, "x", 5); err != nil {
		t.Fatal(err)
	}
	g.panicEnd = false
	if err := c.End(ctx, EndInfo{Winner: -1}); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	calls = fmt.Sprint(w.calls)
	w.mu.Unlock()
	if calls != "[StartGame Observe EndGame]" {
		t.Errorf("gRPC calls %s with the channel down, want [StartGame Observe EndGame]", calls)
	}
	if got := g.seen(); !strings.HasSuffix(got, "start g4 seat 0  0s seed 0; observe 1 x 5; end winner -1  []") {
		t.Errorf("the agent saw %q", got)
	}
}
