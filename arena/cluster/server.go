package cluster

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded NATS server with JetStream, for a coordinator
// that needs no separate one (league run --serve-cluster).
type Server struct {
	srv *server.Server
}

// Serve starts a JetStream server listening on addr (":4222",
// "127.0.0.1:0" for any free port) that keeps its streams in dir.
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
		host = "0.0.0.0"
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	srv, err := server.NewServer(&server.Options{
		Host: host, Port: p, JetStream: true, StoreDir: dir,
		NoSigs: true, NoLog: true,
	})
	if err != nil {
		return nil, fmt.Errorf("serve cluster: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("serve cluster on %s: not ready after 30 s", addr)
	}
	return &Server{srv: srv}, nil
}

// URL is the address clients connect to.
func (s *Server) URL() string { return s.srv.ClientURL() }

// Close shuts the server down, its streams kept on disk.
func (s *Server) Close() {
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}
