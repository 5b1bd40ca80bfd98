package host

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// isolate puts the agent in its own process group, so that killing the
// group takes every process it started, and asks the kernel to kill it if
// the arena dies first.
func isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// closeStraysOnExec marks close-on-exec every descriptor of the arena's
// that is not: what the arena's own parent left open (a shell's, a CI
// runner's), which every child would otherwise inherit, agents inside a
// sandbox among them. Every descriptor Go opens is close-on-exec already,
// and those handed to a child on purpose (exec.Cmd's ExtraFiles) have
// the flag cleared in the child only, so nothing the arena means to pass
// on is touched.
func closeStraysOnExec() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// killGroup signals every process of group pgid. A pgid that is not a
// process's (0, of a process that never started) is refused: kill(2) would
// read -0 as the arena's own group.
func killGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 0 {
		return fmt.Errorf("no process group %d", pgid)
	}
	return syscall.Kill(-pgid, sig)
}

// socketPair opens a connected pair of Unix stream sockets, both
// close-on-exec: the arena's end as a net.Conn, the agent's as a file to
// hand to its process (exec.Cmd's ExtraFiles clear the flag in the child).
func socketPair() (net.Conn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	own := os.NewFile(uintptr(fds[0]), "move channel")
	defer own.Close() // FileConn holds a duplicate
	conn, err := net.FileConn(own)
	if err != nil {
		syscall.Close(fds[1])
		return nil, nil, err
	}
	return conn, os.NewFile(uintptr(fds[1]), "agent move channel"), nil
}
