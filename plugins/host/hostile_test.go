package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/internal/testprograms"
	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sandbox"
)

// The hostile fixture is built once per test binary, into a 0700
// directory as go test's own binaries are, which the sandboxed agent's
// unprivileged id cannot search.
var hostile struct {
	once sync.Once
	path string
	err  error
}

func hostileAgent(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		// Linking the fixture is most of a short run's time; the attacks
		// run in the full suite.
		t.Skip("builds the hostile fixture agent: runs without -short")
	}
	hostile.once.Do(func() {
		dir, err := os.MkdirTemp("", "hostile-")
		if err != nil {
			hostile.err = err
			return
		}
		hostile.path = filepath.Join(dir, "hostile")
		if err := testprograms.Install(".", dir, []string{testprograms.NoDWARF}, "./testdata/hostile"); err != nil {
			hostile.err = fmt.Errorf("build the hostile fixture: %w", err)
		}
	})
	if hostile.err != nil {
		t.Fatal(hostile.err)
	}
	return hostile.path
}

// requireSandbox skips where the kernel refuses the namespaces.
func requireSandbox(t *testing.T) {
	t.Helper()
	if l := launcher(); !l.Sandboxed() {
		t.Skipf("agent sandboxes are not available here, so this attack cannot be contained: %s", l.Support().Unsupported)
	}
}

// proc is one process seen during a game, by pid and start time, so a
// recycled pid is not mistaken for a survivor.
type proc struct {
	pid   int
	start string
}

func startTime(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	if len(f) < 20 {
		return "", false
	}
	return string(f[19]), true // field 22, starttime
}

// tracked is a Handle that notes every process of its agent after each
// call, so the test can check each of them is gone at the end.
type tracked struct {
	referee.Handle
	proc *host.Process
	mu   sync.Mutex
	seen map[proc]bool
}

func (h *tracked) note() {
	for _, pid := range h.proc.Pids() {
		if st, ok := startTime(pid); ok {
			h.mu.Lock()
			h.seen[proc{pid, st}] = true
			h.mu.Unlock()
		}
	}
}

func (h *tracked) Move(ctx context.Context, r protocol.MoveRequest) (string, error) {
	h.note()
	defer h.note()
	return h.Handle.Move(ctx, r)
}

// count is how many processes were seen.
func (h *tracked) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.seen)
}

// survivors are the processes seen during the game that still exist.
func (h *tracked) survivors() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int
	for p := range h.seen {
		if st, ok := startTime(p.pid); ok && st == p.start {
			out = append(out, p.pid)
		}
	}
	return out
}

type hostileGame struct {
	rec        *record.Game
	att, opp   *tracked
	oppStarted *host.Process
}

// playHostile plays the hostile fixture with the given attack (seat 0)
// against the same fixture playing honestly (seat 1), sandboxed. env, when
// set, adds variables to the attacker's environment once the opponent is
// running.
func playHostile(t *testing.T, attack string, g engine.Game, params engine.Params, prof engine.Profile, env func(opp *host.Process) []string) hostileGame {
	t.Helper()
	return playHostileIn(t, host.IsolationAuto, attack, g, params, prof, env)
}

// playHostileIn is playHostile under an isolation setting.
func playHostileIn(t *testing.T, isolation, attack string, g engine.Game, params engine.Params, prof engine.Profile, env func(opp *host.Process) []string) hostileGame {
	t.Helper()
	bin := hostileAgent(t)
	return playHostileAs(t, isolation, attack, bin, bin, g, params, prof, env)
}

// playHostileAs is playHostileIn with the attacker and the honest side
// started from the given references.
func playHostileAs(t *testing.T, isolation, attack, attacker, honest string, g engine.Game, params engine.Params, prof engine.Profile, env func(opp *host.Process) []string) hostileGame {
	t.Helper()
	var out hostileGame
	oppUp := make(chan *host.Process, 1)
	launch := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		l := launcher()
		l.Isolation = isolation
		if p.Name == "attacker" {
			l.Env = []string{"HOSTILE=" + attack}
			l.PassEnv = []string{"ARENA_HOSTILE_SECRET"} // named but not set: must not leak
			if env != nil {
				select {
				case opp := <-oppUp:
					l.Env = append(l.Env, env(opp)...)
				case <-time.After(2 * time.Minute):
					return nil, fmt.Errorf("the opponent never started")
				}
			}
		}
		pr, err := l.Launch(ctx, p.Ref, o)
		if err != nil {
			return nil, err
		}
		h := &tracked{Handle: referee.Wrap(pr), proc: pr, seen: map[proc]bool{}}
		h.note()
		if p.Name == "attacker" {
			out.att = h
		} else {
			out.opp = h
			out.oppStarted = pr
			oppUp <- pr
		}
		return h, nil
	}
	r := &referee.Referee{Launch: launch}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rec, err := r.Play(ctx, referee.Match{
		ID: "hostile-" + attack, Game: g, Params: params, Profile: prof, Seed: 7,
		Players: [2]referee.Player{{Name: "attacker", Ref: attacker}, {Name: "honest", Ref: honest}},
	})
	if err != nil {
		t.Fatalf("%s: %v", attack, err)
	}
	out.rec = rec
	return out
}

// patient is a game's course profile with limits no loaded machine can
// miss, so that only the attack decides the verdict.
func patient(t *testing.T, g engine.Game, params engine.Params) engine.Profile {
	t.Helper()
	prof, err := g.Profile(params)
	if err != nil {
		t.Fatal(err)
	}
	prof.StartupTimeout = time.Minute
	if prof.Time == engine.PerMove {
		prof.MoveLimit, prof.FirstMoveLimit = 30*time.Second, time.Minute
	} else {
		prof.BudgetGrace = time.Minute
	}
	return prof
}

// checkOpponent asserts the honest side played every one of its turns
// itself, without a single penalty.
func checkOpponent(t *testing.T, hg hostileGame) {
	t.Helper()
	for _, e := range hg.rec.Events {
		if e.Seat == 1 {
			t.Errorf("the opponent was affected: %+v", e)
		}
	}
	n := 0
	for _, m := range hg.rec.Moves {
		if m.Seat == 1 {
			n++
			if m.Source != record.SourceAgent {
				t.Errorf("the opponent's move at ply %d came from %s", m.Ply, m.Source)
			}
			if m.MoveCPUMS == nil {
				t.Errorf("the opponent's move at ply %d has no CPU time (profile %s)", m.Ply, hg.rec.Profile)
			}
		}
	}
	if n == 0 && hg.rec.Result.Forfeit == "" {
		t.Error("the opponent never moved")
	}
}

// checkGone asserts no process of either agent outlived the game, by the
// pids themselves.
func checkGone(t *testing.T, hg hostileGame) {
	t.Helper()
	for _, h := range []*tracked{hg.att, hg.opp} {
		if h == nil {
			continue
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(h.survivors()) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if s := h.survivors(); len(s) > 0 {
			t.Errorf("processes outlived the game: %v", s)
		}
		if _, err := os.Stat(h.proc.Dir()); err == nil {
			t.Errorf("private directory %s left behind", h.proc.Dir())
		}
	}
}

func (hg hostileGame) events(seat int) []record.Event {
	var out []record.Event
	for _, e := range hg.rec.Events {
		if e.Seat == seat {
			out = append(out, e)
		}
	}
	return out
}

func bohnenspielGame(t *testing.T) (engine.Game, engine.Profile) {
	g := bohnenspiel.Game{}
	return g, patient(t, g, nil)
}

// An agent that signals every process it can see, every pid of its
// opponent and every pid of an agent of another game reaches none of them.
func TestHostileSignalsOpponent(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	bystander := launch(t, "echo", host.Options{})
	defer bystander.Kill()
	hg := playHostile(t, "signal", g, nil, prof, func(opp *host.Process) []string {
		var s []string
		for _, p := range append(opp.Pids(), bystander.Pids()...) {
			s = append(s, strconv.Itoa(p))
		}
		return []string{"HOSTILE_PIDS=" + strings.Join(s, " ")}
	})
	for _, pid := range bystander.Pids() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Errorf("the other game's agent process %d is gone: %v", pid, err)
			continue
		}
		if f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:]); string(f[0]) == "T" {
			t.Errorf("the other game's agent process %d was stopped", pid)
		}
	}
	if _, err := bystander.Agent.Describe(context.Background()); err != nil {
		t.Errorf("the other game's agent no longer answers: %v", err)
	}
	stderr := hg.rec.Stderr[0]
	t.Logf("the attacker reports:\n%s", stderr)
	if !strings.Contains(stderr, "attack: kill") {
		t.Fatalf("the attack did not run: %q", stderr)
	}
	if strings.Contains(stderr, ": <nil>") {
		t.Errorf("a signal was delivered:\n%s", stderr)
	}
	if len(hg.events(0)) != 0 || hg.rec.Result.Forfeit != "" {
		t.Errorf("verdict: the attacker played a normal game, got %+v %+v", hg.events(0), hg.rec.Result)
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// An agent cannot connect to its opponent's plugin socket.
func TestHostileConnectsToOpponentSocket(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "socket", g, nil, prof, func(opp *host.Process) []string {
		return []string{"HOSTILE_TARGET=" + opp.SocketPath()}
	})
	// The opponent's directory is not in the attacker's root at all.
	if e := hg.rec.Stderr[0]; !strings.Contains(e, "attack: connect ") || strings.Contains(e, "connected to") {
		t.Errorf("connecting to the opponent's socket did not fail:\n%s", e)
	}
	if len(hg.events(0)) != 0 {
		t.Errorf("verdict: a normal game, got %+v", hg.events(0))
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// setsid'ed, double-forked and timeout(1) children die with the game.
func TestHostileChildrenOutliveGame(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "fork", g, nil, prof, nil)
	if n := strings.Count(hg.rec.Stderr[0], "attack: spawned"); n < 2 || !strings.Contains(hg.rec.Stderr[0], "timeout child") {
		t.Fatalf("the children were not started:\n%s", hg.rec.Stderr[0])
	}
	// init, agent, setsid child, grandchild, timeout and its sleep.
	if hg.att.count() < 6 {
		t.Errorf("only %d processes seen; the children should have been among them", hg.att.count())
	}
	if len(hg.events(0)) != 0 {
		t.Errorf("verdict: a normal game, got %+v", hg.events(0))
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// 200 sleeping children cost nothing and die with the game.
func TestHostileManyChildren(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "children", g, nil, prof, nil)
	if !strings.Contains(hg.rec.Stderr[0], "200 children started") {
		t.Fatalf("the children were not started:\n%s", hg.rec.Stderr[0])
	}
	if hg.att.count() < 200 {
		t.Errorf("only %d processes seen", hg.att.count())
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// CPU burnt in a child counts against the Cachex budget.
func TestHostileChildBurnsCPU(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g := cachex.Game{}
	params := engine.Params{"n": "4"}
	prof := patient(t, g, params)
	prof.Budget = time.Second
	hg := playHostile(t, "cpu-child", g, params, prof, nil)
	if hg.rec.Result.Winner != 1 || hg.rec.Result.Forfeit != string(engine.FailTimeout) {
		t.Errorf("verdict: the attacker loses on time, got %+v\n%s", hg.rec.Result, hg.rec.Stderr[0])
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// Memory held by a child counts against the Cachex limit.
func TestHostileChildHoldsMemory(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g := cachex.Game{}
	params := engine.Params{"n": "4"}
	prof := patient(t, g, params)
	hg := playHostile(t, "mem-child", g, params, prof, nil)
	if hg.rec.Result.Winner != 1 || hg.rec.Result.Forfeit != string(engine.FailMemory) {
		t.Errorf("verdict: the attacker loses for memory, got %+v\n%s", hg.rec.Result, hg.rec.Stderr[0])
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// Without a sandbox, CPU and memory of an agent's children still count
// (while the children are the agent's descendants).
func TestUnsandboxedChildrenCount(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	g := cachex.Game{}
	params := engine.Params{"n": "4"}
	prof := patient(t, g, params)
	// Children stay in the agent's process group: without a sandbox a
	// setsid'ed child escapes the group kill (docs/security.md).
	stay := func(*host.Process) []string { return []string{"HOSTILE_STAY=1"} }
	hg := playHostileIn(t, host.IsolationOff, "mem-child", g, params, prof, stay)
	if hg.rec.Result.Winner != 1 || hg.rec.Result.Forfeit != string(engine.FailMemory) {
		t.Errorf("memory: the attacker loses, got %+v\n%s", hg.rec.Result, hg.rec.Stderr[0])
	}
	checkGone(t, hg)
	prof.Budget = time.Second
	hg = playHostileIn(t, host.IsolationOff, "cpu-child", g, params, prof, stay)
	if hg.rec.Result.Winner != 1 || hg.rec.Result.Forfeit != string(engine.FailTimeout) {
		t.Errorf("CPU: the attacker loses on time, got %+v\n%s", hg.rec.Result, hg.rec.Stderr[0])
	}
	checkGone(t, hg)
}

// An agent sees neither the arena's environment nor its processes, and
// can write only its private directory; it has no network but loopback.
func TestHostileSnoops(t *testing.T) {
	requireSandbox(t)
	t.Setenv("ARENA_HOSTILE_LEAK", "leaked-value-7f3a")
	secretDir, err := os.MkdirTemp("", "secret-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(secretDir)
	secret := filepath.Join(secretDir, "store.db")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A descriptor the arena's own parent left open (as a shell or a CI
	// runner may) must not reach the agent.
	var stray [2]int
	if err := syscall.Pipe(stray[:]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(stray[1], 200); err != nil {
		t.Fatal(err)
	}
	syscall.Close(stray[0])
	syscall.Close(stray[1])
	defer syscall.Close(200)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "snoop", g, nil, prof, func(*host.Process) []string {
		return []string{"HOSTILE_SECRET_FILE=" + secret}
	})
	e := hg.rec.Stderr[0]
	if strings.Contains(e, "leaked-value-7f3a") {
		t.Errorf("the arena's environment leaked:\n%s", e)
	}
	// Exactly the minimal set, go-plugin's variables and the test's own.
	allowed := map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "LANG": true, "HOSTILE": true, "HOSTILE_SECRET_FILE": true, "ARENA_AGENT_PLUGIN": true, protocol.MoveFDEnv: true, sandbox.Env: true}
	if i := strings.Index(e, "attack: environment "); i >= 0 {
		line := e[i+len("attack: environment "):]
		line = line[:strings.IndexByte(line, '\n')]
		var vars []string
		if err := json.Unmarshal([]byte(line), &vars); err != nil {
			t.Fatalf("environment line %q: %v", line, err)
		}
		for _, v := range vars {
			name, _, _ := strings.Cut(v, "=")
			if !allowed[name] && !strings.HasPrefix(name, "PLUGIN_") {
				t.Errorf("the agent got %s", name)
			}
		}
	} else {
		t.Errorf("no environment report:\n%s", e)
	}
	for _, want := range []string{
		// Its sandbox's init became the agent: PID 1 is the agent
		// itself, and nothing else runs there.
		`proc pids [1]`,
		"read /root: open /root: no such file or directory",
		"read " + secret + ": open " + secret + ": no such file or directory",
		"write /tmp/hostile-was-here: open /tmp/hostile-was-here: read-only file system",
		// Its own /dev/shm (the host's is checked below).
		"write /dev/shm/hostile-was-here: <nil>",
		"scratch: <nil>",
		"network is unreachable",
		"loopback: <nil>",
		"nested user namespace: fork/exec /proc/self/exe: no space left on device",
	} {
		if !strings.Contains(e, want) {
			t.Errorf("stderr lacks %q:\n%s", want, e)
		}
	}
	if i := strings.Index(e, "proc pids ["); i >= 0 {
		list := e[i+len("proc pids [") : i+strings.IndexByte(e[i:], ']')]
		if n := len(strings.Fields(list)); n > 1 {
			t.Errorf("the agent sees %d processes (%s); it should see only itself", n, list)
		}
	}
	if i := strings.Index(e, "descriptors ["); i < 0 {
		t.Errorf("no descriptor report:\n%s", e)
	} else if list := e[i+len("descriptors [") : i+strings.IndexByte(e[i:], ']')]; slices.Contains(strings.Fields(list), "200") {
		t.Errorf("the agent inherited the arena's stray descriptor 200: [%s]", list)
	}
	for _, p := range []string{"/tmp/hostile-was-here", "/dev/shm/hostile-was-here"} {
		if _, err := os.Stat(p); err == nil {
			os.Remove(p)
			t.Errorf("the agent wrote %s", p)
		}
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// An agent that writes its private directory until it can write no more
// is stopped at the directory's size (host.DefaultPrivateDirMB), with "no
// space left on device", and the machine's disk never sees it: the
// directory is a tmpfs of the sandbox's own, not a folder of the host's.
// The attacker plays on; its opponent is unaffected.
func TestPrivateDirectoryIsBounded(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	hg := sandboxedAttack(t, "fill-dir")
	e := hg.rec.Stderr[0]
	i := strings.Index(e, "attack: filled ")
	if i < 0 {
		t.Fatalf("no fill report:\n%s", e)
	}
	var mib int
	line := e[i+len("attack: filled "):]
	line = line[:strings.IndexByte(line, '\n')]
	if _, err := fmt.Sscanf(line, "%d MiB", &mib); err != nil {
		t.Fatalf("fill report %q: %v", line, err)
	}
	if mib > host.DefaultPrivateDirMB || mib < host.DefaultPrivateDirMB/2 || !strings.Contains(line, "no space left on device") {
		t.Errorf("the agent wrote %q into its private directory, want at most %d MiB and stopped by no space left", line, host.DefaultPrivateDirMB)
	}
	for _, m := range hg.rec.Moves {
		if m.Seat == 0 && m.Source != record.SourceAgent {
			t.Errorf("the attacker's move at ply %d came from %s: the full directory cost it its moves", m.Ply, m.Source)
		}
	}
}

// A sandboxed agent can dump no core: its core file limit is zero, soft
// and hard, so a crash writes nothing to the machine's disk, or to a
// core helper's, and the agent cannot raise the limit. Its open files are
// bounded too (sandbox.OpenFiles), whatever the machine allows.
func TestNoCoreDumps(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	e := sandboxedAttack(t, "core",
		"attack: core limit 0 0: <nil>", "attack: raise core limit: operation not permitted",
		"attack: raise open files limit: operation not permitted").rec.Stderr[0]
	// A Go program raises its own soft limit towards the hard one at
	// start; the hard one is the sandbox's.
	var soft, hard uint64
	if i := strings.Index(e, "attack: open files limit "); i < 0 {
		t.Errorf("no open files report:\n%s", e)
	} else if _, err := fmt.Sscanf(e[i:], "attack: open files limit %d %d", &soft, &hard); err != nil || hard != sandbox.OpenFiles || soft > hard {
		t.Errorf("open files limit %d %d (%v), want at most %d", soft, hard, err, sandbox.OpenFiles)
	}
}

// sandboxedAttack plays attack in a sandbox (skipping where there is
// none) against an honest agent, checks that the attacker's stderr holds
// every line of want and that the attack cost its opponent nothing and
// left no process behind, and returns the game.
func sandboxedAttack(t *testing.T, attack string, want ...string) hostileGame {
	t.Helper()
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, attack, g, nil, prof, nil)
	e := hg.rec.Stderr[0]
	for _, w := range want {
		if !strings.Contains(e, w) {
			t.Errorf("stderr lacks %q:\n%s", w, e)
		}
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
	return hg
}

// A sandboxed agent can make no System V shared memory segment, message
// queue or semaphore set: memory held there would be in no process's
// resident size. (A set of one semaphore is refused as too large for
// the namespace's limit of none.)
func TestNoSysVIPC(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	if err := launcher().Support().SysVIPC; err != nil {
		t.Skipf("this kernel keeps a namespace's System V limits: %v", err)
	}
	sandboxedAttack(t, "sysv", "attack: shmget 1 GiB: no space left on device", "attack: msgget: no space left on device", "attack: semget: invalid argument")
}

// A sandboxed agent's calls to kernel interfaces no course runtime uses,
// and the way in of many kernel exploits, are refused with EPERM, as is
// every call through the x32 ABI and a vsock socket (which no network
// namespace confines) or a kernel crypto socket; other sockets are not.
func TestRefusedKernelCalls(t *testing.T) {
	t.Parallel()                                   // its own agents; mostly waiting on them
	want := []string{"attack: unix socket: <nil>"} // other sockets are not refused
	for _, call := range []string{"io_uring_setup", "keyctl", "userfaultfd", "perf_event_open", "bpf", "x32 getpid", "vsock socket", "alg socket"} {
		want = append(want, "attack: "+call+": operation not permitted")
	}
	sandboxedAttack(t, "syscalls", want...)
}

// A flood of stderr (written as fast as the agent can, from its first
// move to the end) costs the flooder only: the arena reads it at its
// bounded rate, the flooder's writes wait, its moves are answered as
// usual, the opponent plays untouched, and the record keeps a bounded
// tail with a note of what was dropped.
func TestHostileFloodsStderr(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	start := time.Now()
	hg := playHostile(t, "flood-stderr", g, nil, prof, nil)
	elapsed := time.Since(start)
	if n := len(hg.rec.Stderr[0]); n > 16<<10 || !strings.Contains(hg.rec.Stderr[0], "earlier bytes dropped") {
		t.Errorf("stderr kept: %d bytes", n)
	}
	if len(hg.events(0)) != 0 {
		t.Errorf("verdict: a normal game, got %+v", hg.events(0))
	}
	// What the arena read is bounded by the burst and the rate over the
	// game's whole wall time (plus the pipe's and the channel's buffers),
	// however fast the agent wrote: an upper bound, so load cannot break it.
	bound := int64(1<<20) + int64(elapsed.Seconds()*host.DefaultStderrRate) + 4<<20
	if read := hg.att.proc.StderrRead(); read > bound {
		t.Errorf("the arena read %d bytes of stderr in %v, over %d", read, elapsed, bound)
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// Closing stdin and stdout after the handshake changes nothing.
func TestHostileClosesStdio(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "close-stdio", g, nil, prof, nil)
	if len(hg.events(0)) != 0 || hg.rec.Result.Forfeit != "" {
		t.Errorf("verdict: a normal game, got %+v %+v", hg.events(0), hg.rec.Result)
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// An agent that exits 0 mid-game is dead: under comp424-2017 its turns
// are random moves from then on.
func TestHostileExitsMidGame(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	hg := playHostile(t, "exit0", g, nil, prof, nil)
	ev := hg.events(0)
	if len(ev) != 1 || ev[0].Kind != string(engine.FailDead) || ev[0].Penalty != string(engine.RandomMove) {
		t.Errorf("verdict: one death, then random moves; got %+v", ev)
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// An agent allocating until killed is stopped at the memory limit.
func TestHostileAllocatesUntilKilled(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	g, prof := bohnenspielGame(t)
	prof.MemoryMB = 128
	hg := playHostile(t, "alloc", g, nil, prof, nil)
	ev := hg.events(0)
	if len(ev) == 0 || ev[0].Kind != string(engine.FailMemory) {
		t.Errorf("verdict: a memory breach, got %+v", ev)
	}
	checkOpponent(t, hg)
	checkGone(t, hg)
}

// An agent file that the sandbox's unprivileged id cannot read is refused
// before the game with an error naming it.
func TestUnreadableAgentFile(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	bin := filepath.Join(t.TempDir(), "private-agent")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := launcher().Launch(context.Background(), bin, host.Options{})
	if err == nil || !strings.Contains(err.Error(), bin) || !strings.Contains(err.Error(), "0700") {
		t.Fatalf("error %v", err)
	}
}

// Agents that never complete the handshake (a flood of stdout before it,
// or a program that ignores the protocol) fail to start, and leave
// nothing behind.
func TestHostileNeverHandshakes(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	for _, attack := range []string{"flood-stdout", "raw"} {
		t.Run(attack, func(t *testing.T) {
			g, prof := bohnenspielGame(t)
			prof.StartupTimeout = 20 * time.Second
			hg := playHostile(t, attack, g, nil, prof, nil)
			ev := hg.events(0)
			if len(ev) == 0 || !strings.Contains(ev[0].Detail, "failed to start") {
				t.Errorf("verdict: the attacker failed to start, got %+v", ev)
			}
			for _, m := range hg.rec.Moves {
				if m.Seat == 0 && m.Source == record.SourceAgent {
					t.Errorf("the attacker moved at ply %d", m.Ply)
				}
			}
			checkOpponent(t, hg)
			checkGone(t, hg)
		})
	}
}

// An agent that ended by itself (its sandbox gone with it) reads as gone:
// its CPU reading is an error, not a zero, until the arena kills it.
func TestReadingsOfAnAgentThatExited(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	l := launcher()
	l.Env = []string{"HOSTILE=exit0"}
	p, err := l.Launch(context.Background(), hostileAgent(t), host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	g, _ := bohnenspielGame(t)
	if err := p.Agent.Start(context.Background(), protocol.StartInfo{Game: g.Info().Name}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CPUTime(); err != nil {
		t.Fatalf("CPU of a live agent: %v", err)
	}
	// The third move exits.
	for ply := range 3 {
		p.Agent.Move(context.Background(), protocol.MoveRequest{Ply: ply, TimeLeft: time.Minute})
	}
	deadline := time.Now().Add(30 * time.Second)
	for !p.Exited() {
		if time.Now().After(deadline) {
			t.Fatal("the agent did not exit on its third move")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if cpu, err := p.CPUTime(); err == nil {
		t.Errorf("CPU of an agent whose sandbox ended: %v and no error", cpu)
	}
}
