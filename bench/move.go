package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"arena/agents"
	"arena/agents/builtin"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
	pb "arena/plugins/proto"
	"arena/plugins/protocol"
)

// game is a random Dots and Boxes 5x5 game: the request for each ply.
func game() ([]protocol.MoveRequest, protocol.StartInfo, error) {
	g, err := all.Registry().Lookup("dots-and-boxes")
	if err != nil {
		return nil, protocol.StartInfo{}, err
	}
	st, err := g.NewState(engine.Params{})
	if err != nil {
		return nil, protocol.StartInfo{}, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var hist []string
	var reqs []protocol.MoveRequest
	var buf []engine.Move
	for !st.Terminal() {
		reqs = append(reqs, protocol.MoveRequest{History: slices.Clone(hist), Board: st.Text(), Seat: st.ToMove(), Ply: st.Ply(), TimeLeft: 5 * time.Second})
		buf = st.LegalMoves(buf[:0])
		m := buf[rng.IntN(len(buf))]
		hist = append(hist, st.FormatMove(m))
		st.Apply(m)
	}
	info := protocol.StartInfo{GameID: "bench", Game: "dots-and-boxes", Params: map[string]string{}, Clock: protocol.Clock{Model: "per-move", MoveLimit: time.Minute, FirstMoveLimit: time.Minute}}
	return reqs, info, nil
}

// midgame is a move request of realistic size: ply 20 of that game.
func midgame() (protocol.MoveRequest, protocol.StartInfo, error) {
	reqs, info, err := game()
	if err != nil {
		return protocol.MoveRequest{}, info, err
	}
	info.Seat = reqs[20].Seat
	return reqs[20], info, nil
}

func wire(req protocol.MoveRequest) *pb.MoveRequest {
	return &pb.MoveRequest{History: req.History, Board: req.Board, Seat: int32(req.Seat), Ply: int32(req.Ply),
		TimeLeftMs: req.TimeLeft.Milliseconds(), DeadlineUnixMs: time.Now().Add(time.Minute).UnixMilli()}
}

func launcher(self string) *host.Launcher {
	return &host.Launcher{Self: []string{self, agents.HostArg}, Builtins: builtin.Names(), StderrBytes: 8192, Notify: func(string) {}}
}

// readmeLauncher starts agents as the README's build does: served by the
// lean host, each sandbox's init the init alone (arena-init).
func readmeLauncher(b *bins) *host.Launcher {
	l := launcher(b.lean)
	l.Init = b.init
	return l
}

// timeCalls calls fn n times after warm calls not timed and returns each
// call's time.
func timeCalls(n, warm int, fn func() error) ([]time.Duration, error) {
	for range warm {
		if err := fn(); err != nil {
			return nil, err
		}
	}
	out := make([]time.Duration, n)
	for i := range out {
		t := time.Now()
		if err := fn(); err != nil {
			return nil, err
		}
		out[i] = time.Since(t)
	}
	return out, nil
}

// startServer starts a floor server that prints "ready" once listening.
func startServer(ctx context.Context, argv ...string) (*exec.Cmd, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("%s did not start: %q %v", argv[0], line, err)
	}
	return cmd, nil
}

func stop(cmd *exec.Cmd) {
	cmd.Process.Kill()
	cmd.Wait()
}

// moveWarmUp is the calls made before a per-move measurement: enough for
// the connection's buffers and both sides' code to be warm.
const moveWarmUp = 100

// startWarmUp is the starts made before a start measurement: the first
// start reads the binary from disk, the second finds it in the page
// cache; the launches of the agent kinds warm up with the same two.
const startWarmUp = 2

// agentRun is one agent's timed moves.
type agentRun struct {
	name      string
	times     []time.Duration
	sandboxed bool
	channel   bool
}

// timeAgents times one seat's move requests through the arena's path:
// an agent launched as in a game (sandboxed where the machine allows),
// asked through the protocol client, the game started again after its
// last move (not timed); an SDK agent, and a protocol agent without the
// SDK's work (it rebuilds no position).
func timeAgents(ctx context.Context, o options, b *bins, mine []protocol.MoveRequest, info protocol.StartInfo) ([]agentRun, error) {
	l := launcher(b.arena)
	var runs []agentRun
	for _, a := range []struct{ name, ref string }{{"SDK agent", b.timed}, {"protocol agent without the SDK", b.raw}} {
		p, err := l.Launch(ctx, a.ref, host.Options{})
		if err != nil {
			return nil, err
		}
		run := agentRun{name: a.name, sandboxed: p.Sandboxed()}
		for i := 0; len(run.times) < o.moves; i++ {
			k := i % len(mine)
			if k == 0 {
				if err := p.Agent.Start(ctx, info); err != nil {
					p.Kill()
					return nil, err
				}
			}
			t0 := time.Now()
			if _, err := p.Agent.Move(ctx, mine[k]); err != nil {
				p.Kill()
				return nil, fmt.Errorf("%s move: %w", a.name, err)
			}
			if i >= moveWarmUp {
				run.times = append(run.times, time.Since(t0))
			}
		}
		if c, ok := p.Agent.(*protocol.Client); ok {
			run.channel = c.MoveChannel()
		}
		p.Kill()
		runs = append(runs, run)
	}
	return runs, nil
}

// timeBareTransports times the same request over a plain gRPC server and
// a bare socket, the yardsticks of the arena's path.
func timeBareTransports(ctx context.Context, o options, b *bins, incr *pb.MoveRequest, payload, replyBytes []byte) (grpcT, sockT []time.Duration, err error) {
	// Bare gRPC: a request of the same size to a plain gRPC server on a Unix socket.
	dir, err := os.MkdirTemp("", "arena-bench-sock-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	gsock := filepath.Join(dir, "grpc.sock")
	gs, err := startServer(ctx, b.mingrpc, gsock)
	if err != nil {
		return nil, nil, err
	}
	defer stop(gs)
	conn, err := grpc.DialContext(ctx, "unix://"+gsock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	gc := pb.NewAgentClient(conn)
	grpcT, err = timeCalls(o.moves, moveWarmUp, func() error {
		_, err := gc.Move(ctx, incr)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bare grpc: %w", err)
	}

	// Bare socket: the marshalled request, length-prefixed, and a reply of
	// the marshalled reply's size.
	ssock := filepath.Join(dir, "pp.sock")
	ps, err := startServer(ctx, b.pingpong, ssock, fmt.Sprint(len(replyBytes)))
	if err != nil {
		return nil, nil, err
	}
	defer stop(ps)
	c, err := net.Dial("unix", ssock)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	frame := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	frame = append(frame, payload...)
	in := make([]byte, 4+len(replyBytes))
	sockT, err = timeCalls(o.moves, moveWarmUp, func() error {
		if _, err := c.Write(frame); err != nil {
			return err
		}
		_, err := io.ReadFull(c, in)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bare socket: %w", err)
	}

	return grpcT, sockT, nil
}

func benchMove(ctx context.Context, o options, b *bins, t *table) error {
	reqs, info, err := game()
	if err != nil {
		return err
	}
	// One seat's requests: every other ply, two new moves each.
	var mine []protocol.MoveRequest
	for i := 2; i < len(reqs); i += 2 {
		mine = append(mine, reqs[i])
	}
	mid := mine[len(mine)/2]
	full, err := proto.Marshal(wire(mid))
	if err != nil {
		return err
	}
	// What protocol version 2 sends for it: the two moves since the last request.
	incr := wire(mid)
	incr.History, incr.HistoryFrom = mid.History[len(mid.History)-2:], int32(len(mid.History)-2)
	payload, err := proto.Marshal(incr)
	if err != nil {
		return err
	}
	replyBytes, _ := proto.Marshal(&pb.MoveReply{Move: []byte(mid.History[0])})

	runs, err := timeAgents(ctx, o, b, mine, info)
	if err != nil {
		return err
	}
	grpcT, sockT, err := timeBareTransports(ctx, o, b, incr, payload, replyBytes)
	if err != nil {
		return err
	}

	for _, run := range runs {
		what := fmt.Sprintf("Dots 5x5 move request, %d B sent (%d B with the whole history), %s, sandboxed=%v, move channel=%v", len(payload), len(full), run.name, run.sandboxed, run.channel)
		for _, q := range []struct {
			name string
			q    float64
		}{{"p50", 0.5}, {"p99", 0.99}} {
			a, s, g := quantile(run.times, q.q), quantile(sockT, q.q), quantile(grpcT, q.q)
			t.add("move", what+" "+q.name, us(a), "socket "+us(s)+", gRPC "+us(g), ratio(a, s)+" socket, "+ratio(a, g)+" gRPC")
		}
	}
	return nil
}
