package host_test

import (
	"context"
	"testing"
	"time"

	"arena/plugins/host"
	"arena/plugins/protocol"
)

// An agent's channel is authenticated with the keys the arena made
// (protocol.ServerTLS), sandboxed or not, and gRPC calls go through it.
func TestChannelUsesArenaCredentials(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	for _, isolation := range []string{host.IsolationAuto, host.IsolationOff} {
		l := launcher()
		l.Isolation = isolation
		p, err := l.Launch(context.Background(), "tlsprobe", host.Options{})
		if err != nil {
			t.Fatalf("isolation %s: launch: %v", isolation, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		if _, err := p.Agent.Describe(ctx); err != nil {
			t.Errorf("isolation %s: Describe over gRPC: %v", isolation, err)
		}
		reply, err := p.Agent.Move(ctx, protocol.MoveRequest{})
		cancel()
		p.Kill()
		if err != nil || reply != "arena credentials: true" {
			t.Errorf("isolation %s (sandboxed %v): %q, %v", isolation, p.Sandboxed(), reply, err)
		}
	}
}

// An agent served without protocol.ServerTLS still starts: it
// authenticates the arena through go-plugin's AutoMTLS.
func TestChannelFallsBackToAutoMTLS(t *testing.T) {
	longRunning(t)
	p := launch(t, "automtls", host.Options{})
	defer p.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := p.Agent.Describe(ctx); err != nil {
		t.Fatalf("Describe over gRPC: %v", err)
	}
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
