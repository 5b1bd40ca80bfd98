// Package childcmd starts the helper programs the arena runs itself
// (compilers, go list, a Python pre-flight check) so that they die with
// the process that started them. exec.CommandContext kills a child when
// its context ends, but a process that is itself killed (a crash, the
// kernel's OOM killer, a cluster worker's SIGKILL) ends no context: its
// javac or go build ran on, orphaned, writing into a cache its parent no
// longer owned.
package childcmd

import (
	"context"
	"os/exec"
)

// Command is exec.CommandContext, with the child killed when the calling
// process dies (where the system can say so: Linux's parent-death
// signal).
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	dieWithParent(cmd)
	return cmd
}
