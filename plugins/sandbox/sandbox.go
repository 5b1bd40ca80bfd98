// Package sandbox starts an agent's process tree in its own Linux
// namespaces (user, PID, network, IPC, mount, UTS) with nothing but the
// standard library and golang.org/x/sys: no external sandbox program.
//
// The command started is a tiny init — the calling binary itself,
// re-executed with InitArg — which becomes PID 1 of the new PID namespace.
// As the namespace's root (mapped to an unprivileged host id) it builds the
// agent's root as bubblewrap and nsjail do: a fresh tmpfs holding only the
// host paths the arena passes as detached mounts (Runtime, the agent's own
// files, its private directory), a /proc of its own PID namespace and four
// devices; it pivots into it, detaches the host's root, makes everything
// read-only but the private directory, brings the loopback interface up,
// and becomes the agent as an unprivileged id (mapped to a second,
// distinct host id): by exec, or by returning to its own program where
// that program is the agent's (Config.InProcess). The agent is then PID 1;
// when it exits, the kernel kills whatever else is left in the namespace,
// setsid'ed and double-forked children included.
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// InitArg is the hidden first argument that makes a binary linking this
// package run as a sandbox's init instead of its own main.
const InitArg = "__sandbox-init"

// Env is set (to "1") in the environment of every sandboxed agent: an
// agent host that would otherwise make namespaces of its own (the hex
// cross-out adapter's private network) learns that it already has them.
const Env = "ARENA_SANDBOX"

// AgentID is the user and group id the agent runs as inside its namespace.
const AgentID = 1000

// Spec is what the init is told to do, passed as one JSON argument.
type Spec struct {
	// Argv is the agent's command line; Argv[0] is an absolute path.
	Argv []string `json:"argv"`
	// Dir is the agent's private directory: its working directory, its
	// $TMPDIR and $HOME, and where its plugin socket is created. The only
	// writable place it has.
	Dir string `json:"dir"`
	// Mounts are every host path the agent's root shows (Runtime, the
	// agent's own files, Dir), each a detached mount passed by descriptor.
	Mounts []Mount `json:"mounts,omitempty"`
	// Links are the symbolic links made in the agent's root.
	Links []Link `json:"links,omitempty"`
	// Join are the descriptors of the agent's cgroup.procs files (cgroup
	// v1) that the init writes itself into just before it becomes the
	// agent.
	Join []int `json:"join,omitempty"`
	// Probe makes the init try every setup step, report them as JSON on
	// stdout and exit, without starting an agent.
	Probe bool `json:"probe,omitempty"`
	// InProcess makes the init become the agent once its setup is done
	// by returning to its own program's main, instead of by exec: Argv[0]
	// is then the init's own binary.
	InProcess bool `json:"inProcess,omitempty"`
}

// IDs are the host ids one sandbox maps: Root for the init (the
// namespace's root), Agent for the agent.
type IDs struct{ Root, Agent int }

// Config describes one sandboxed agent for Command.
type Config struct {
	// Init is the path of a binary that links this package (it acts as the
	// init when started with InitArg).
	Init string
	// Argv is the agent's command line; Argv[0] must be an absolute path.
	Argv []string
	// Read lists further files the agent must read (e.g. a script), as
	// absolute paths.
	Read []string
	// Trees lists directories the agent must read with everything under
	// them, as absolute paths. Each appears read-only at its own path (a
	// bind mount of the host's directory, not a copy), so files the agent
	// opens relative to it resolve as on the host. Files of Read under a
	// tree are reached through the tree.
	Trees []string
	// Dir is the agent's private directory, already created and owned by
	// IDs.Agent with mode 0700.
	Dir string
	// DirMount, when set, is what the agent is shown at Dir: a detached
	// mount (PrivateMount) instead of the host's folder Dir, which then
	// stays an empty mount point. The caller keeps its descriptor; the
	// command gets a copy of its own.
	DirMount *os.File
	IDs      IDs
	// Env is the agent's whole environment.
	Env []string
	// Join are the agent's cgroup.procs files, opened for writing
	// (Group.ProcsFiles, cgroup v1): the init joins the groups through
	// them once its setup is done, so the agent is in them from its first
	// instruction while the arena's own threads never are.
	Join []*os.File
	// InProcess has the init become the agent after its setup without an
	// exec, where the agent's program is the init itself (Argv[0] is
	// Init): one program start instead of two. Otherwise the init execs
	// Argv in its own place.
	InProcess bool
}

// Cloneflags are the namespaces every sandbox gets.
const Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET |
	syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// Command returns the command that runs the agent inside a new sandbox,
// and the descriptors to close once it has started. The agent's root is
// built for it: Runtime, its program, Read, Trees and Dir, nothing else.
func Command(c Config) (*exec.Cmd, []*os.File, error) {
	if len(c.Argv) == 0 || !filepath.IsAbs(c.Argv[0]) {
		return nil, nil, fmt.Errorf("sandbox: agent command %q: want an absolute program path", c.Argv)
	}
	// The agent's id must be able to read what it is shown: a mount keeps
	// the modes of the files it shows.
	if err := readable(c.Argv[0], true); err != nil {
		return nil, nil, err
	}
	for _, p := range c.Read {
		if err := readable(p, false); err != nil {
			return nil, nil, err
		}
	}
	for _, t := range c.Trees {
		if err := listable(t); err != nil {
			return nil, nil, err
		}
	}
	if c.InProcess && c.Init != c.Argv[0] {
		return nil, nil, fmt.Errorf("sandbox: an agent in the init's process must be the init's program %s, not %s", c.Init, c.Argv[0])
	}
	// The init binary is started through its descriptor: it may live where
	// the namespace's ids cannot search (a build cache under /root, a
	// 0700 temporary directory).
	initFile, err := os.Open(c.Init)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: init binary: %w", err)
	}
	v, err := newView(c.Argv[0], c.Read, c.Trees, c.Dir, c.DirMount, 4)
	if err != nil {
		initFile.Close()
		return nil, nil, err
	}
	files := append([]*os.File{initFile}, v.files...)
	spec := Spec{Argv: c.Argv, Dir: c.Dir, Mounts: v.mounts, Links: v.links, InProcess: c.InProcess}
	for _, f := range c.Join {
		// The child's descriptors are numbered from 3 in files' order.
		spec.Join = append(spec.Join, 3+len(files))
		files = append(files, f)
	}
	cmd, err := newCmd(c.Init, spec, files, c.IDs, c.Env)
	if err != nil {
		for _, f := range files {
			f.Close()
		}
		return nil, nil, err
	}
	return cmd, files, nil
}

// under reports whether path lies strictly inside one of dirs.
func under(path string, dirs []string) bool {
	for _, d := range dirs {
		d = filepath.Clean(d)
		if rel, err := filepath.Rel(d, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// listable checks that the agent's id can list and enter the folder dir.
func listable(dir string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("sandbox: %s: want an absolute path", dir)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("agent folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("agent folder %s is not a directory", dir)
	}
	if fi.Mode().Perm()&0o005 != 0o005 {
		return fmt.Errorf("agent folder %s (mode %04o) cannot be listed and entered by other users: sandboxed agents run as an unprivileged user; make it so (chmod o+rx %s)",
			dir, fi.Mode().Perm(), dir)
	}
	return nil
}

// newCmd is the init's command line for spec; files[0] is the init binary.
func newCmd(init string, spec Spec, files []*os.File, ids IDs, env []string) (*exec.Cmd, error) {
	arg, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	idmap := []syscall.SysProcIDMap{
		{ContainerID: 0, HostID: ids.Root, Size: 1},
		{ContainerID: AgentID, HostID: ids.Agent, Size: 1},
	}
	return &exec.Cmd{
		Path: "/proc/self/fd/3",
		Args: []string{init, InitArg, string(arg)},
		Env:  env,
		// No Dir: the init enters the private directory inside its own root,
		// the runtime directory above it being closed to its id.
		ExtraFiles: files,
		SysProcAttr: &syscall.SysProcAttr{
			Cloneflags:                 Cloneflags,
			UidMappings:                idmap,
			GidMappings:                idmap,
			GidMappingsEnableSetgroups: false,
			// The child starts with the arena's host credentials, which the
			// namespace does not map; it must become the namespace's root
			// before exec, or the init loses every capability there.
			Credential: &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true},
			Setpgid:    true,
			Pdeathsig:  syscall.SIGKILL,
		},
	}, nil
}

// Reach checks that the unprivileged agent id can use the file at path,
// which must be absolute, by path on the host. It returns the first
// directory on the way that the id cannot search ("" when none): a
// runtime there is out of an agent's reach on the host too. The error
// names the file when the file itself is not readable (or, for a
// program, executable) by others, which no mount can fix.
func Reach(path string, program bool) (cover string, err error) {
	if err := readable(path, program); err != nil {
		return "", err
	}
	return firstUnsearchable(filepath.Dir(path))
}

// readable checks the file's own mode: a sandbox shows the agent its
// files at their paths whatever their folders' modes, but with their own.
func readable(path string, program bool) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("sandbox: %s: want an absolute path", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("agent file: %w", err)
	}
	need := os.FileMode(0o004)
	if program {
		need |= 0o001
	}
	if fi.Mode().Perm()&need != need {
		what := "readable"
		if program {
			what = "readable and executable"
		}
		return fmt.Errorf("agent file %s (mode %04o) is not %s by other users: sandboxed agents run as an unprivileged user; make it %s by all (chmod o+r%s %s)",
			path, fi.Mode().Perm(), what, what, map[bool]string{true: "x", false: ""}[program], path)
	}
	return nil
}

// firstUnsearchable is the first directory from the root down to dir
// (included) that other users cannot search, or "".
func firstUnsearchable(dir string) (string, error) {
	at := "/"
	for _, part := range strings.Split(dir, "/") {
		if part == "" {
			continue
		}
		at = filepath.Join(at, part)
		di, err := os.Stat(at)
		if err != nil {
			return "", fmt.Errorf("agent file: %w", err)
		}
		if di.Mode().Perm()&0o001 == 0 {
			return at, nil
		}
	}
	return "", nil
}

// Report is what a probe found.
type Report struct {
	Namespaces  error    // starting a process in new namespaces
	Proc        error    // mounting a fresh /proc
	Loopback    error    // bringing lo up
	Nested      error    // forbidding nested user namespaces
	ReadOnly    error    // mount_setattr(AT_RECURSIVE, MOUNT_ATTR_RDONLY)
	Affinity    error    // a seccomp filter refusing sched_setaffinity
	SysVIPC     error    // the IPC namespace's System V limits set to zero (not required: the kernel's defaults stay where it refuses)
	Root        bool     // whether distinct host ids can be mapped (running as root)
	Cgroups     []string // DescribeCgroups of this machine
	Unsupported string   // why sandboxes cannot be used here; "" when they can
}

// probeResult is the init's probe answer on stdout.
type probeResult struct {
	Proc     string `json:"proc"`
	Loopback string `json:"loopback"`
	Nested   string `json:"nested"`
	ReadOnly string `json:"read_only"`
	Affinity string `json:"affinity"`
	SysVIPC  string `json:"sysv_ipc,omitempty"`
}

func errOf(s string) error {
	if s == "" {
		return nil
	}
	return errors.New(s)
}

// Probe starts the init at path in new namespaces, with ids, and reports
// what works on this machine.
func Probe(init string, ids IDs) Report {
	r := Report{Root: os.Geteuid() == 0, Cgroups: DescribeCgroups(MachineCgroups())}
	if !r.Root {
		r.Namespaces = errors.New("mapping distinct unprivileged ids needs root")
		r.Unsupported = "the arena is not running as root, so it cannot map each agent to its own unprivileged user id"
		return r
	}
	initFile, err := os.Open(init)
	if err != nil {
		r.Namespaces = err
		r.Unsupported = "cannot open the sandbox init binary: " + err.Error()
		return r
	}
	defer initFile.Close()
	cmd, err := newCmd(init, Spec{Probe: true}, []*os.File{initFile}, ids, nil)
	if err != nil {
		r.Namespaces = err
		r.Unsupported = err.Error()
		return r
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.Namespaces = fmt.Errorf("%w %s", err, strings.TrimSpace(stderr.String()))
		r.Unsupported = "the kernel refuses to start a process in new user, PID, network, IPC, mount and UTS namespaces: " + r.Namespaces.Error()
		return r
	}
	var pr probeResult
	if err := json.Unmarshal(out, &pr); err != nil {
		r.Namespaces = fmt.Errorf("probe answered %q: %w", out, err)
		r.Unsupported = r.Namespaces.Error()
		return r
	}
	r.Proc, r.Loopback, r.Nested, r.ReadOnly, r.Affinity = errOf(pr.Proc), errOf(pr.Loopback), errOf(pr.Nested), errOf(pr.ReadOnly), errOf(pr.Affinity)
	r.SysVIPC = errOf(pr.SysVIPC)
	var missing []string
	for _, s := range []struct {
		what string
		err  error
	}{{"mounting a fresh /proc", r.Proc}, {"bringing up loopback", r.Loopback}, {"forbidding nested user namespaces", r.Nested}, {"a recursive read-only mount (mount_setattr)", r.ReadOnly}, {"a seccomp filter locking CPU affinity", r.Affinity}} {
		if s.err != nil {
			missing = append(missing, s.what+": "+s.err.Error())
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		r.Unsupported = "namespaces start, but " + strings.Join(missing, "; ")
	}
	return r
}
