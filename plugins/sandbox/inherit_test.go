package sandbox_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"arena/plugins/sandbox"
)

// A descriptor passed on to the agent is the agent's alone: when the agent
// closes it, the other end sees the close at once, because the init keeps
// no copy. (Kept, an agent that gave up writing a reply on its move
// channel left the arena waiting for the move's whole deadline.)
func TestInitKeepsNoPassedDescriptor(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	lease, dir := leasedDir(t, 300)
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	oursFile, theirs := os.NewFile(uintptr(fds[0]), "ours"), os.NewFile(uintptr(fds[1]), "theirs")
	ours, err := net.FileConn(oursFile)
	oursFile.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	// The agent closes its end, then lives on far past the test's wait.
	cmd, files, err := sandbox.Command(sandbox.Config{
		Init: os.Args[0], Argv: []string{"/bin/sh", "-c", `i=3; while [ $i -le 64 ]; do eval "exec $i>&-"; i=$((i+1)); done; exec sleep 300`},
		Dir: dir, IDs: lease.IDs, Env: []string{"PATH=/usr/bin:/bin"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, theirs)
	if n := 2 + len(cmd.ExtraFiles); n > 64 {
		t.Fatalf("the passed end is descriptor %d; the agent closes 3 to 64 only", n)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Close()
	}
	theirs.Close()
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	// A minute is far more than starting a shell takes on any machine, and
	// far less than the agent lives.
	if err := ours.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	var b [1]byte
	_, err = ours.Read(b[:])
	switch {
	case errors.Is(err, io.EOF):
	case errors.Is(err, os.ErrDeadlineExceeded):
		t.Fatal("the agent closed its end but the other end saw no close: the init still holds a copy")
	default:
		t.Fatal(fmt.Errorf("read: %v, want EOF", err))
	}
}
