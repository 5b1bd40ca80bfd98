package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// The init hook runs at package initialisation, before the program's own
// main: every binary that can launch sandboxed agents links this package,
// so the arena binary and the test binaries alike can serve as the init
// without each of them dispatching on InitArg.
func init() {
	if len(os.Args) > 2 && os.Args[1] == InitArg {
		os.Exit(runInit(os.Args[2]))
	}
}

// runInit is PID 1 of a sandbox. Its exit status is the agent's; 125 marks
// a setup failure, reported on stderr (which the arena keeps).
func runInit(arg string) int {
	var spec Spec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init: bad spec:", err)
		return 125
	}
	// The init binary's own descriptor must not reach the agent.
	syscall.CloseOnExec(3)
	if spec.Probe {
		return probe(spec)
	}
	if err := setup(spec); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init:", err)
		return 125
	}
	path := spec.Argv[0]
	if spec.ProgramFD != 0 {
		// Started through the descriptor, which is close-on-exec: the
		// kernel opens the program before it closes the descriptor, so
		// the agent does not inherit it. A script ("#!") is the
		// exception: its interpreter opens /proc/self/fd/N after the exec,
		// so the descriptor (of the agent's own program) must stay open.
		if !isScript(spec.ProgramFD) {
			syscall.CloseOnExec(spec.ProgramFD)
		}
		path = fmt.Sprintf("/proc/self/fd/%d", spec.ProgramFD)
	}
	cmd := &exec.Cmd{
		Path:   path,
		Args:   spec.Argv,
		Env:    os.Environ(),
		Dir:    spec.Dir,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{
			// The agent must not keep the namespace's root: root there may
			// override permissions on anything owned by a mapped id.
			Credential: &syscall.Credential{Uid: AgentID, Gid: AgentID, NoSetGroups: true},
			Pdeathsig:  syscall.SIGKILL,
		},
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init: start agent:", err)
		return 125
	}
	closeInherited()
	return reap(cmd.Process.Pid)
}

// closeInherited closes the init's copies of the descriptors it passed on
// to the agent: those not close-on-exec, for everything the init opens
// itself is. Kept open here, the agent's end of its move channel would
// outlive the agent's own close, and the arena would wait for a reply the
// agent had given up writing until the move's deadline instead of
// learning at once that the channel is gone.
func closeInherited() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < 3 {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			unix.Close(fd)
		}
	}
}

// isScript reports whether the program behind fd starts with "#!".
func isScript(fd int) bool {
	var magic [2]byte
	n, err := unix.Pread(fd, magic[:], 0)
	return err == nil && n == 2 && magic == [2]byte{'#', '!'}
}

// reap waits for every process of the tree (orphans are re-parented to
// PID 1) and returns the agent's exit status as soon as the agent ends;
// the init's exit then takes the rest of the namespace with it.
func reap(agent int) int {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 125
		}
		if pid != agent {
			continue
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// setup builds the agent's view of the system.
func setup(spec Spec) error {
	// Nothing done here may propagate back to the host's mounts.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := mountProc(); err != nil {
		return err
	}
	if err := loopbackUp(); err != nil {
		return err
	}
	if err := noNestedNamespaces(); err != nil {
		return err
	}
	if err := reveal(spec.Files, spec.Trees); err != nil {
		return err
	}
	// The private directory is its own mount, so that it can be made
	// writable again after the whole tree is made read-only.
	if err := unix.Mount(spec.Dir, spec.Dir, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s: %w", spec.Dir, err)
	}
	if err := readOnly(); err != nil {
		return err
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, spec.Dir, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("make %s writable: %w", spec.Dir, err)
	}
	return nil
}

func mountProc() error {
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	return nil
}

// noNestedNamespaces stops the agent from creating user namespaces of its
// own, in which it would be root again (of nothing of the host's, but with
// far more kernel surface to attack): the limit is per user namespace.
func noNestedNamespaces() error {
	if err := os.WriteFile("/proc/sys/user/max_user_namespaces", []byte("0\n"), 0); err != nil {
		return fmt.Errorf("forbid nested user namespaces: %w", err)
	}
	return nil
}

// readOnly makes every mount read-only, recursively: a plain read-only
// remount is not recursive and would leave e.g. /dev/shm writable.
func readOnly() error {
	err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID})
	if err != nil {
		return fmt.Errorf("make / read-only (mount_setattr): %w", err)
	}
	return nil
}

// loopbackUp brings lo up: in a new network namespace it starts down, and
// an agent talking to itself over 127.0.0.1 would fail.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: read flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP | unix.IFF_RUNNING)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: bring up: %w", err)
	}
	return nil
}

// reveal makes each file passed by descriptor visible at its path: an
// empty tmpfs covers the first directory the agent cannot search, the
// path's directories are rebuilt in it and a read-only copy of the file
// is put there. Each tree (a detached mount of a host directory) is
// attached at its path the same way; the whole file system is made
// read-only afterwards, trees included.
func reveal(files, trees []File) error {
	covers := map[string]bool{}
	for _, f := range append(append([]File(nil), files...), trees...) {
		covers[f.Cover] = true
	}
	list := make([]string, 0, len(covers))
	for c := range covers {
		list = append(list, c)
	}
	sort.Strings(list)
	for _, c := range list {
		if err := unix.Mount("tmpfs", c, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=16m"); err != nil {
			return fmt.Errorf("cover %s: %w", c, err)
		}
	}
	for _, f := range files {
		if err := copyFile(f); err != nil {
			return fmt.Errorf("reveal %s: %w", f.Path, err)
		}
	}
	for _, t := range trees {
		if err := attachTree(t); err != nil {
			return fmt.Errorf("reveal folder %s: %w", t.Path, err)
		}
	}
	return nil
}

func copyFile(f File) error {
	src := os.NewFile(uintptr(f.FD), f.Path)
	defer src.Close()
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return err
	}
	dst, err := os.OpenFile(f.Path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, io.LimitReader(src, maxFileBytes)); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// maxFileBytes bounds a copied agent file (the Lua host reads at most
// 4 MiB of a script).
const maxFileBytes = 8 << 20

// probe tries each step and reports on stdout.
func probe(spec Spec) int {
	var r probeResult
	str := func(err error) string {
		if err != nil {
			return err.Error()
		}
		return ""
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		r.Proc = "make mounts private: " + err.Error()
	} else {
		r.Proc = str(mountProc())
	}
	r.Loopback = str(loopbackUp())
	r.Nested = str(noNestedNamespaces())
	r.ReadOnly = str(readOnly())
	_ = json.NewEncoder(os.Stdout).Encode(r)
	return 0
}
