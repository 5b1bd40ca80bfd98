package protocol

import (
	"context"
	"net"
	"path"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "arena/plugins/proto"
)

// recorder is an agent that keeps every history it was handed.
type recorder struct {
	mu      sync.Mutex
	seen    [][]string
	discard bool // benchmarks: keep nothing
}

func (*recorder) Describe(context.Context) (Description, error) { return Description{}, nil }
func (*recorder) Start(context.Context, StartInfo) error        { return nil }
func (r *recorder) Move(_ context.Context, req MoveRequest) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.discard {
		r.seen = append(r.seen, req.History)
	}
	return "m", nil
}
func (*recorder) Observe(context.Context, int, string, int) error { return nil }
func (*recorder) End(context.Context, EndInfo) error              { return nil }

// wire notes what each move request carried.
type wire struct {
	mu    sync.Mutex
	from  []int
	sent  []int
	calls []string // every gRPC method called, in order
}

// pair connects a Client to a server over a Unix socket, recording the
// move requests on the wire.
func pair(t testing.TB) (*Client, *server, *recorder, *wire) {
	t.Helper()
	return pairWith(t, nil)
}

// pairWith is pair serving impl (nil: the recorder).
func pairWith(t testing.TB, impl Agent) (*Client, *server, *recorder, *wire) {
	t.Helper()
	rec, w := &recorder{}, &wire{}
	if impl == nil {
		impl = rec
	}
	srv := &server{impl: impl}
	gs := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		w.mu.Lock()
		w.calls = append(w.calls, path.Base(info.FullMethod))
		if m, ok := req.(*pb.MoveRequest); ok {
			w.from, w.sent = append(w.from, int(m.HistoryFrom)), append(w.sent, len(m.History))
		}
		w.mu.Unlock()
		return h(ctx, req)
	}))
	pb.RegisterAgentServer(gs, srv)
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(ln)
	t.Cleanup(gs.Stop)
	conn, err := grpc.Dial("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &Client{rpc: pb.NewAgentClient(conn)}, srv, rec, w
}

func TestMoveRequestsSendOnlyNewMoves(t *testing.T) {
	ctx := context.Background()
	c, srv, rec, w := pair(t)
	if err := c.Start(ctx, StartInfo{}); err != nil {
		t.Fatal(err)
	}
	histories := [][]string{{}, {"a", "b"}, {"a", "b", "c", "d"}, {"a", "b", "c", "d", ""}}
	for _, h := range histories {
		if _, err := c.Move(ctx, MoveRequest{History: h}); err != nil {
			t.Fatal(err)
		}
	}
	// The agent saw every whole history; the wire carried each move once.
	if !reflect.DeepEqual(rec.seen, [][]string{nil, {"a", "b"}, {"a", "b", "c", "d"}, {"a", "b", "c", "d", ""}}) {
		t.Fatalf("agent saw %q", rec.seen)
	}
	if !reflect.DeepEqual(w.from, []int{0, 0, 2, 4}) || !reflect.DeepEqual(w.sent, []int{0, 2, 2, 1}) {
		t.Fatalf("wire: from %v, moves %v", w.from, w.sent)
	}

	// An agent that lost its history asks for it, and gets it whole.
	srv.mu.Lock()
	srv.history = nil
	srv.mu.Unlock()
	if _, err := c.Move(ctx, MoveRequest{History: []string{"a", "b", "c", "d", "", "e"}}); err != nil {
		t.Fatal(err)
	}
	if got := rec.seen[len(rec.seen)-1]; !reflect.DeepEqual(got, []string{"a", "b", "c", "d", "", "e"}) {
		t.Fatalf("after losing its history the agent saw %q", got)
	}
	if !reflect.DeepEqual(w.from[4:], []int{5, 0}) || !reflect.DeepEqual(w.sent[4:], []int{1, 6}) {
		t.Fatalf("wire after the loss: from %v, moves %v; want a request from 5, then the whole history", w.from[4:], w.sent[4:])
	}

	// A new game starts from an empty history on both sides.
	if err := c.Start(ctx, StartInfo{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(ctx, MoveRequest{History: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if got := rec.seen[len(rec.seen)-1]; !reflect.DeepEqual(got, []string{"x"}) || w.from[len(w.from)-1] != 0 {
		t.Fatalf("new game: agent saw %q, request from %d", got, w.from[len(w.from)-1])
	}
}

// A request cut short (the arena gave up on it) is not acknowledged: the
// next request resends its moves, and the agent's history stays right.
func TestUnacknowledgedMovesAreResent(t *testing.T) {
	ctx := context.Background()
	c, _, rec, w := pair(t)
	if err := c.Start(ctx, StartInfo{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(ctx, MoveRequest{History: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Move(cancelled, MoveRequest{History: []string{"a", "b", "c"}}); err == nil {
		t.Fatal("a cancelled request succeeded")
	}
	if _, err := c.Move(ctx, MoveRequest{History: []string{"a", "b", "c", "d"}}); err != nil {
		t.Fatal(err)
	}
	if got := rec.seen[len(rec.seen)-1]; !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Fatalf("agent saw %q", got)
	}
	if last := len(w.from) - 1; w.from[last] != 1 || w.sent[last] != 3 {
		t.Fatalf("last request from %d with %d moves, want from 1 with 3", w.from[last], w.sent[last])
	}
}

// benchHistory is a 60-move history, long as a Bohnenspiel game.
func benchHistory() []string {
	h := make([]string, 60)
	for i := range h {
		h[i] = "move " + string(rune('a'+i%26))
	}
	return h
}

// BenchmarkMoveIncremental asks for a move after each pair of moves of a
// 60-move game, sending only the new moves (protocol version 2).
func BenchmarkMoveIncremental(b *testing.B) {
	benchMoves(b, false)
}

// BenchmarkMoveWholeHistory asks the same, sending the whole history every
// time (what version 1 did, and what an agent that asks gets).
func BenchmarkMoveWholeHistory(b *testing.B) {
	benchMoves(b, true)
}

func benchMoves(b *testing.B, whole bool) {
	c, _, rec, _ := pair(b)
	rec.discard = true
	ctx := context.Background()
	h := benchHistory()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 2 * (i % 30)
		if n == 0 || whole {
			c.mu.Lock()
			c.acked = 0
			c.mu.Unlock()
		}
		if _, err := c.Move(ctx, MoveRequest{History: h[:n]}); err != nil {
			b.Fatal(err)
		}
	}
}
