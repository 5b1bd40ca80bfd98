package referee_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"arena/agents/builtin"
	"arena/agents/lua"
	"arena/internal/testparallel"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// The test binary doubles as an agent host: the launcher re-executes it
// with hostArg and the agent's name, and TestMain serves that agent as a
// real go-plugin subprocess.
const hostArg = "__test_agent"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		serveTestAgent(os.Args[2])
		return
	}
	flag.Parse()
	if err := testparallel.Default(waitingParallel); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// waitingParallel is how many parallel tests run at once unless -parallel
// says otherwise. The hostile games spend their time waiting for limits to
// pass (a start-up that never comes, a reply that never comes), not
// computing; go test's default of one test per CPU would serialise those
// waits into minutes on a small machine.
const waitingParallel = 8

// longRunning skips a test under -short: the short suite keeps the fake-agent
// tests, one real game per verdict kind it needs and few repetitions, and
// leaves out the games of hogs, burners and flooders and the sleeper's
// real-time wait (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays games with real processes that hog, burn, flood or wait on the real clock: runs without -short")
	}
}

// misbehaving agents, each failing one way on cue.
var testAgents = []string{"random", "greedy", "sleeper", "late", "garbage", "illegal", "erring", "quitter", "oldproto", "noisy", "burner", "hog", "viewer",
	"silent", "cushioned", "badutf8", "nul", "exit0", "panicker", "crasher", "flood", "flood-raw"}

func serveTestAgent(ref string) {
	if strings.HasPrefix(ref, "lua:") {
		if err := lua.Serve(ref); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return
	}
	name := strings.TrimPrefix(ref, "builtin:")
	var a sdk.Agent
	var opts []sdk.Option
	switch name {
	case "silent":
		// Never answers its second move request, and does nothing else.
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			select {}
		}}
	case "cushioned":
		// A legal move on its second request, late by the test's clock
		// (cushionedBy on cue, timing), not by a sleep of its own.
		a = &scripted{on: 2, actTurn: func(t sdk.Turn) (string, error) {
			return t.Legal[0], nil
		}}
	case "badutf8":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) { return "PIT 0 \xff\xfe\xfd", nil }}
	case "nul":
		a = &scripted{on: 1, actTurn: func(t sdk.Turn) (string, error) { return t.Legal[0] + "\x00", nil }}
	case "exit0":
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			os.Exit(0)
			return "", nil
		}}
	case "panicker":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) { panic("the agent's own bug") }}
	case "crasher":
		// A panic outside the request's goroutine takes the process down.
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			go panic("crash in a goroutine of the agent's own")
			select {}
		}}
	case "flood", "flood-raw":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) { return strings.Repeat("x", floodBytes), nil }}
		if name == "flood-raw" {
			// As an agent that does not use the SDK's send limit: only the
			// arena's own receive limit stands in the way.
			cfg := sdk.ServeConfig(a)
			cfg.GRPCServer = func(o []grpc.ServerOption) *grpc.Server {
				return grpc.NewServer(append(o, grpc.MaxSendMsgSize(1<<30))...)
			}
			plugin.Serve(cfg)
			os.Exit(0)
		}
	case "random", "greedy":
		b, err := builtin.New(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		a = b
	case "sleeper":
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			// A child in the same process group must die with the agent.
			cmd := exec.Command("sleep", "300")
			if err := cmd.Start(); err == nil {
				fmt.Fprintf(os.Stderr, "child pid %d\n", cmd.Process.Pid)
			}
			time.Sleep(time.Hour)
			return "", nil
		}}
	case "late":
		// Late by lateBy on the test's clock (on cue, timing); whatever it
		// says must be discarded.
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			return "SKIP 0", nil
		}}
	case "garbage":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) { return "hello referee", nil }}
	case "illegal":
		a = &scripted{on: 2, actTurn: func(t sdk.Turn) (string, error) { return fmt.Sprintf("PIT %d 9", t.Seat), nil }}
	case "erring":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) { return "", fmt.Errorf("no idea") }}
	case "quitter":
		a = &scripted{on: 3, act: func(ctx context.Context) (string, error) {
			os.Exit(3)
			return "", nil
		}}
	case "noisy":
		a = &scripted{on: 1, act: func(ctx context.Context) (string, error) {
			line := strings.Repeat("x", 1000) + "\n"
			for range 2000 {
				fmt.Fprint(os.Stderr, line)
				fmt.Fprint(os.Stdout, line)
			}
			fmt.Fprintln(os.Stderr, "LAST LINE")
			return "", fmt.Errorf("noisy error")
		}}
	case "burner":
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			burnCPU(3 * time.Second)
			return "STEAL", nil // never applied: the budget is gone
		}}
	case "hog":
		a = &scripted{on: 2, act: func(ctx context.Context) (string, error) {
			var hold [][]byte
			for range 40 {
				b := make([]byte, 8<<20)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				hold = append(hold, b)
			}
			time.Sleep(time.Hour)
			return fmt.Sprint(len(hold)), nil
		}}
	case "viewer":
		// Plays only from the platform-style view, as a ported bot would.
		a = &scripted{on: -1}
		a.(*scripted).every = func(t sdk.Turn) (string, error) {
			var v struct {
				IsMover          bool
				ResponseDeadline string
				Grid             [][3]json.RawMessage
			}
			if err := json.Unmarshal(t.View, &v); err != nil {
				return "", fmt.Errorf("bad view: %v", err)
			}
			if !v.IsMover || v.ResponseDeadline == "" {
				return "", fmt.Errorf("view lacks mover or deadline: %s", t.View)
			}
			for _, l := range v.Grid {
				if string(l[2]) == "-1" {
					return "[" + string(l[0]) + "," + string(l[1]) + "]", nil
				}
			}
			return "", fmt.Errorf("no undrawn line in view")
		}
	case "oldproto":
		a, _ = builtin.New("random")
		// An agent built against the SDK of the previous protocol version.
		opts = append(opts, sdk.WithProtocolVersion(protocol.Version-1))
	default:
		fmt.Fprintln(os.Stderr, "unknown test agent", name)
		os.Exit(2)
	}
	sdk.Serve(a, opts...)
}

// cushionedBy is how long the cushioned agent takes over its second move,
// on the game's clock: past hostileProfile's 2 s limit, 3 s inside the end
// of its 4 s cushion.
const cushionedBy = 3 * time.Second

// floodBytes is the size of the flood agents' reply.
const floodBytes = 100 << 20

// lateBy is how long the late agent takes over its second move, on the
// game's clock: well past the move limit and well inside the cushion of
// latencyProfile.
const lateBy = 4 * time.Second

// scripted plays random legal moves except on its on-th move request
// (counting from 1), where it does act (or actTurn) instead.
type scripted struct {
	on      int
	n       int
	act     func(context.Context) (string, error)
	actTurn func(sdk.Turn) (string, error)
	every   func(sdk.Turn) (string, error) // if set, plays every move
	rnd     builtin.Random
}

func (s *scripted) Start(ctx context.Context, g sdk.Game) error { return s.rnd.Start(ctx, g) }

func (s *scripted) Move(ctx context.Context, t sdk.Turn) (string, error) {
	s.n++
	if s.every != nil {
		return s.every(t)
	}
	if s.n == s.on {
		if s.actTurn != nil {
			return s.actTurn(t)
		}
		return s.act(ctx)
	}
	return s.rnd.Move(ctx, t)
}

// burnCPU spins until the process has used d more CPU time, however busy
// the machine is.
func burnCPU(d time.Duration) {
	start := cpuUsed()
	for cpuUsed()-start < d {
		for x := 0; x < 1_000_000; x++ {
		}
	}
}

func cpuUsed() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
