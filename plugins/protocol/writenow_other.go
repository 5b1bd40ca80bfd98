//go:build !unix

package protocol

import "net"

// writeNow takes nothing at once where sockets are not Unix descriptors:
// the bounded write does it all.
func writeNow(net.Conn, []byte) (int, error) { return 0, nil }
