package sandbox

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// The init hook runs at package initialisation, before the program's own
// main: every binary that can launch sandboxed agents links this package,
// so the arena binary and the test binaries alike can serve as the init
// without each of them dispatching on InitArg.
func init() {
	if len(os.Args) > 2 && os.Args[1] == InitArg {
		argv, code := runInit(os.Args[2])
		if argv == nil {
			os.Exit(code)
		}
		// The init has become the agent: the program carries on to its
		// main with the agent's command line.
		os.Args = argv
	}
}

// runInit is PID 1 of a sandbox until it becomes the agent: by exec, or,
// for an in-process spec, by returning the agent's command line to its
// own program. Exit status 125 marks a setup failure, reported on stderr
// (which the arena keeps).
func runInit(arg string) (argv []string, code int) {
	var spec Spec
	if err := json.Unmarshal([]byte(arg), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init: bad spec:", err)
		return nil, 125
	}
	// The init binary's own descriptor must not reach the agent.
	syscall.CloseOnExec(3)
	if spec.Probe {
		return nil, probe(spec)
	}
	if err := setup(spec); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init:", err)
		return nil, 125
	}
	if err := limitResources(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init:", err)
		return nil, 125
	}
	// Last, since setting up needs nothing it forbids; inherited by the
	// agent and everything it starts.
	if err := installFilter(); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init: seccomp filter:", err)
		return nil, 125
	}
	if err := joinGroups(spec.Join); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init:", err)
		return nil, 125
	}
	if spec.InProcess {
		if err := becomeAgent(spec); err != nil {
			fmt.Fprintln(os.Stderr, "sandbox init:", err)
			return nil, 125
		}
		return spec.Argv, 0
	}
	return nil, execAgent(spec)
}

// becomeAgent drops what the init holds and the agent must not: the init
// binary's descriptor, the namespace's root (every thread's credentials,
// and with them every capability) and the working directory outside the
// agent's own. What an exec would also reset — the address space — holds
// nothing of the init's but its spec. The parent-death signal is set
// again, since the kernel clears it when credentials change; should the
// arena die just before that, the agent's handshake, written next to the
// arena's end of its stdout, fails with SIGPIPE and ends it.
func becomeAgent(spec Spec) error {
	if err := unix.Close(3); err != nil {
		return fmt.Errorf("close the init binary: %w", err)
	}
	if err := os.Chdir(spec.Dir); err != nil {
		return fmt.Errorf("enter %s: %w", spec.Dir, err)
	}
	// Go changes every thread's ids, not only the calling one's.
	if err := syscall.Setgid(AgentID); err != nil {
		return fmt.Errorf("become the agent's group: %w", err)
	}
	if err := syscall.Setuid(AgentID); err != nil {
		return fmt.Errorf("become the agent's user: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("parent-death signal: %w", err)
	}
	return nil
}

// execAgent has the init become the agent by exec, once it holds nothing
// the agent must not (becomeAgent): the agent keeps the init's pid, its
// groups and the descriptors meant for it, while everything the init
// opened itself is close-on-exec. No init stays behind to start and reap
// it: as PID 1 the agent ends its namespace when it ends, as the init
// did, and a start costs one fork fewer. Its exit status is the
// process's own; 125 still marks a setup failure, or an exec that failed.
func execAgent(spec Spec) int {
	if err := becomeAgent(spec); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox init:", err)
		return 125
	}
	err := syscall.Exec(spec.Argv[0], spec.Argv, os.Environ())
	fmt.Fprintln(os.Stderr, "sandbox init: start agent:", err)
	return 125
}

// joinGroups writes the init into the agent's cgroups (v1) through the
// descriptors the arena opened, and closes them: the agent must not
// inherit them. It runs last before the init becomes the agent, so a
// group counts the agent from its first instruction and none of the
// init's setup. The pages of the init's own start (about 2 MB,
// anonymous) stay charged to the arena's group: an exec frees them, an
// init that carries on as the agent keeps them.
func joinGroups(fds []int) error {
	var errs []error
	for _, fd := range fds {
		f := os.NewFile(uintptr(fd), "cgroup.procs")
		// 0 is the writing process, whatever its pid namespace.
		if _, err := f.Write([]byte("0")); err != nil {
			errs = append(errs, fmt.Errorf("join cgroup: %w", err))
		}
		f.Close()
	}
	return errors.Join(errs...)
}

// setup builds the agent's root and enters it: a fresh tmpfs holding
// only the spec's mounts and links, a /proc of the sandbox's own PID
// namespace and the writable private directory; the host's root is then
// detached, so no path leads back to it.
func setup(spec Spec) error {
	// Nothing done here may propagate back to the host's mounts.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	root, err := stageRoot()
	if err != nil {
		return err
	}
	// A proc may be mounted only while the host's is in view: before the
	// pivot.
	if err := os.Mkdir(root+"/proc", 0o555); err != nil {
		return fmt.Errorf("root: %w", err)
	}
	if err := unix.Mount("proc", root+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if err := noNestedNamespaces(root + "/proc"); err != nil {
		return err
	}
	if _, err := noSysVIPC(root + "/proc"); err != nil {
		return err
	}
	if err := loopbackUp(); err != nil {
		return err
	}
	for _, m := range spec.Mounts {
		if err := attach(root, m); err != nil {
			return fmt.Errorf("show %s: %w", m.Path, err)
		}
	}
	for _, l := range spec.Links {
		if err := os.MkdirAll(filepath.Dir(root+l.Path), 0o755); err != nil {
			return fmt.Errorf("link %s: %w", l.Path, err)
		}
		if err := os.Symlink(l.Target, root+l.Path); err != nil {
			return fmt.Errorf("link %s: %w", l.Path, err)
		}
	}
	for p, body := range Files {
		if err := os.MkdirAll(filepath.Dir(root+p), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		if err := os.WriteFile(root+p, []byte(body), 0o444); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	if err := sharedMemory(root); err != nil {
		return err
	}
	if err := pivot(root); err != nil {
		return err
	}
	if err := readOnly(); err != nil {
		return err
	}
	for _, dir := range []string{spec.Dir, ShmDir} {
		if err := unix.MountSetattr(unix.AT_FDCWD, dir, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
			return fmt.Errorf("make %s writable: %w", dir, err)
		}
	}
	return nil
}

// ShmDir is where a sandbox has a POSIX shared memory directory of its
// own, and ShmMB its size: Python's multiprocessing makes its semaphores
// there (sem_open), and a course agent that uses it played under its
// course's referee. Its pages are charged to the agent's memory group.
const (
	ShmDir = "/dev/shm"
	ShmMB  = 64
)

// sharedMemory mounts the sandbox's own empty ShmDir in root: a tmpfs
// of ShmMB, mode 1777 as on the host, which no other sandbox sees.
func sharedMemory(root string) error {
	at := root + ShmDir
	if err := os.MkdirAll(at, 0o755); err != nil {
		return fmt.Errorf("%s: %w", ShmDir, err)
	}
	opts := fmt.Sprintf("mode=1777,size=%dm,nr_inodes=4096", ShmMB)
	if err := unix.Mount("tmpfs", at, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts); err != nil {
		return fmt.Errorf("mount %s: %w", ShmDir, err)
	}
	return nil
}

// stageRoot mounts the empty tmpfs that becomes the agent's root over a
// directory of the host's tree (in this mount namespace only); what it
// covers is never shown, since every mount comes by descriptor.
func stageRoot() (string, error) {
	var last error
	for _, at := range []string{"/tmp", "/mnt", "/media", "/srv"} {
		if fi, err := os.Lstat(at); err != nil || !fi.IsDir() {
			continue
		}
		err := unix.Mount("tmpfs", at, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m")
		if err == nil {
			return at, nil
		}
		last = err
	}
	return "", fmt.Errorf("mount the agent's root: no directory to stage it on (%v)", last)
}

// attach puts the detached mount m at its path in root, making the
// folders on the way (tmpfs, mode 0755) and an empty file for a file.
func attach(root string, m Mount) error {
	at := root + m.Path
	if m.Dir {
		if err := os.MkdirAll(at, 0o755); err != nil {
			return err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(at, os.O_CREATE|os.O_RDONLY, 0o444)
		if err != nil {
			return err
		}
		f.Close()
	}
	if err := unix.MoveMount(m.FD, "", unix.AT_FDCWD, at, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return unix.Close(m.FD)
}

// pivot makes root the root and detaches the host's.
func pivot(root string) error {
	if err := unix.Chdir(root); err != nil {
		return fmt.Errorf("enter the agent's root: %w", err)
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host's root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return fmt.Errorf("enter the agent's root: %w", err)
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
func noNestedNamespaces(proc string) error {
	if err := os.WriteFile(proc+"/sys/user/max_user_namespaces", []byte("0\n"), 0); err != nil {
		return fmt.Errorf("forbid nested user namespaces: %w", err)
	}
	return nil
}

// noSysVIPC lets the agent make no System V shared memory segment,
// message queue or semaphore set: the limits are per IPC namespace, and
// a sandbox's start at the kernel's defaults, which allow terabytes. A
// segment's pages outlive its last attachment and are in no process's
// resident size, so a course agent, whose memory rule reads /proc and
// whose group holds no limit, could otherwise hold the machine's memory
// unseen. No course's runtime uses them (Python's multiprocessing and
// shared memory use POSIX objects in the sandbox's /dev/shm). Kernels before
// 5.19 let only the machine's root set these limits: there the write is
// refused and the agent keeps the kernel's defaults rather than losing
// its sandbox (applied is false).
func noSysVIPC(proc string) (applied bool, err error) {
	for file, v := range map[string]string{
		"/sys/kernel/shmmni": "0",
		"/sys/kernel/msgmni": "0",
		// SEMMSL SEMMNS SEMOPM SEMMNI
		"/sys/kernel/sem": "0 0 0 0",
	} {
		err := os.WriteFile(proc+file, []byte(v+"\n"), 0)
		if errors.Is(err, fs.ErrPermission) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("forbid System V IPC: %w", err)
		}
	}
	return true, nil
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

// limitResources sets the agent's resource limits, inherited by
// everything it starts and out of its reach to raise: the core file size
// zero, soft and hard, so a crash writes no core (where the machine pipes
// cores to a helper, systemd-coredump or apport, the helper runs outside
// every sandbox, on the machine's disk and CPU, and is told the limit);
// and its open files (OpenFiles).
func limitResources() error {
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return fmt.Errorf("core file limit: %w", err)
	}
	var files unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &files); err != nil {
		return fmt.Errorf("open files limit: %w", err)
	}
	files.Max = min(files.Max, OpenFiles)
	files.Cur = min(files.Cur, OpenFilesSoft, files.Max)
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &files); err != nil {
		return fmt.Errorf("open files limit: %w", err)
	}
	return nil
}

// OpenFiles is the hard limit of a sandboxed agent's open files, and
// OpenFilesSoft the soft one it starts with (a shell's usual 1,024). Each
// open pipe or socket holds kernel memory that no process's resident size
// shows; the machine's own hard limit (often a million) would let a
// course agent, whose memory rule reads /proc, hold gigabytes of it.
const (
	OpenFiles     = 4096
	OpenFilesSoft = 1024
)

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

// checkAffinityLocked installs the filter and checks that it refuses
// sched_setaffinity.
func checkAffinityLocked() error {
	if err := installFilter(); err != nil {
		return err
	}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return err
	}
	if err := unix.SchedSetaffinity(0, &set); err != unix.EPERM {
		return fmt.Errorf("sched_setaffinity answered %v under the filter, not EPERM", err)
	}
	return nil
}

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
	r.Nested = str(noNestedNamespaces("/proc"))
	if applied, err := noSysVIPC("/proc"); err != nil || !applied {
		r.SysVIPC = cmp.Or(str(err), "the kernel lets only the machine's root set them (before Linux 5.19)")
	}
	r.ReadOnly = str(readOnly())
	r.Affinity = str(checkAffinityLocked())
	_ = json.NewEncoder(os.Stdout).Encode(r)
	return 0
}
