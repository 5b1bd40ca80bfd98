package course

import (
	"context"
	"os/exec"
	"syscall"
)

// tool is exec.CommandContext for the compilers and checkers the arena
// runs itself (javac, Python's pre-flight check): the child is killed
// when the arena dies, not only when ctx ends. A cluster worker killed
// mid-compile otherwise left javac writing class files into its cache
// for seconds after it was gone.
func tool(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}
