package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openTree clones the mount of dir, with everything mounted below it, as
// a detached mount the init can attach inside the sandbox (move_mount): a
// plain bind mount inside the sandbox could not reach dir by path, and a
// descriptor opened by path belongs to the host's mount namespace, which
// the init's bind mounts cannot take from.
func openTree(dir string) (*os.File, error) {
	fd, err := unix.OpenTree(unix.AT_FDCWD, dir, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return nil, fmt.Errorf("sandbox: agent folder %s: open_tree: %w", dir, err)
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// attachTree puts the detached mount fd at path, rebuilding path's
// directories in its cover's tmpfs first.
func attachTree(t File) error {
	if err := os.MkdirAll(t.Path, 0o755); err != nil {
		return err
	}
	if err := unix.MoveMount(t.FD, "", unix.AT_FDCWD, t.Path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return unix.Close(t.FD)
}
