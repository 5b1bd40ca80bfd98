package host

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dialSocket connects to the socket the agent announced, and refuses the
// name once the agent has swapped it for a link, however late: the arena
// never connects where the link points.
func TestDialSocketRefusesALinkSwappedIn(t *testing.T) {
	dir := t.TempDir()
	// A connect completes into the listener's backlog: nothing accepts.
	listen := func(path string) {
		t.Helper()
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
	}
	sock := filepath.Join(dir, "plugin.sock")
	listen(sock)
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.sock")
	listen(elsewhere)
	p := &Process{dir: dir, sock: sock}
	c, err := p.dialSocket(context.Background(), "")
	if err != nil {
		t.Fatalf("the agent's own socket: %v", err)
	}
	c.Close()

	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, sock); err != nil {
		t.Fatal(err)
	}
	if c, err := p.dialSocket(context.Background(), ""); err == nil {
		c.Close()
		t.Fatal("connected through a link the agent put in place of its socket")
	} else if !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("%v; want the name refused as not a socket", err)
	}
}
