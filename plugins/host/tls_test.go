package host_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/plugins/host"
	"arena/plugins/protocol"
)

// An agent's channel: without a sandbox, TLS with the keys the arena
// made (protocol.ServerTLS); in a sandbox, plain gRPC on the socket of its
// private mount, which nothing else can reach, so no key is made or
// handed to it. gRPC calls go through either.
func TestChannelSecurity(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	for _, isolation := range []string{host.IsolationAuto, host.IsolationOff} {
		p := launchIn(t, isolation, "tlsprobe")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		if _, err := p.Agent.Describe(ctx); err != nil {
			t.Errorf("isolation %s: Describe over gRPC: %v", isolation, err)
		}
		reply, err := p.Agent.Move(ctx, protocol.MoveRequest{})
		cancel()
		p.Kill()
		want := fmt.Sprint("arena credentials: ", !p.Sandboxed())
		if err != nil || reply != want {
			t.Errorf("isolation %s (sandboxed %v): %q, %v; want %q", isolation, p.Sandboxed(), reply, err, want)
		}
	}
}

// An agent served without protocol.ServerTLS still starts: without a
// sandbox it authenticates the arena through go-plugin's AutoMTLS; in
// one it is given no certificate and serves plain gRPC.
func TestChannelFallsBackToAutoMTLS(t *testing.T) {
	longRunning(t)
	for _, isolation := range []string{host.IsolationAuto, host.IsolationOff} {
		p := launchIn(t, isolation, "automtls")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := p.Agent.Describe(ctx)
		cancel()
		p.Kill()
		if err != nil {
			t.Fatalf("isolation %s: Describe over gRPC: %v", isolation, err)
		}
	}
}

// A sandboxed agent that announces a certificate on its handshake line
// and serves TLS, where the arena gave it none, is not talked to, and the
// arena carries on: go-plugin writes an announced certificate into the
// client's TLS configuration, which a nil one would have made a panic.
func TestSandboxedAgentAnnouncingACertificate(t *testing.T) {
	t.Parallel()
	l := launcher()
	if !l.Sandboxed() {
		t.Skip("no sandbox on this machine: agents' channels are TLS there")
	}
	p, err := l.Launch(context.Background(), "certannouncer", host.Options{StartTimeout: 20 * time.Second})
	if err != nil {
		return // refused at the start
	}
	defer p.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Agent.Describe(ctx); err == nil {
		t.Fatal("Describe succeeded over a channel the agent wrapped in TLS of its own")
	}
}

// launchIn launches the test agent name under an isolation setting.
func launchIn(t *testing.T, isolation, name string) *host.Process {
	t.Helper()
	l := launcher()
	l.Isolation = isolation
	p, err := l.Launch(context.Background(), name, host.Options{})
	if err != nil {
		t.Fatalf("isolation %s: launch %s: %v", isolation, name, err)
	}
	return p
}

// An agent presenting a certificate the arena did not issue for it is not
// talked to: the arena authenticates the agent, not only the reverse.
func TestChannelRefusesStrangeCertificate(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	l := launcher()
	l.Isolation = host.IsolationOff
	p, err := l.Launch(context.Background(), "strangekey", host.Options{StartTimeout: 20 * time.Second})
	if err != nil {
		return // refused at the start
	}
	defer p.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := p.Agent.Describe(ctx); err == nil {
		t.Fatal("Describe succeeded over a channel with a certificate the arena did not issue")
	}
}
