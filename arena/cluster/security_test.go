package cluster_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/cluster"
)

func serve(t *testing.T, addr string) *cluster.Server {
	t.Helper()
	srv, err := cluster.Serve(addr, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// Without an address the embedded server listens on loopback only.
func TestServeWithoutAHostListensOnLoopback(t *testing.T) {
	srv := serve(t, ":0")
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		t.Fatalf("server at %s, not on loopback", srv.URL())
	}
}

// A client without credentials, or with a token whose password or CA
// pin is wrong, is refused at connect; a revoked worker too.
func TestClientsWithoutValidCredentialsAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := serve(t, "127.0.0.1:0")
	if nc, err := nats.Connect(srv.URL()); err == nil {
		nc.Close()
		t.Fatal("a client without TLS or credentials connected")
	}
	good := join(t, srv, "w1")
	anon := good
	anon.User, anon.Password = "", ""
	wrongPass := good
	wrongPass.Password = "guess"
	wrongPin := good
	wrongPin.CAFingerprint = strings.Repeat("ab", 32)
	for name, ep := range map[string]cluster.Endpoint{"no user": anon, "wrong password": wrongPass, "wrong CA": wrongPin} {
		if nc, err := cluster.RawConn(ctx, ep); err == nil {
			nc.Close()
			t.Fatalf("%s: connected", name)
		}
	}
	nc, err := cluster.RawConn(ctx, good)
	if err != nil {
		t.Fatalf("a valid token was refused: %v", err)
	}
	closed := make(chan struct{})
	nc.SetClosedHandler(func(*nats.Conn) { close(closed) })
	nc.SetReconnectHandler(nil)
	if err := srv.Revoke("w1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		if nc.IsConnected() {
			t.Fatal("a revoked worker stays connected")
		}
	}
	nc.Close()
	if nc, err := cluster.RawConn(ctx, good); err == nil {
		nc.Close()
		t.Fatal("a revoked worker connected again")
	}
	if _, err := srv.Join("w1"); err == nil {
		t.Fatal("a revoked name was issued a token again")
	}
}

// A token carries the address, the CA fingerprint and the credential.
func TestTokenRoundTrip(t *testing.T) {
	srv := serve(t, "127.0.0.1:0")
	ep := join(t, srv, "lab-3")
	got, err := cluster.ParseToken(ep.Token())
	if err != nil {
		t.Fatal(err)
	}
	if got != ep || got.URL != srv.URL() || len(got.CAFingerprint) != 64 {
		t.Fatalf("token gave %+v, want %+v", got, ep)
	}
	if _, err := cluster.ParseToken("nats://x:4222"); err == nil {
		t.Fatal("a URL was taken for a token")
	}
}

// A worker's credential reaches its league's jobs and its own results
// only: it cannot read the results subject, publish as another worker,
// or change the streams.
func TestWorkerPermissionsStopAtItsLeague(t *testing.T) {
	longRunning(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := serve(t, "127.0.0.1:0")
	coord, err := cluster.Dial(ctx, srv.Coordinator(), testConfig)
	if err != nil {
		t.Fatal(err)
	}
	defer coord.Close()
	ep := join(t, srv, "w1")
	denied := make(chan error, 16)
	nc, err := cluster.RawConn(ctx, ep)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { denied <- err })
	jobs, results, _ := cluster.Subjects(ep.Scope)
	if _, err := nc.SubscribeSync(results + ".>"); err != nil {
		t.Fatal(err)
	}
	expectDenied(t, denied, "subscribe to every result")
	if err := nc.Publish(results+".w2", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	expectDenied(t, denied, "publish as worker w2")
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Consumer(ctx, jobs, cluster.WorkerConsumer); err != nil {
		t.Fatalf("a worker cannot find its jobs: %v", err)
	}
	sctx, scancel := context.WithTimeout(ctx, 3*time.Second)
	defer scancel()
	if err := js.DeleteStream(sctx, jobs); err == nil {
		t.Fatal("a worker deleted the jobs stream")
	}
}

func expectDenied(t *testing.T, denied chan error, what string) {
	t.Helper()
	select {
	case err := <-denied:
		if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permission") {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: allowed", what)
	}
}

// A credential the server made itself (Join) is applied once: the watch
// for changes by `arena league token` does not reload it again, which
// could refuse a worker connecting at that moment.
func TestJoinIsNotReloadedAgain(t *testing.T) {
	t.Parallel()
	srv, err := cluster.Serve("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var log syncBuffer
	srv.Log = &log
	if _, err := srv.Join("w2"); err != nil {
		t.Fatal(err)
	}
	// A look of the watch right after Join (the watch's own look every
	// second goes on meanwhile, and must not reload either).
	if srv.Look() || strings.Contains(log.String(), "reloaded") {
		t.Fatalf("the server reloaded the credentials it had just applied:\n%s", log.String())
	}
	if err := cluster.Revoke(srv.Dir(), "w2"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(log.String(), "reloaded"); {
		if time.Now().After(deadline) {
			t.Fatal("a change made outside the server (arena league token --revoke) was never reloaded")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
