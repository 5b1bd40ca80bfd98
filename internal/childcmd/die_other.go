//go:build !linux

package childcmd

import "os/exec"

// dieWithParent does nothing where the kernel has no parent-death signal;
// the arena's sandboxes need Linux anyway.
func dieWithParent(*exec.Cmd) {}
