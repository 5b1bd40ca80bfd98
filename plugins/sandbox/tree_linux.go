package sandbox

import (
	"fmt"
	"os"
	"strconv"

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

// privateInodes bounds the files a private directory holds: each costs
// kernel memory that the size limit does not count.
const privateInodes = 16384

// PrivateMount makes an agent's private directory: a fresh tmpfs of at
// most size bytes, owned by ids.Agent with mode 0700, as a detached mount
// (Config.DirMount). It is attached nowhere in the host's tree, so what
// the agent writes there fills its own size limit and never the disk or
// /run of the machine, and its pages are charged to the memory group of
// the process that writes them, the agent's. The arena reaches it through
// the descriptor (its path /proc/self/fd/N); closing the last descriptor
// once the sandbox has gone frees it.
func PrivateMount(ids IDs, size int64) (*os.File, error) {
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("sandbox: private directory: fsopen tmpfs: %w", err)
	}
	defer unix.Close(fs)
	for _, kv := range [][2]string{
		{"size", strconv.FormatInt(size, 10)},
		{"nr_inodes", strconv.Itoa(privateInodes)},
		{"mode", "0700"},
		{"uid", strconv.Itoa(ids.Agent)},
		{"gid", strconv.Itoa(ids.Agent)},
	} {
		if err := unix.FsconfigSetString(fs, kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("sandbox: private directory: tmpfs %s=%s: %w", kv[0], kv[1], err)
		}
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return nil, fmt.Errorf("sandbox: private directory: tmpfs: %w", err)
	}
	fd, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
	if err != nil {
		return nil, fmt.Errorf("sandbox: private directory: fsmount: %w", err)
	}
	return os.NewFile(uintptr(fd), "private directory"), nil
}

// dupFile is a close-on-exec copy of f's descriptor, named name.
func dupFile(f *os.File, name string) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}
