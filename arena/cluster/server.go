package cluster

import (
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded NATS server with JetStream, for a coordinator
// that needs no separate one (league run --serve-cluster). It always
// requires TLS and a password: the CA, the server certificate and the
// passwords are the league directory's (Authority).
type Server struct {
	srv  *server.Server
	opts *server.Options
	auth *Authority
	dir  string // the credentials directory
	url  string // the address workers are given
	stop chan struct{}
	done sync.WaitGroup
	mu   sync.Mutex // opts and seen: reloads come from Join, Revoke and watch
	seen [sha256.Size]byte
	// Log receives a line when the credentials are reloaded.
	Log io.Writer
}

// Serve starts a JetStream server that keeps its streams in
// dir/jetstream and its credentials in dir/cluster. addr is HOST:PORT;
// without a host (":4222") it listens on loopback only, and port 0 takes
// any free port. A non-loopback address is served exactly as given.
func Serve(addr, dir string) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("serve cluster on %q: %w", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("serve cluster on %q: port: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	advertise := host
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		// Every interface: workers are given this machine's name.
		advertise, _ = os.Hostname()
	}
	credDir := filepath.Join(dir, "cluster")
	auth, err := OpenAuthority(credDir, []string{advertise, host})
	if err != nil {
		return nil, err
	}
	creds, err := auth.Load()
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		Host: host, Port: p, JetStream: true, StoreDir: filepath.Join(dir, "jetstream"),
		NoSigs: true, NoLog: true,
		Users: creds.users(),
		TLS:   true, TLSTimeout: 5,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{auth.cert}, MinVersion: tls.VersionTLS12},
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("serve cluster: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("serve cluster on %s: not ready after 30 s", addr)
	}
	s := &Server{srv: srv, opts: opts, auth: auth, dir: credDir, stop: make(chan struct{})}
	s.url = "nats://" + net.JoinHostPort(advertise, strconv.Itoa(srv.Addr().(*net.TCPAddr).Port))
	creds.URL = s.url
	if err := auth.Save(creds); err != nil {
		s.Close()
		return nil, err
	}
	s.seen = s.accountsSum()
	s.done.Add(1)
	go s.watch()
	return s, nil
}

// URL is the address workers are given (a loopback server's is local).
func (s *Server) URL() string { return s.url }

// Dir is where the credentials are kept.
func (s *Server) Dir() string { return s.dir }

// Coordinator is the endpoint of the league's coordinator.
func (s *Server) Coordinator() Endpoint {
	c, _ := s.auth.Load()
	ep := Endpoint{URL: s.url, User: "coordinator", CAFingerprint: s.auth.Fingerprint(), Scope: DefaultScope}
	if c != nil {
		ep.Password, ep.Scope = c.Coordinator, c.Scope
	}
	return ep
}

// Join returns worker name's endpoint (its token: Endpoint.Token), making
// its credential if needed; the server takes it at once.
func (s *Server) Join(name string) (Endpoint, error) {
	ep, err := Issue(s.dir, s.auth.Fingerprint(), name)
	if err != nil {
		return Endpoint{}, err
	}
	return ep, s.Reload()
}

// Revoke revokes worker name and drops its connections.
func (s *Server) Revoke(name string) error {
	if err := Revoke(s.dir, name); err != nil {
		return err
	}
	return s.Reload()
}

// Reload applies the accounts file: new workers may connect, revoked
// ones are disconnected.
func (s *Server) Reload() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	creds, err := s.auth.Load()
	if err != nil {
		return err
	}
	o := s.opts.Clone()
	o.Users = creds.users()
	if err := s.srv.ReloadOptions(o); err != nil {
		return fmt.Errorf("cluster server: reload credentials: %w", err)
	}
	s.opts = o
	// The change applied here is not one for watch to apply again: a
	// reload while a worker connects can refuse it.
	s.seen = s.accountsSum()
	return nil
}

// accountsSum is the accounts file's content hash: a change is told by
// its content, since a file's time moves only in clock ticks and two
// writes within one would look like none.
func (s *Server) accountsSum() [sha256.Size]byte {
	b, err := os.ReadFile(filepath.Join(s.dir, accountsFile))
	if err != nil {
		return [sha256.Size]byte{}
	}
	return sha256.Sum256(b)
}

// watch reloads the credentials when `arena league token` changed them.
func (s *Server) watch() {
	defer s.done.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		s.look()
	}
}

// look is one look of watch: the credentials are reloaded when the
// accounts file differs from the one last applied. It says whether it
// reloaded them.
func (s *Server) look() bool {
	s.mu.Lock()
	sum, changed := s.accountsSum(), false
	if sum != s.seen {
		s.seen, changed = sum, true
	}
	s.mu.Unlock()
	if !changed {
		return false
	}
	err := s.Reload()
	if s.Log != nil {
		if err != nil {
			fmt.Fprintln(s.Log, err)
		} else {
			fmt.Fprintln(s.Log, "cluster server: credentials reloaded")
		}
	}
	return true
}

// Close shuts the server down, its streams kept on disk.
func (s *Server) Close() {
	close(s.stop)
	s.done.Wait()
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}
