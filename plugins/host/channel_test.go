package host_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"arena/plugins/host"
	pb "arena/plugins/proto"
)

// Without a sandbox an agent's socket is in a host folder that other
// processes of the arena's user can reach; even they cannot talk to the
// agent without the arena's client certificate.
func TestChannelRefusesUnauthenticatedClients(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	p := launchIn(t, host.IsolationOff, "echo")
	defer p.Kill()
	sock := p.SocketPath()
	if filepath.Dir(sock) != p.Dir() {
		t.Fatalf("socket %s is not in the agent's private directory %s", sock, p.Dir())
	}
	conn, err := grpc.Dial("unix://"+p.HostPath(filepath.Base(sock)), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := pb.NewAgentClient(conn).Describe(ctx, &pb.DescribeRequest{}); err == nil {
		t.Fatal("an unauthenticated client was served")
	}
	// The arena's own channel still works.
	if _, err := p.Agent.Describe(context.Background()); err != nil {
		t.Fatalf("the arena's channel: %v", err)
	}
}

// A sandboxed agent's socket, which its channel's plain gRPC relies on
// being out of reach, has no path on the host: the folder it names there
// holds nothing, and only the private mount's descriptor, which the arena
// holds, leads to it.
func TestSandboxedSocketHasNoHostPath(t *testing.T) {
	t.Parallel() // its own agent; mostly waiting on it
	requireSandbox(t)
	p := launch(t, "echo", host.Options{})
	defer p.Kill()
	sock := p.SocketPath()
	if filepath.Dir(sock) != p.Dir() {
		t.Fatalf("socket %s is not in the agent's private directory %s", sock, p.Dir())
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Fatalf("socket %s is on the host's tree: %v", sock, err)
	}
	if entries, err := os.ReadDir(p.Dir()); err == nil && len(entries) > 0 {
		t.Fatalf("the host's %s holds %d entries, want none", p.Dir(), len(entries))
	}
	if fi, err := os.Stat(p.HostPath(filepath.Base(sock))); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("the socket through the arena's descriptor: %v", err)
	}
	if _, err := p.Agent.Describe(context.Background()); err != nil {
		t.Fatalf("the arena's channel: %v", err)
	}
}

// An agent that announces as its socket a symbolic link to a socket of
// the arena's file system is refused, sandboxed or not, and the arena
// never connects there: connecting would follow the link, and a
// sandboxed agent's channel, plain gRPC, would talk to whatever serves
// at the other end.
func TestSocketSymlinkRefused(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	target := filepath.Join(t.TempDir(), "target.sock")
	ln, err := net.Listen("unix", target)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	for _, iso := range []string{host.IsolationAuto, host.IsolationOff} {
		l := launcher()
		l.Isolation = iso
		l.Env = []string{"SYMLINK_TARGET=" + target}
		p, err := l.Launch(context.Background(), "symlinker", host.Options{StartTimeout: 20 * time.Second})
		if err == nil {
			p.Kill()
			t.Fatalf("isolation %s: an agent whose socket is a link to %s started", iso, target)
		}
		if !strings.Contains(err.Error(), "not a socket") {
			t.Errorf("isolation %s: %v; want the address refused as not a socket", iso, err)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Fatalf("the arena connected %d time(s) to the socket the agent's link named", n)
	}
}

// Every agent's private directory, its plugin socket included, is removed
// when the agent ends, sandboxed or not.
func TestPrivateDirectoryRemoved(t *testing.T) {
	longRunning(t)
	for _, iso := range []string{host.IsolationAuto, host.IsolationOff} {
		l := launcher()
		l.Isolation = iso
		p, err := l.Launch(context.Background(), "echo", host.Options{})
		if err != nil {
			t.Fatal(err)
		}
		dir, sock := p.Dir(), p.HostPath(filepath.Base(p.SocketPath()))
		if fi, err := os.Stat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
			t.Fatalf("%s: socket %s: %v", iso, sock, err)
		}
		fi, err := os.Stat(p.HostPath("."))
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: private directory %s: %v %v", iso, dir, fi.Mode(), err)
		}
		p.Kill()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: %s left behind: %v", iso, dir, err)
		}
		if iso == host.IsolationOff && p.Sandboxed() {
			t.Error("isolation off, yet sandboxed")
		}
	}
}

// Agents running at the same time run as distinct host ids, so no file
// or socket of one is another's.
func TestConcurrentAgentsDistinctIDs(t *testing.T) {
	longRunning(t)
	l := launcher()
	if !l.Sandboxed() {
		t.Skip("no sandboxes here: " + l.Support().Unsupported)
	}
	owners := map[uint32]bool{}
	for range 3 {
		p, err := l.Launch(context.Background(), "echo", host.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Kill()
		fi, err := os.Stat(p.HostPath("."))
		if err != nil {
			t.Fatal(err)
		}
		owners[fi.Sys().(*syscall.Stat_t).Uid] = true
	}
	if len(owners) != 3 {
		t.Fatalf("3 agents, %d owners", len(owners))
	}
}

// Under isolation "required" a launcher refuses to start agents where the
// machine cannot sandbox them; an unknown setting is an error.
func TestIsolationSetting(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	l := launcher()
	l.Isolation = "sometimes"
	if err := l.Check(); err == nil {
		t.Fatal("unknown isolation accepted")
	}
	l = launcher()
	l.Isolation = host.IsolationRequired
	err := l.Check()
	if l.Sandboxed() != (err == nil) {
		t.Fatalf("required: sandboxed=%v but check=%v", l.Sandboxed(), err)
	}
	if err != nil {
		if _, lerr := l.Launch(context.Background(), "echo", host.Options{}); lerr == nil {
			t.Fatal("an agent started unsandboxed under isolation: required")
		}
	}
}

// Where sandboxes cannot be made (simulated by an init binary that does
// not exist), "auto" and "required" refuse to start agents, naming the
// fix; only "off" runs them in process groups, and says so once.
func TestNoSandboxFallback(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	missing := filepath.Join(t.TempDir(), "no-init")
	for _, iso := range []string{host.IsolationRequired, host.IsolationAuto, ""} {
		l := launcher()
		l.Init = missing
		l.Isolation = iso
		err := l.Check()
		if !errors.Is(err, host.ErrNoSandbox) || !strings.Contains(err.Error(), "isolation: off") || !strings.Contains(err.Error(), "--isolation off") {
			t.Fatalf("isolation %q without a sandbox: %v; want a refusal naming the fix", iso, err)
		}
		if p, err := l.Launch(context.Background(), "echo", host.Options{}); err == nil {
			p.Kill()
			t.Fatalf("an agent started unsandboxed under isolation %q", iso)
		}
	}
	var notices []string
	l := launcher()
	l.Init = missing
	l.Isolation = host.IsolationOff
	l.Notify = func(msg string) { notices = append(notices, msg) }
	for range 2 {
		p, err := l.Launch(context.Background(), "echo", host.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Sandboxed() {
			t.Error("sandboxed under isolation: off")
		}
		p.Kill()
		waitGone(t, p)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "WITHOUT a sandbox") {
		t.Fatalf("notices: %q", notices)
	}
}

// A TMPDIR under a folder other users cannot enter (a 0700 home) changes
// nothing: the arena keeps its agents' directories in its own runtime
// directory and shows each agent its own by a mount.
func TestPrivateTMPDIRStillSandboxes(t *testing.T) {
	longRunning(t)
	requireSandbox(t)
	home := t.TempDir()
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(home, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	l := launcher()
	if err := l.Check(); err != nil {
		t.Fatalf("TMPDIR=%s: %v", tmp, err)
	}
	p, err := l.Launch(context.Background(), "echo", host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer waitGone(t, p)
	defer p.Kill()
	if !p.Sandboxed() {
		t.Fatalf("TMPDIR=%s: the agent runs unsandboxed", tmp)
	}
	if _, err := p.Agent.Describe(context.Background()); err != nil {
		t.Fatal(err)
	}
}
