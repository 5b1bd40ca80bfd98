// Package host starts agent plugins as subprocesses and keeps them on a
// leash: each agent's process tree runs in its own sandbox (plugins/sandbox)
// where the kernel allows it, else in its own process group; the plugin
// channel is a mutually authenticated TLS connection over a Unix socket in
// the agent's private directory; its stdout is reserved for the go-plugin
// handshake, its stderr is captured (size-capped), the CPU time and memory
// of its whole tree are measured, and Kill takes the whole tree.
package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"
	"golang.org/x/sys/unix"

	"arena/internal/pidsweep"
	"arena/plugins/host/proctree"
	"arena/plugins/protocol"
	"arena/plugins/sandbox"
)

// Launcher knows how to start agents. The zero value of every field but
// Self and Builtins is a sensible default; a Launcher must not be copied
// after first use.
type Launcher struct {
	// Self is the command line that starts this program as an agent host;
	// the agent reference is appended. Built-in and Lua agents run this way.
	Self []string
	// Builtins names the built-in agents, for resolving bare names and for
	// error messages.
	Builtins []string
	// StderrBytes caps the stderr kept per agent (default 8 KiB).
	StderrBytes int
	// StderrRate is how fast an agent's stderr is read, in bytes a second
	// after the first MiB (default DefaultStderrRate).
	StderrRate int
	// Env is added to agent processes' environment.
	Env []string
	// PassEnv names variables of the arena's environment that agents get
	// too (besides PATH, HOME, LANG and TMPDIR, which are always set).
	PassEnv []string
	// Isolation is how agents are contained: IsolationAuto (the default)
	// and IsolationRequired sandbox every agent and refuse to start one
	// where the machine cannot; IsolationOff uses process groups only, and
	// says so once.
	Isolation string
	// Init is a binary linking plugins/sandbox, started as each sandbox's
	// init (default: Self[0]).
	Init string
	// Prepare, when set, is called before a course agent (Kind "course")
	// starts, outside any sandbox, with the reference the agent host is
	// given ("course:/abs/path?query") and whether the agent will run in a
	// sandbox. It returns the reference to give instead (e.g. naming a
	// cache it filled) and the folders the agent must read, which a
	// sandbox shows read-only at their own paths. The arena sets it to
	// agents/course's Prepare; without it a sandboxed course agent sees
	// only what any unprivileged user can reach.
	Prepare func(ctx context.Context, ref string, sandboxed bool) (string, []string, error)
	// NoCgroups reads agents' CPU time and memory from /proc even where
	// cgroups could hold them (the fallback's tests; comparisons of the
	// two readings).
	NoCgroups bool
	// MaxTasks bounds the processes and threads of one agent's tree where
	// cgroups are used (default DefaultMaxTasks).
	MaxTasks int
	// PrivateDirMB bounds what a sandboxed agent can write into its
	// private directory, in MiB (default DefaultPrivateDirMB).
	PrivateDirMB int
	// Notify receives the one notice that agents run unsandboxed under
	// IsolationOff, and the first time an agent's cgroup could not be made
	// (default: standard error).
	Notify func(msg string)

	once    sync.Once
	support sandbox.Report
	base    string
	ready   error
	hint    atomic.Int64
	cg      *sandbox.CgroupRoot // nil: agents are read through /proc
	cgErr   error               // why cg is nil
	cgWarn  sync.Once           // the notice of a group that could not be made

	tlsOnce  sync.Once
	creds    *protocol.Credentials // the arena's side of every agent's channel
	credsErr error
}

// Isolation settings.
const (
	IsolationAuto     = "auto"
	IsolationRequired = "required"
	IsolationOff      = "off"
)

// agentPath is the PATH every agent gets: system directories only, since
// anything under /root is out of an unprivileged agent's reach.
const agentPath = "/usr/local/bin:/usr/bin:/bin"

// Options for one agent process.
type Options struct {
	StartTimeout time.Duration // handshake deadline; DefaultStartTimeout when not positive
	MemoryMB     int           // resident memory limit; 0 = none
	// MaxReplyBytes bounds every message received from the agent (a move
	// reply's text, plus framing); 0 = the default. Nothing larger is
	// buffered by the arena.
	MaxReplyBytes int

	// CPUs, when set, are the only CPUs the agent's process tree may run
	// on (its fair slot): applied with sched_setaffinity to the thread that
	// starts it, so the process, its threads and its children inherit it.
	CPUs []int
	// ProtocolVersion overrides the protocol version the arena asks for
	// (tests of the version check only).
	ProtocolVersion uint
}

// DefaultStartTimeout is the handshake deadline of Options without one.
const DefaultStartTimeout = 30 * time.Second

func (o Options) startTimeout() time.Duration {
	if o.StartTimeout <= 0 {
		return DefaultStartTimeout
	}
	return o.StartTimeout
}

// errInitGone: the sandbox's init ended before its identity was read.
var errInitGone = errors.New("ended during the handshake")

// Command is how to start one agent reference.
type Command struct {
	Ref  string   // as written by the user
	Kind string   // "builtin", "lua", "course" or "binary"
	Argv []string // program and arguments
}

// Resolve turns an agent reference into a command line:
// "builtin:NAME" or a bare built-in NAME, "lua:PATH[?k=v&...]", or the
// path of an agent binary built with the SDK.
func (l *Launcher) Resolve(ref string) (Command, error) {
	switch {
	case strings.HasPrefix(ref, "builtin:"):
		name := strings.TrimPrefix(ref, "builtin:")
		// Options ("builtin:strong?time=0.5") go to the agent process as written.
		if base, _, _ := strings.Cut(name, "?"); !l.isBuiltin(base) {
			return Command{}, l.unknown(ref)
		}
		return Command{Ref: ref, Kind: "builtin", Argv: append(append([]string{}, l.Self...), "builtin:"+name)}, nil
	case strings.HasPrefix(ref, "lua:"):
		path := strings.TrimPrefix(ref, "lua:")
		file, _, _ := strings.Cut(path, "?")
		if _, err := os.Stat(file); err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		return Command{Ref: ref, Kind: "lua", Argv: append(append([]string{}, l.Self...), "lua:"+abs)}, nil
	case strings.HasPrefix(ref, "course:"):
		// A course agent (agents/course): the arena binary serves it and
		// starts the course's runtime as its own child.
		path, query, hasQuery := strings.Cut(strings.TrimPrefix(ref, "course:"), "?")
		if _, err := os.Stat(path); err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		if hasQuery {
			abs += "?" + query
		}
		return Command{Ref: ref, Kind: "course", Argv: append(append([]string{}, l.Self...), "course:"+abs)}, nil
	case l.isBuiltin(ref):
		return l.Resolve("builtin:" + ref)
	}
	if strings.ContainsRune(ref, os.PathSeparator) || strings.HasPrefix(ref, ".") {
		fi, err := os.Stat(ref)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		if fi.IsDir() {
			return Command{}, fmt.Errorf("agent %s is a directory: give the path of an agent binary built with the arena SDK", ref)
		}
		if fi.Mode()&0o111 == 0 {
			return Command{}, fmt.Errorf("agent %s is not executable", ref)
		}
		abs, err := filepath.Abs(ref)
		if err != nil {
			return Command{}, fmt.Errorf("agent %s: %w", ref, err)
		}
		return Command{Ref: ref, Kind: "binary", Argv: []string{abs}}, nil
	}
	return Command{}, l.unknown(ref)
}

func (l *Launcher) isBuiltin(name string) bool {
	for _, b := range l.Builtins {
		if b == name {
			return true
		}
	}
	return false
}

func (l *Launcher) unknown(ref string) error {
	names := make([]string, len(l.Builtins))
	for i, b := range l.Builtins {
		names[i] = "builtin:" + b
	}
	return fmt.Errorf("unknown agent %q: use one of %s, lua:PATH.lua, course:PATH, or the path of an agent binary built with the arena SDK",
		ref, strings.Join(names, ", "))
}

// Process is one running agent.
type Process struct {
	Agent protocol.Agent
	Cmd   Command

	client *plugin.Client
	pid    int // the agent: a sandbox's init, which became it, or the unsandboxed process
	stderr *Tail
	errIn  *throttle // what reads the agent's stderr into stderr
	stdout *Tail     // what the agent printed on stdout after the handshake
	limit  int64

	sandboxed bool
	ns        string         // the sandbox's PID namespace, as /proc/<pid>/ns/pid reads
	init      *proctree.Proc // the sandbox's init, as it started
	main      *proctree.Proc // the agent's own process (KillExtras keeps it)
	nsProc    *nsSampler     // the sandbox's accounting
	tree      *treeSampler   // an unsandboxed agent's accounting
	moveConn  net.Conn       // the arena's end of the move channel
	dir       string         // the private directory, removed at the end
	dirMount  *os.File       // a sandboxed agent's private directory itself (sandbox.PrivateMount); nil: dir on the host
	sock      string         // the plugin socket the agent announced, once checked (checkAddress)
	lease     *sandbox.Lease
	group     *sandbox.Group // the agent's cgroup; nil where /proc is read
	preJoin   usage          // what the sandbox's init used before it joined its v1 groups
	groupMem  bool           // the group holds the memory limit and its verdict (kernelMemory)

	mu       sync.Mutex
	killed   bool
	overMem  bool
	peak     int64
	stopOnce sync.Once
	stop     chan struct{}
	memHit   chan struct{}
	cleaned  chan struct{}
	// delayWatched is set once Usage is asked: moves are timed by the
	// wall clock, and the watcher reads the run-queue delay too.
	delayWatched atomic.Bool
}

// ErrVersion marks a handshake refused for a protocol version mismatch.
var ErrVersion = errors.New("agent protocol version mismatch")

// ErrNoSandbox marks a refusal to start an agent unsandboxed where the
// user did not ask for IsolationOff.
var ErrNoSandbox = errors.New("agent sandboxes are not available on this machine")

// Launch starts the agent and completes the handshake.
func (l *Launcher) Launch(ctx context.Context, ref string, opt Options) (*Process, error) {
	c, err := l.Resolve(ref)
	if err != nil {
		return nil, err
	}
	return l.Start(ctx, c, opt)
}

// prepare decides once whether agents are sandboxed here. Without a
// sandbox nothing stops an agent from reading whatever the arena's user
// can (other entrants' code, the results) or signalling other agents, so
// that happens only when the user asked for it by name.
func (l *Launcher) prepare() {
	l.once.Do(func() {
		closeStraysOnExec()
		l.findCgroups()
		switch l.Isolation {
		case "", IsolationAuto, IsolationRequired:
		case IsolationOff:
			sweepPrivateDirs(os.TempDir())
			l.support.Unsupported = "isolation is off"
			l.notify("arena: agents run WITHOUT a sandbox, as isolation: off asks: each can read whatever this user can read and signal the others (docs/security.md)")
			return
		default:
			l.ready = fmt.Errorf("isolation %q: want auto, required or off", l.Isolation)
			return
		}
		l.support = l.probe(os.Geteuid())
		if l.support.Unsupported != "" {
			sweepPrivateDirs(os.TempDir())
		}
		if l.support.Cgroups == nil {
			l.support.Cgroups = sandbox.DescribeCgroups(sandbox.MachineCgroups())
		}
		if l.support.Unsupported != "" {
			l.ready = fmt.Errorf("%w (isolation: %s): %s; %s", ErrNoSandbox, cmp.Or(l.Isolation, IsolationAuto), l.support.Unsupported, NoSandboxFix)
		}
	})
}

// privatePrefix starts the name of an unsandboxed agent's private
// directory (in the temporary folder): arena-agent-PID-…, PID the arena's.
const privatePrefix = "arena-agent-"

// sweepPrivateDirs removes from tmp the unsandboxed agents' private
// directories of arenas that are gone (killed before they could remove
// them), and says how many it removed.
func sweepPrivateDirs(tmp string) int { return pidsweep.Dir(tmp, privatePrefix, "-", true) }

// NoSandboxFix is how a user runs agents where they cannot be sandboxed.
const NoSandboxFix = "to run agents anyway, contained by process groups only (each can then read whatever this user can, other entrants' code and the results included), say so: isolation: off in the league file, or --isolation off (docs/security.md)"

func (l *Launcher) notify(msg string) {
	if l.Notify != nil {
		l.Notify(msg)
	} else {
		fmt.Fprintln(os.Stderr, msg)
	}
}

// probe finds what sandbox this machine allows an arena running as euid:
// only root can map each agent to its own ids, so any other user prepares
// nothing.
func (l *Launcher) probe(euid int) sandbox.Report {
	if euid != 0 {
		return sandbox.Probe("", sandbox.IDs{})
	}
	base, err := sandbox.Base()
	if err != nil {
		return sandbox.Report{Namespaces: err, Unsupported: err.Error()}
	}
	l.base = base
	sandbox.Sweep(base)
	lease, err := sandbox.Acquire(base, int(l.hint.Add(1)))
	if err != nil {
		return sandbox.Report{Namespaces: err, Unsupported: err.Error()}
	}
	defer lease.Release()
	init, err := l.initPath()
	if err != nil {
		return sandbox.Report{Namespaces: err, Unsupported: err.Error()}
	}
	return sandbox.Probe(init, lease.IDs)
}

func (l *Launcher) initPath() (string, error) {
	if l.Init == "" {
		return l.selfPath()
	}
	return absProgram(l.Init)
}

// selfPath is the absolute path of the host program (Self).
func (l *Launcher) selfPath() (string, error) {
	if len(l.Self) == 0 {
		return "", errors.New("no sandbox init binary: the launcher has no Self command")
	}
	return absProgram(l.Self[0])
}

// absProgram is the absolute path of a program named as on a command line.
func absProgram(p string) (string, error) {
	if !strings.ContainsRune(p, os.PathSeparator) {
		lp, err := exec.LookPath(p)
		if err != nil {
			return "", err
		}
		p = lp
	}
	return filepath.Abs(p)
}

// Check reports whether agents can be started as the launcher's isolation
// setting demands: an error (ErrNoSandbox, with the reason and the fix)
// where the machine cannot sandbox them and isolation is not off, or for
// an unknown setting.
func (l *Launcher) Check() error {
	l.prepare()
	return l.ready
}

// Sandboxed reports whether agents started by l run in a sandbox.
func (l *Launcher) Sandboxed() bool {
	l.prepare()
	return l.ready == nil && l.support.Unsupported == ""
}

// Support is what the launcher found about this machine's sandboxes.
func (l *Launcher) Support() sandbox.Report {
	l.prepare()
	return l.support
}

// env is the agent's whole environment: a minimal set, the pass-through
// list, and the launcher's additions. go-plugin adds its own variables.
func (l *Launcher) env(dir string) []string {
	lang := os.Getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env := []string{"PATH=" + agentPath, "HOME=" + dir, "TMPDIR=" + dir, "LANG=" + lang, "PLUGIN_UNIX_SOCKET_DIR=" + dir}
	for _, name := range l.PassEnv {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return append(env, l.Env...)
}

// Start starts a resolved command.
func (l *Launcher) Start(ctx context.Context, c Command, opt Options) (*Process, error) {
	l.prepare()
	if l.ready != nil {
		return nil, fmt.Errorf("agent %s: %w", c.Ref, l.ready)
	}
	version := uint(protocol.Version)
	if opt.ProtocolVersion != 0 {
		version = opt.ProtocolVersion
	}
	p := &Process{Cmd: c, stderr: NewTail(l.StderrBytes), stdout: NewTail(l.StderrBytes), stop: make(chan struct{}), memHit: make(chan struct{}), cleaned: make(chan struct{})}
	p.errIn = newThrottle(p.stderr, l.StderrRate, p.stop)
	kernel := l.kernelMemory(c)
	p.group = l.newGroup(l.groupMemoryMB(c, opt, kernel))
	p.groupMem = p.group != nil && kernel
	cmd, files, err := l.command(ctx, p, c)
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("agent %s: %w", c.Ref, err)
	}
	// The move channel: the agent inherits one end (through the sandbox's
	// init, which passes descriptors on), the arena keeps the other.
	arenaEnd, agentEnd, err := socketPair()
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("agent %s: move channel: %w", c.Ref, err)
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, agentEnd)
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", protocol.MoveFDEnv, 2+len(cmd.ExtraFiles)))
	files = append(files, agentEnd)
	p.moveConn = arenaEnd
	intoGroup(cmd, p.group)
	cfg, err := l.clientConfig(cmd, p, version, opt)
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("agent %s: %w", c.Ref, err)
	}
	client := plugin.NewClient(cfg)
	p.client = client
	done := make(chan error, 1)
	go func() {
		done <- startThread(p.group, p.sandboxed, opt.CPUs, func() error {
			_, err := client.Start()
			return err
		})
	}()
	started := func() {
		for _, f := range files {
			f.Close()
		}
		if cmd.Process != nil {
			p.pid = cmd.Process.Pid
			if p.sandboxed {
				p.nsProc = newNSSampler(p.pid)
			} else {
				p.tree = newTreeSampler(p.pid)
			}
		}
	}
	select {
	case err = <-done:
	case <-ctx.Done():
		// go-plugin may be starting the process right now: the kill and
		// the cleanup wait for it, without holding up the caller.
		go func() {
			<-done
			started()
			p.Kill()
		}()
		return nil, fmt.Errorf("agent %s: %w", c.Ref, ctx.Err())
	}
	started()
	if err != nil {
		p.Kill()
		return nil, p.launchError(err, version)
	}
	if err := p.connect(opt); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// connect completes a started agent: its identity and address checked,
// the plugin dispensed, the move channel in use, its memory watched.
func (p *Process) connect(opt Options) error {
	if err := p.checkAddress(); err != nil {
		return fmt.Errorf("agent %s: %w", p.Cmd.Ref, err)
	}
	// The processes are read from /proc while the channel's TLS and gRPC
	// set-up waits on the agent: a start pays for the longer of the two.
	identified := make(chan error, 1)
	go func() { identified <- p.identify() }()
	rpc, err := p.client.Client()
	if err := <-identified; err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("agent %s: connect: %w", p.Cmd.Ref, err)
	}
	raw, err := rpc.Dispense(protocol.PluginName)
	if err != nil {
		return fmt.Errorf("agent %s: %w", p.Cmd.Ref, err)
	}
	p.Agent = raw.(protocol.Agent)
	if c, ok := raw.(*protocol.Client); ok {
		c.MaxReply = opt.MaxReplyBytes
		c.UseMoveChannel(p.moveConn)
	}
	p.limit = int64(opt.MemoryMB) << 20 // zero or less: no limit (see breach)
	if p.groupMem {
		go p.watch(p.groupMemory)
	} else {
		go p.watch(p.procMemory)
	}
	return nil
}

// identify notes the processes the arena later tells apart from recycled
// pids: the agent's main process (the process started: a sandbox's init
// became the agent), and a sandbox's init and namespace. It runs once the
// handshake is done, while the process surely lives (only the arena reaps
// it).
func (p *Process) identify() error {
	main, ok, err := proctree.Of(p.pid)
	if err != nil || !ok {
		return fmt.Errorf("agent %s: process %d: %w", p.Cmd.Ref, p.pid, cmp.Or(err, errInitGone))
	}
	p.main = &main
	if p.sandboxed {
		p.init = p.main
		p.ns, _ = os.Readlink("/proc/" + strconv.Itoa(p.pid) + "/ns/pid")
		// The init became the agent. On v2 it is in the group from its
		// start, so its setup (a few milliseconds of CPU) is in the
		// count; on v1 it joined at the end of its setup, which is
		// added back, once.
		if p.group != nil && p.group.Version() == 1 {
			p.preJoin = preJoinUsage(p.pid, p.group)
		}
	}
	return nil
}

// command builds the agent's command: inside a sandbox where the launcher
// has one, or in a process group. It returns descriptors to close once the
// process has started.
func (l *Launcher) command(ctx context.Context, p *Process, c Command) (*exec.Cmd, []*os.File, error) {
	argv := append([]string(nil), c.Argv...)
	prog, err := absProgram(argv[0])
	if err != nil {
		return nil, nil, err
	}
	argv[0] = prog
	var trees []string
	if c.Kind == "course" && l.Prepare != nil {
		ref, dirs, err := l.Prepare(ctx, argv[len(argv)-1], l.Sandboxed())
		if err != nil {
			return nil, nil, err
		}
		argv[len(argv)-1], trees = ref, dirs
	}
	if !l.Sandboxed() {
		dir, err := os.MkdirTemp("", privatePrefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return nil, nil, err
		}
		p.dir = dir
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = l.env(dir)
		cmd.Dir = dir
		isolate(cmd)
		return cmd, nil, nil
	}
	lease, err := sandbox.Acquire(l.base, int(l.hint.Add(1)))
	if err != nil {
		return nil, nil, err
	}
	p.lease = lease
	dir, err := sandbox.PrivateDir(l.base, lease)
	if err != nil {
		return nil, nil, err
	}
	p.dir = dir
	p.sandboxed = true
	size := l.PrivateDirMB
	if size <= 0 {
		size = DefaultPrivateDirMB
	}
	if p.dirMount, err = sandbox.PrivateMount(lease.IDs, int64(size)<<20); err != nil {
		return nil, nil, err
	}
	init, err := l.initPath()
	if err != nil {
		return nil, nil, err
	}
	// An agent the host program serves itself (built-in, Lua, course)
	// needs no second program start: the host is the init and carries on
	// as the agent. Any other init execs the agent in its place.
	inProcess := false
	if self, err := l.selfPath(); err == nil && self == prog {
		init, inProcess = self, true
	}
	var read []string
	if c.Kind == "lua" {
		file, _, _ := strings.Cut(strings.TrimPrefix(c.Argv[len(c.Argv)-1], "lua:"), "?")
		read = append(read, file)
	}
	env := append(l.env(dir), sandbox.Env+"=1")
	var join []*os.File
	if p.group != nil {
		if join, err = p.group.ProcsFiles(); err != nil {
			return nil, nil, err
		}
	}
	cmd, files, err := sandbox.Command(sandbox.Config{Init: init, Argv: argv, Read: read, Trees: trees, Dir: dir, DirMount: p.dirMount, IDs: lease.IDs, Env: env, Join: join, InProcess: inProcess})
	if err != nil {
		for _, f := range join {
			f.Close()
		}
	}
	return cmd, files, err
}

// checkAddress insists that the agent serves on a Unix socket in its own
// private directory: an agent naming any other address would have the
// arena dial a place of its choosing.
func (p *Process) checkAddress() error {
	rc := p.client.ReattachConfig()
	if rc == nil || rc.Addr == nil {
		return errors.New("no plugin address after the handshake")
	}
	if rc.Addr.Network() != "unix" || filepath.Dir(rc.Addr.String()) != p.dir {
		return fmt.Errorf("the agent announced plugin address %s %s, not a socket in its private directory %s", rc.Addr.Network(), rc.Addr, p.dir)
	}
	// A link is refused here, where the start can say so; dialSocket
	// holds to it at every connect, where the name could have changed.
	p.sock = rc.Addr.String()
	fd, err := p.openSocket()
	if err != nil {
		p.sock = ""
		return err
	}
	unix.Close(fd)
	return nil
}

func (p *Process) launchError(err error, version uint) error {
	msg := err.Error()
	if strings.Contains(msg, "incompatible API version") {
		return fmt.Errorf("agent %s was refused: %w: %s (%s)",
			p.Cmd.Ref, ErrVersion, protocol.Refusal(msg, version), firstLine(msg))
	}
	if strings.Contains(msg, "Unrecognized remote plugin message") {
		msg = "it did not complete the plugin handshake (is it an agent built with the arena SDK?): " + firstLine(msg)
	}
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		return fmt.Errorf("agent %s failed to start: %s\nagent stderr:\n%s", p.Cmd.Ref, firstLine(msg), tail)
	}
	return fmt.Errorf("agent %s failed to start: %s", p.Cmd.Ref, firstLine(msg))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// watchEvery is how often memory is sampled; an allocation faster than this
// can overshoot the limit briefly before the kill.
const watchEvery = 20 * time.Millisecond

// delayEvery is every how many watch ticks the run-queue delay is read
// while moves are timed: a thread's wait after its last reading (up to
// delayEvery*watchEvery) is lost when it ends; each reading costs a
// schedstat read per thread.
const delayEvery = 5

// sample reads the agent's whole process tree: its cgroup where it has
// one, else /proc.
func (p *Process) sample(r reading) (usage, error) {
	if !p.started() {
		return usage{}, errors.New("agent not started")
	}
	if p.group != nil {
		return p.groupUsage(r)
	}
	return p.procSample(r)
}

// procSample reads the agent's processes through /proc.
func (p *Process) procSample(r reading) (usage, error) {
	if p.nsProc != nil {
		return p.nsProc.sample(r)
	}
	return p.tree.sample(r)
}

// watch reads the agent's memory every watchEvery with read until the
// agent ends (read says stop), killing it once read finds it over its
// limit.
func (p *Process) watch(read func() (peak int64, over, stop bool)) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for tick := 1; ; tick++ {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		peak, over, stop := read()
		if stop {
			return
		}
		// Once moves are timed by the wall clock, the run-queue delay too,
		// every few ticks: a thread seen while it lives keeps its wait in
		// the ledger after it ends (delayLedger).
		if p.delayWatched.Load() && tick%delayEvery == 0 {
			_, _ = p.sample(reading{delay: true})
		}
		p.mu.Lock()
		p.peak = max(p.peak, peak)
		p.mu.Unlock()
		if over && p.breached() {
			p.Kill()
			return
		}
	}
}

// procMemory samples the agent's processes through /proc: the resident
// memory summed over them, or the largest single process's peak if that
// is higher, judged against the limit.
func (p *Process) procMemory() (peak int64, over, stop bool) {
	u, err := p.sample(reading{mem: true})
	if errors.Is(err, errNotNamespaceProc) {
		return 0, false, false
	}
	if err != nil {
		return 0, false, true // gone
	}
	peak = max(u.RSS, u.Peak)
	return peak, breach(peak, p.limit), false
}

// breach reports whether a peak is over a memory limit; a limit of zero or
// less is none, and a peak equal to the limit is within it.
func breach(peak, limit int64) bool {
	return limit > 0 && peak > limit
}

// MemoryExceeded is closed when the agent went over its memory limit (and
// was killed for it).
func (p *Process) MemoryExceeded() <-chan struct{} { return p.memHit }

// OverMemory reports whether the agent was killed for its memory.
func (p *Process) OverMemory() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.overMem
}

// PeakRSS is the highest resident memory seen, in bytes: summed over the
// agent's processes, or its largest single process's peak if higher.
func (p *Process) PeakRSS() int64 {
	u, _ := p.sample(reading{mem: true}) // a failed reading (the agent gone) is zero
	p.mu.Lock()
	defer p.mu.Unlock()
	p.peak = max(p.peak, u.RSS, u.Peak)
	return p.peak
}

// CPUTime is the CPU time (user+system) used by every process of the
// agent, those that have ended included. It is read around every move, so
// it reads no memory (the watcher does).
func (p *Process) CPUTime() (time.Duration, error) {
	u, err := p.sample(reading{})
	return u.CPU, err
}

// Usage is the CPU time of every process of the agent, as CPUTime, and
// the time their live threads spent waiting for a CPU while ready to run
// (the kernel's run-queue delay, /proc/PID/task/TID/schedstat, summed,
// threads that ended included: delayLedger).
// The difference of two readings around a move tells an agent kept from
// a CPU by the machine (a long delay) from one that slept or thought too
// long (none). It reads every thread, so it is taken only where a move's
// wall time is judged.
func (p *Process) Usage() (cpu, runQueue time.Duration, err error) {
	p.delayWatched.Store(true)
	u, err := p.sample(reading{delay: true})
	return u.CPU, u.RunQueue, err
}

// started reports whether the agent's process was started: only then has
// it a pid to read or signal.
func (p *Process) started() bool { return p.pid > 0 }

// Pid is the process id of the agent's sandbox init (or of the agent
// itself when unsandboxed); its process group id too.
func (p *Process) Pid() int { return p.pid }

// Sandboxed reports whether the agent runs in a sandbox.
func (p *Process) Sandboxed() bool { return p.sandboxed }

// Dir is the agent's private directory, as the agent names it (removed
// when the agent ends). A sandboxed agent's is a tmpfs of its own that
// the host's tree does not show (HostPath reaches it).
func (p *Process) Dir() string { return p.dir }

// HostPath is where the arena reaches name, a path relative to the
// agent's private directory: through the sandbox's private mount where
// it has one, else in Dir on the host. The path is good in this process
// only, while the agent runs.
func (p *Process) HostPath(name string) string {
	if p.dirMount != nil {
		return filepath.Join("/proc/self/fd", strconv.Itoa(int(p.dirMount.Fd())), name)
	}
	return filepath.Join(p.dir, name)
}

// Leftovers lists what the agent's private directory holds besides its
// plugin socket.
func (p *Process) Leftovers() ([]string, error) {
	entries, err := os.ReadDir(p.HostPath("."))
	if err != nil {
		return nil, err
	}
	sock := filepath.Base(p.SocketPath())
	var out []string
	for _, e := range entries {
		if e.Name() != sock {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// SocketPath is the plugin socket the agent announced, as the agent names
// it (HostPath of its base name reaches it).
func (p *Process) SocketPath() string { return p.sock }

// dialSocket connects to the agent's plugin socket through HostPath: a
// sandboxed agent's is in its private mount, which has no host path. It
// runs while go-plugin holds its client's lock, so it reads the address
// checkAddress kept, not the client's.
//
// The agent owns the folder the socket is in, so the name it announced
// may be a symbolic link, which the arena's connect would follow into
// its own file system: to another process's socket, which a sandboxed
// agent's plain channel would then talk to. The name is opened without
// following links, must be a socket, and is connected to through that
// descriptor, so it cannot be swapped between the check and the connect.
func (p *Process) dialSocket(ctx context.Context, _ string) (net.Conn, error) {
	if p.sock == "" {
		return nil, errors.New("no plugin address after the handshake")
	}
	fd, err := p.openSocket()
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var d net.Dialer
	return d.DialContext(ctx, "unix", "/proc/self/fd/"+strconv.Itoa(fd))
}

// openSocket opens the agent's plugin socket without following a link
// (O_PATH), and refuses any name there that is not a socket.
func (p *Process) openSocket() (int, error) {
	fd, err := unix.Open(p.HostPath(filepath.Base(p.sock)), unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("the agent's plugin socket %s: %w", p.sock, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("the agent's plugin socket %s: %w", p.sock, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		unix.Close(fd)
		return -1, fmt.Errorf("the agent's plugin address %s is not a socket (mode %#o): refused", p.sock, st.Mode)
	}
	return fd, nil
}

// Pids lists the host process ids of every process of the agent now:
// its sandbox's PID namespace, or its process group.
func (p *Process) Pids() []int {
	if !p.started() {
		return nil
	}
	if p.sandboxed {
		if p.ns == "" {
			return nil
		}
		return namespacePids(p.pid, p.ns)
	}
	return groupPids(p.pid)
}

// Exited reports whether the agent process has ended.
func (p *Process) Exited() bool { return p.client.Exited() }

// Stdout returns the tail of what the agent wrote to stdout after the
// handshake. Stdout belongs to the plugin protocol; this is kept only so a
// check can report the noise, never passed to the game.
func (p *Process) Stdout() string { return p.stdout.String() }

// Stderr returns the captured tail of the agent's stderr.
func (p *Process) Stderr() string { return p.stderr.String() }

// StderrRead is how many bytes of stderr the arena has read from the
// agent, kept or dropped.
func (p *Process) StderrRead() int64 { return p.stderr.Written() }

// Kill ends the agent's whole process tree, waits for go-plugin to clean
// up, and removes the agent's private directory (its plugin socket with
// it). Safe to call more than once and concurrently; every call returns
// once the cleanup is done.
func (p *Process) Kill() {
	p.mu.Lock()
	already := p.killed
	p.killed = true
	p.mu.Unlock()
	p.stopOnce.Do(func() { close(p.stop) })
	if already {
		<-p.cleaned
		return
	}
	// The sandbox's init leads the group: killing it empties its PID
	// namespace. (killGroup refuses the pid 0 of a process never started.)
	_ = killGroup(p.pid, syscall.SIGKILL)
	if p.group != nil {
		p.group.Kill() // an unsandboxed agent's setsid'ed children too
	}
	p.client.Kill()
	p.lastGroupMemory()
	if p.nsProc != nil {
		p.nsProc.close()
	}
	if p.tree != nil {
		p.tree.close()
	}
	// The move channel: the client closes it (and knows it is down); one
	// never handed to a client is closed here.
	if c, ok := p.Agent.(*protocol.Client); ok {
		c.Close()
	} else {
		p.moveConn.Close()
	}
	p.cleanup()
}

// lastGroupMemory reads the kernel's memory verdict and the group's peak
// once more before the group goes: an OOM kill since the watcher's last
// tick would otherwise be lost, and a caller that saw the agent die (and
// killed it) would judge a memory breach as a death, more often the
// busier the machine, with the peak of the watcher's last tick, below the
// limit the agent was killed at.
func (p *Process) lastGroupMemory() {
	if !p.groupMem || p.limit <= 0 {
		return
	}
	peak, kills, err := p.group.Memory()
	if err != nil {
		return
	}
	p.mu.Lock()
	p.peak = max(p.peak, peak)
	p.mu.Unlock()
	if kills > 0 {
		p.breached()
	}
}

// breached records the agent's memory breach and signals MemoryExceeded,
// once; it reports whether this call was the first to.
func (p *Process) breached() bool {
	p.mu.Lock()
	first := !p.overMem
	p.overMem = true
	p.mu.Unlock()
	if first {
		close(p.memHit)
	}
	return first
}

// cleanup removes the private directory and returns the ids, once no
// process of the agent can remain.
func (p *Process) cleanup() {
	if p.init != nil {
		// The namespace empties as its init exits; make sure.
		deadline := time.Now().Add(10 * time.Second)
		for p.sandboxAlive() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if p.dirMount != nil {
		// The last reference to the tmpfs once the sandbox is gone: its
		// files go with it.
		p.dirMount.Close()
	}
	if p.dir != "" {
		_ = os.RemoveAll(p.dir)
	}
	if p.group != nil {
		_ = p.group.Remove(10 * time.Second)
	}
	p.lease.Release()
	close(p.cleaned)
}

// GroupAlive reports whether any process of the agent remains.
func (p *Process) GroupAlive() bool {
	if !p.started() {
		return false
	}
	if p.sandboxed {
		return p.sandboxAlive()
	}
	return groupAlive(p.pid)
}

// sandboxAlive reports whether any process of the sandbox remains. The
// kernel ends a PID namespace's init only after every other process of
// the namespace is gone, so while the init (the same process, by its start
// time) runs the sandbox lives, and once it is gone or a zombie nothing of
// the sandbox remains. (A namespace's id, which a scan of /proc would
// match, may be reused by a later sandbox as soon as this one is gone.)
func (p *Process) sandboxAlive() bool {
	if p.init == nil {
		// Killed before its identity was read: the kill ended the init.
		return false
	}
	alive, err := proctree.Alive(*p.init)
	return err != nil || alive
}

// WaitGone waits up to d for every process of the agent to be gone (the
// kernel reaps killed processes shortly after the kill) and reports
// whether they are.
func (p *Process) WaitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for p.GroupAlive() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
