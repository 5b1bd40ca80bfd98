package host_test

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"arena/internal/testparallel"
	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

const hostArg = "__host_test_agent"

// longRunning skips a test under -short: the short suite keeps the
// quick launches (handshake, move channel, credentials, refusals) and
// leaves out the hostile fixture's attacks and the tests that wait on
// limits, samplers or memory (docs/testing.md).
func longRunning(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("waits on an agent's limits or samples it for seconds: runs without -short")
	}
}

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		serve(strings.TrimPrefix(os.Args[2], "builtin:"))
		return
	}
	flag.Parse()
	if err := testparallel.Default(waitingParallel); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	if hostile.path != "" {
		os.RemoveAll(filepath.Dir(hostile.path))
	}
	os.Exit(code)
}

// waitingParallel is how many of its parallel tests run at once unless
// -parallel says otherwise: the hostile games and launches wait on agents,
// limits and samplers far more than they compute, and their profiles give
// every honest reply a margin of many seconds. The tests that read run
// queues, pin CPUs or time a spin stay serial: they run alone, first.
const waitingParallel = 4

// rawAgent implements protocol.Agent directly, so the round-trip benchmark
// measures the transport and not the SDK's position rebuilding.
type rawAgent struct {
	move func() (string, error)
}

func (rawAgent) Describe(context.Context) (protocol.Description, error) {
	return protocol.Description{Name: "raw"}, nil
}
func (rawAgent) Start(context.Context, protocol.StartInfo) error { return nil }
func (a rawAgent) Move(context.Context, protocol.MoveRequest) (string, error) {
	return a.move()
}
func (rawAgent) Observe(context.Context, int, string, int) error { return nil }
func (rawAgent) End(context.Context, protocol.EndInfo) error     { return nil }

func serve(name string) {
	var a rawAgent
	switch name {
	case "echo":
		a.move = func() (string, error) { return "PIT 0 0", nil }
	case "hog":
		a.move = func() (string, error) {
			// Touch every page so the memory is resident, then keep it.
			var hold [][]byte
			for range 64 {
				b := make([]byte, 8<<20)
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
				hold = append(hold, b)
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(time.Hour)
			return fmt.Sprint(len(hold)), nil
		}
	case "burner":
		a.move = func() (string, error) {
			// Spin for 400 ms of this process's own CPU time, however busy
			// the machine is.
			var ru syscall.Rusage
			used := func() time.Duration {
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
				return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
			start := used()
			for used()-start < 400*time.Millisecond {
			}
			// Reply with the process's own CPU total, to compare with
			// what the host reads from outside.
			return fmt.Sprint(int64(used())), nil
		}
	case "spawner":
		a.move = spawnChild
	case "slowstart":
		// Takes its time before the handshake.
		time.Sleep(slowStart)
		a.move = func() (string, error) { return "PIT 0 0", nil }
	case "automtls":
		// An agent whose SDK predates protocol.ServerTLS: go-plugin's
		// AutoMTLS on its side.
		a.move = func() (string, error) { return "PIT 0 0", nil }
		cfg := sdk.ServeConfig(nil)
		cfg.Plugins = protocol.Plugins(a)
		cfg.TLSProvider = nil
		servePlugin(cfg)
	case "symlinker":
		// Announces as its plugin address a symbolic link in its private
		// directory to $SYMLINK_TARGET, a socket of the arena's file
		// system, and serves nothing.
		wd, err := os.Getwd()
		if err == nil {
			err = os.Symlink(os.Getenv("SYMLINK_TARGET"), filepath.Join(wd, "plugin.sock"))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		versions := strings.Split(os.Getenv("PLUGIN_PROTOCOL_VERSIONS"), ",")
		fmt.Printf("1|%s|unix|%s|grpc|\n", versions[len(versions)-1], filepath.Join(wd, "plugin.sock"))
		time.Sleep(time.Hour)
	case "certannouncer":
		// Announces a certificate of its own on its handshake line and
		// serves TLS with it (go-plugin's AutoMTLS, set off by itself),
		// where the arena gave it none.
		a.move = func() (string, error) { return "PIT 0 0", nil }
		if os.Getenv("PLUGIN_CLIENT_CERT") == "" {
			own, err := protocol.NewCredentials()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			os.Setenv("PLUGIN_CLIENT_CERT", string(own.ArenaCertPEM()))
		}
		cfg := sdk.ServeConfig(nil)
		cfg.Plugins = protocol.Plugins(a)
		cfg.TLSProvider = nil
		servePlugin(cfg)
	case "tlsprobe":
		// Replies whether its channel's TLS came from the arena's
		// credentials (protocol.ServerTLS) and refuses an arena that
		// presents another certificate.
		ours := false
		a.move = func() (string, error) { return fmt.Sprint("arena credentials: ", ours), nil }
		cfg := sdk.ServeConfig(nil)
		cfg.Plugins = protocol.Plugins(a)
		cfg.TLSProvider = func() (*tls.Config, error) {
			c, err := protocol.ServerTLS()
			ours = c != nil && err == nil
			return c, err
		}
		servePlugin(cfg)
	case "strangekey":
		// Serves with a certificate the arena did not issue.
		a.move = func() (string, error) { return "PIT 0 0", nil }
		cfg := sdk.ServeConfig(nil)
		cfg.Plugins = protocol.Plugins(a)
		cfg.TLSProvider = func() (*tls.Config, error) {
			c, err := protocol.ServerTLS()
			if err != nil {
				return nil, err
			}
			other, err := protocol.NewCredentials()
			if err != nil {
				return nil, err
			}
			env, _, err := other.ForAgent()
			if err != nil {
				return nil, err
			}
			os.Setenv(protocol.TLSEnv, env)
			strange, err := protocol.ServerTLS()
			if err != nil {
				return nil, err
			}
			c.Certificates = strange.Certificates
			return c, nil
		}
		servePlugin(cfg)
	default:
		fmt.Fprintln(os.Stderr, "unknown agent", name)
		os.Exit(2)
	}
	// Serve through the SDK's configuration with a raw protocol agent.
	cfg := sdk.ServeConfig(nil)
	cfg.Plugins = protocol.Plugins(a)
	servePlugin(cfg)
}

func launcher() *host.Launcher {
	return &host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: []string{"echo", "hog", "burner", "spawner", "slowstart", "automtls", "tlsprobe", "strangekey", "certannouncer", "symlinker"}}
}

func launch(t testing.TB, name string, opt host.Options) *host.Process {
	t.Helper()
	p, err := launcher().Launch(context.Background(), name, opt)
	if err != nil {
		t.Fatalf("launch %s: %v", name, err)
	}
	return p
}

func TestResolve(t *testing.T) {
	l := launcher()
	if c, err := l.Resolve("echo"); err != nil || c.Kind != "builtin" || c.Argv[len(c.Argv)-1] != "builtin:echo" {
		t.Fatalf("bare built-in: %+v %v", c, err)
	}
	_, err := l.Resolve("nope")
	if err == nil || !strings.Contains(err.Error(), "builtin:echo") {
		t.Fatalf("unknown reference must list what exists: %v", err)
	}
	if _, err := l.Resolve("lua:/does/not/exist.lua"); err == nil {
		t.Fatal("missing Lua script accepted")
	}
	if _, err := l.Resolve("./no-such-binary"); err == nil {
		t.Fatal("missing binary accepted")
	}
	dir := t.TempDir()
	if _, err := l.Resolve(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("directory accepted as binary: %v", err)
	}
}

func TestNonAgentBinaryIsRefused(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	// Any program that is not an agent will do; true is on every Unix.
	bin, err := exec.LookPath("true")
	if err != nil {
		t.Skipf("needs the true command as a non-agent binary: %v", err)
	}
	_, err = launcher().Launch(context.Background(), bin, host.Options{StartTimeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), bin) || !strings.Contains(err.Error(), "arena SDK") {
		t.Fatalf("error %v", err)
	}
}

func TestMemoryLimitKillsAgent(t *testing.T) {
	t.Parallel() // its own agent; waits on the memory watch, not a clock
	longRunning(t)
	p := launch(t, "hog", host.Options{MemoryMB: 100})
	defer p.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := p.Agent.Move(ctx, protocol.MoveRequest{})
		done <- err
	}()
	select {
	case <-p.MemoryExceeded():
	case <-ctx.Done():
		t.Fatal("memory limit never triggered")
	}
	if err := <-done; err == nil {
		t.Fatal("the killed agent still answered")
	}
	// In a cgroup the kernel holds the peak at the limit; read from /proc
	// it is the first sample over it.
	if !p.OverMemory() || p.PeakRSS() < 100<<20 {
		t.Fatalf("over=%v peak=%d", p.OverMemory(), p.PeakRSS())
	}
	waitGone(t, p)
}

func TestCPUTimeIsMeasured(t *testing.T) {
	t.Parallel() // its own agent; CPU time, which load does not change
	longRunning(t)
	p := launch(t, "burner", host.Options{})
	defer p.Kill()
	before, err := p.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	reply, err := p.Agent.Move(context.Background(), protocol.MoveRequest{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := p.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	// The agent spun for 400 ms of its own CPU; /proc counts in 10 ms ticks.
	if used := after - before; used < 380*time.Millisecond {
		t.Fatalf("CPU time grew by %v over 400 ms of spinning", used)
	}
	// Bounded from above too: the host's reading is the agent's own total
	// (getrusage, taken just before it replied), less up to two 10 ms ticks
	// of /proc rounding, plus the little CPU the reply itself costs. Load
	// on the machine does not add CPU time to a process.
	ns, err := strconv.ParseInt(reply, 10, 64)
	if err != nil {
		t.Fatalf("burner reply %q: %v", reply, err)
	}
	self := time.Duration(ns)
	if after < self-30*time.Millisecond || after > self+100*time.Millisecond {
		t.Fatalf("host reads %v of CPU; the agent counted %v itself", after, self)
	}
	if before > self-380*time.Millisecond {
		t.Fatalf("host read %v before the move; the agent used %v in all, 400 ms of it during the move", before, self)
	}
	p.Kill()
	waitGone(t, p)
}

// Moves of a launched agent travel on its move channel, through the
// sandbox's init where there is one, and not through gRPC.
func TestMovesUseTheMoveChannel(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	p := launch(t, "echo", host.Options{})
	defer p.Kill()
	c, ok := p.Agent.(*protocol.Client)
	if !ok {
		t.Fatalf("agent is a %T", p.Agent)
	}
	for range 3 {
		reply, err := c.Move(context.Background(), protocol.MoveRequest{})
		if err != nil || reply != "PIT 0 0" {
			t.Fatalf("move: %q, %v", reply, err)
		}
	}
	if !c.MoveChannel() {
		t.Errorf("moves went through gRPC (sandboxed %v)", p.Sandboxed())
	}
	p.Kill()
	if c.MoveChannel() {
		t.Error("the move channel is still up after Kill")
	}
}

func waitGone(t *testing.T, p *host.Process) {
	t.Helper()
	if !p.WaitGone(10 * time.Second) {
		t.Fatalf("process group %d still alive", p.Pid())
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	tl := host.NewTail(10)
	fmt.Fprint(tl, "0123456789")
	fmt.Fprint(tl, "abc")
	if got := tl.String(); !strings.HasSuffix(got, "3456789abc") || !strings.Contains(got, "3 earlier bytes dropped") {
		t.Fatalf("tail %q", got)
	}
	fmt.Fprint(tl, strings.Repeat("z", 50))
	if got := tl.String(); !strings.HasSuffix(got, strings.Repeat("z", 10)) {
		t.Fatalf("tail %q", got)
	}
}

// BenchmarkMoveRoundTrip measures one Move call through go-plugin's gRPC
// transport to a trivial agent; it reports the median and 99th percentile.
func BenchmarkMoveRoundTrip(b *testing.B) {
	p := launch(b, "echo", host.Options{})
	defer p.Kill()
	ctx := context.Background()
	req := protocol.MoveRequest{History: []string{"PIT 0 1", "PIT 1 2"}, Board: "6,6,6,6,6,6|6,6,6,6,6,6|skip=2,2|blocked=0,0|turn=0"}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := p.Agent.Move(ctx, req); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	report(b, lat)
}

// BenchmarkLaunch measures starting an agent process through the
// handshake and killing it: the fixed cost of one agent in one game.
// "sandboxed" is the default start (namespaces, init, AutoMTLS); "plain"
// is isolation off (process group, AutoMTLS); "unauthenticated" is a
// process group without AutoMTLS, the start before sandboxes existed.
func BenchmarkLaunch(b *testing.B) {
	b.Run("sandboxed", func(b *testing.B) {
		l := launcher()
		if !l.Sandboxed() {
			b.Skip("no sandboxes here: " + l.Support().Unsupported)
		}
		benchLaunch(b, func() func() {
			p, err := l.Launch(context.Background(), "echo", host.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return p.Kill
		})
	})
	b.Run("plain", func(b *testing.B) {
		l := launcher()
		l.Isolation = host.IsolationOff
		benchLaunch(b, func() func() {
			p, err := l.Launch(context.Background(), "echo", host.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return p.Kill
		})
	})
	b.Run("unauthenticated", func(b *testing.B) {
		benchLaunch(b, func() func() { return unauthenticatedLaunch(b) })
	})
}

// benchLaunch times start (through the handshake) and then calls the
// kill it returns, untimed.
func benchLaunch(b *testing.B, start func() (kill func())) {
	lat := make([]time.Duration, 0, b.N)
	for range b.N {
		t0 := time.Now()
		kill := start()
		lat = append(lat, time.Since(t0))
		kill()
	}
	report(b, lat)
}

// unauthenticatedLaunch is a go-plugin start in a process group with no
// sandbox and no TLS; it returns the kill.
func unauthenticatedLaunch(b *testing.B) func() {
	cmd := exec.Command(os.Args[0], hostArg, "builtin:echo")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	c := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  protocol.Handshake(protocol.Version),
		Plugins:          protocol.Plugins(nil),
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           hclog.NewNullLogger(),
		SyncStdout:       io.Discard,
		SyncStderr:       io.Discard,
	})
	if _, err := c.Client(); err != nil {
		b.Fatal(err)
	}
	return func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		c.Kill()
	}
}

func report(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// A course agent's reference goes through Prepare before it starts, which
// may name another reference for the agent host (here a built-in one) or
// refuse the agent; other kinds never do.
func TestCourseAgentsArePrepared(t *testing.T) {
	longRunning(t)
	dir := t.TempDir()
	var calls []string
	l := launcher()
	l.Prepare = func(_ context.Context, ref string, sandboxed bool) (string, []string, error) {
		calls = append(calls, ref)
		if sandboxed != l.Sandboxed() {
			t.Errorf("Prepare told sandboxed=%v, launcher %v", sandboxed, l.Sandboxed())
		}
		if strings.HasSuffix(ref, "?refuse") {
			return "", nil, errors.New("no course program here")
		}
		return "builtin:echo", nil, nil
	}
	p, err := l.Launch(context.Background(), "course:"+dir, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if reply, err := p.Agent.Move(context.Background(), protocol.MoveRequest{}); err != nil || reply != "PIT 0 0" {
		t.Fatalf("prepared agent's move: %q, %v", reply, err)
	}
	if len(calls) != 1 || calls[0] != "course:"+dir {
		t.Errorf("Prepare calls %q, want one with %q", calls, "course:"+dir)
	}
	if _, err := l.Launch(context.Background(), "course:"+dir+"?refuse", host.Options{}); err == nil || !strings.Contains(err.Error(), "no course program here") {
		t.Errorf("refused course agent: %v", err)
	}
	e, err := l.Launch(context.Background(), "echo", host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Kill()
	if len(calls) != 2 {
		t.Errorf("Prepare called %d times, want 2 (never for a built-in agent)", len(calls))
	}
}

// The first reading of a just-started agent is a real one: its memory is
// there from the start.
func TestPeakRSSRightAfterStart(t *testing.T) {
	longRunning(t)
	p := launch(t, "echo", host.Options{})
	defer p.Kill()
	if peak := p.PeakRSS(); peak < 1<<20 {
		t.Errorf("peak RSS %d bytes right after start; a running agent holds at least 1 MiB", peak)
	}
}
