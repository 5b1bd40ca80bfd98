//go:build unix

package protocol

import (
	"errors"
	"net"
	"syscall"
	"time"
)

// writeNow writes what conn's socket takes of buf without waiting, and
// says how much; a conn that is not a socket takes nothing this way.
func writeNow(conn net.Conn, buf []byte) (int, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return 0, nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	// The last write's deadline may have passed: RawConn.Write checks it
	// before anything else.
	if err := conn.SetWriteDeadline(time.Time{}); err != nil {
		return 0, err
	}
	n := 0
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for n < len(buf) {
			k, err := syscall.Write(int(fd), buf[n:])
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				if err != syscall.EAGAIN {
					werr = err
				}
				break
			}
			n += k
		}
		return true // never wait here: the bounded write does
	})
	return n, errors.Join(err, werr)
}
