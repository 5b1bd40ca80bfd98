package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openTree clones the mount of a file or folder, with everything mounted
// below it, as a detached mount the init can attach inside the sandbox
// (move_mount): the init's id could not reach every path, and a plain
// descriptor belongs to the host's mount namespace, which the init's bind
// mounts cannot take from.
func openTree(dir string) (*os.File, error) {
	fd, err := unix.OpenTree(unix.AT_FDCWD, dir, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return nil, fmt.Errorf("sandbox: show %s: open_tree: %w", dir, err)
	}
	return os.NewFile(uintptr(fd), dir), nil
}
