package protocol_test

import (
	"crypto/tls"
	"net"
	"os"
	"testing"
	"time"

	"arena/plugins/protocol"
)

// handshake runs a TLS handshake between the two configurations over a
// loopback connection and returns the client's and the server's errors.
func handshake(t *testing.T, client, server *tls.Config) (error, error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		s := tls.Server(conn, server)
		err = s.Handshake()
		if err == nil {
			// TLS 1.3 judges the client's certificate after the client's
			// handshake: read to learn the verdict.
			_, err = s.Read(make([]byte, 1))
		}
		done <- err
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	c := tls.Client(conn, client)
	cerr := c.Handshake()
	if cerr == nil {
		_, cerr = c.Write([]byte{1})
	}
	serr := <-done
	if cerr == nil {
		// The server's refusal reaches the client as an alert on its next read.
		_, cerr = c.Read(make([]byte, 1))
		if cerr != nil && serr == nil {
			cerr = nil // the server closed after its one byte: not a refusal
		}
	}
	return cerr, serr
}

func agentServer(t *testing.T, env string) *tls.Config {
	t.Helper()
	t.Setenv(protocol.TLSEnv, env)
	cfg, err := protocol.ServerTLS()
	if err != nil || cfg == nil {
		t.Fatalf("ServerTLS: %v, %v", cfg, err)
	}
	if _, ok := os.LookupEnv(protocol.TLSEnv); ok {
		t.Fatalf("%s still set after ServerTLS: the agent's children would inherit its key", protocol.TLSEnv)
	}
	return cfg
}

func TestChannelTLSAuthenticatesBothSides(t *testing.T) {
	arena, client, server := arenaAndAgent(t)
	if cerr, serr := handshake(t, client, server); cerr != nil || serr != nil {
		t.Fatalf("handshake: client %v, server %v", cerr, serr)
	}

	// Another arena's client is refused by the agent.
	other, err := protocol.NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	_, strangeClient, err := other.ForAgent()
	if err != nil {
		t.Fatal(err)
	}
	strangeClient.RootCAs = client.RootCAs // trusts the agent, but is not the arena
	if _, serr := handshake(t, strangeClient, server); serr == nil {
		t.Error("the agent accepted a client certificate the arena did not present")
	}

	// The arena refuses an agent with another agent's key.
	env2, _, err := arena.ForAgent()
	if err != nil {
		t.Fatal(err)
	}
	if cerr, _ := handshake(t, client, agentServer(t, env2)); cerr == nil {
		t.Error("the arena accepted a certificate issued for another agent")
	}
}

func TestServerTLSWithoutVariable(t *testing.T) {
	t.Setenv(protocol.TLSEnv, "")
	os.Unsetenv(protocol.TLSEnv)
	if cfg, err := protocol.ServerTLS(); cfg != nil || err != nil {
		t.Fatalf("ServerTLS without %s: %v, %v (want nil, nil: go-plugin's AutoMTLS then)", protocol.TLSEnv, cfg, err)
	}
	t.Setenv(protocol.TLSEnv, "not PEM")
	if _, err := protocol.ServerTLS(); err == nil {
		t.Fatal("ServerTLS accepted a variable without PEM blocks")
	}
}

// The channel's key exchange is X25519 alone, not Go's default hybrid with
// ML-KEM, which cost each start's first handshake more than a millisecond:
// each side asks for it, whatever the other's defaults.
func TestChannelKeyExchangeIsX25519(t *testing.T) {
	_, client, server := arenaAndAgent(t)
	defaults := func(c *tls.Config) *tls.Config {
		c = c.Clone()
		c.CurvePreferences = nil
		return c
	}
	for _, side := range []struct {
		name           string
		client, server *tls.Config
	}{
		{"arena", client, defaults(server)},
		{"agent", defaults(client), server},
	} {
		if got := keyExchange(t, side.client, side.server); got != tls.X25519 {
			t.Errorf("the %s's side asking, against Go's defaults: key exchange %v, want X25519", side.name, got)
		}
	}
}

// arenaAndAgent makes an arena's credentials and one agent's: the arena's
// client configuration and the agent's server configuration.
func arenaAndAgent(t *testing.T) (*protocol.Credentials, *tls.Config, *tls.Config) {
	t.Helper()
	arena, err := protocol.NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	env, client, err := arena.ForAgent()
	if err != nil {
		t.Fatal(err)
	}
	return arena, client, agentServer(t, env)
}

// keyExchange hands client and server configurations a connection and
// returns the key exchange they agree on.
func keyExchange(t *testing.T, client, server *tls.Config) tls.CurveID {
	t.Helper()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	sc := tls.Server(b, server)
	done := make(chan error, 1)
	go func() { done <- sc.Handshake() }()
	cc := tls.Client(a, client)
	if err := cc.Handshake(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return cc.ConnectionState().CurveID
}
