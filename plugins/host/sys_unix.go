package host

import (
	"os/exec"
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

func killGroup(pgid int, sig syscall.Signal) error {
	return syscall.Kill(-pgid, sig)
}
