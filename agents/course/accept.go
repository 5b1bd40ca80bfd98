package course

import (
	"context"
	"errors"
	"net"
)

// errNoConnection is acceptUntil's answer when the course program ended before
// it connected.
var errNoConnection = errors.New("exited before connecting")

// acceptUntil waits for the course program's one connection on ln, giving
// up when the program exits (done closes: errNoConnection) or ctx ends.
func acceptUntil(ctx context.Context, ln net.Listener, done <-chan struct{}) (net.Conn, error) {
	type res struct {
		conn net.Conn
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		conn, err := ln.Accept()
		ch <- res{conn, err}
	}()
	select {
	case r := <-ch:
		return r.conn, r.err
	case <-done:
		return nil, errNoConnection
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
