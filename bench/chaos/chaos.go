// Command chaos plays a league through the cluster (an embedded JetStream
// server, a coordinator and three workers, all separate processes) while
// SIGKILLing the coordinator and the workers at random moments and
// restarting them, then checks that every scheduled game is stored exactly
// once, that no process is left, that the store passes PRAGMA
// integrity_check, and that the standings equal those of the same league
// played locally. It prints one line and exits non-zero on any loss.
//
//	go run ./bench/chaos -games 1000 -kills 10
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	_ "modernc.org/sqlite"

	"arena/agents"
	"arena/agents/builtin"
	"arena/agents/course"
	"arena/arena/cluster"
	"arena/arena/cluster/workerbook"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/referee"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/sdk"
)

// Roles of this binary's child processes.
const (
	roleAgent  = "__chaos_agent"
	roleWorker = "__chaos_worker"
	roleCoord  = "__chaos_coordinator"
)

// agents: a quarter of them hostile (crasher dies in every game).
var builtins = []string{"random", "greedy", "crasher", "random"}

func main() {
	if code, ok := Child(os.Args); ok {
		os.Exit(code)
	}
	games := flag.Int("games", 1000, "at least this many games (rounded up to whole pairings)")
	kills := flag.Int("kills", 10, "SIGKILLs of the coordinator, and of the workers, at least")
	stops := flag.Int("stops", 2, "SIGSTOPs of a worker past the ack wait (each continued after it)")
	dir := flag.String("dir", "", "work directory (default: a new temporary one, removed after a clean run)")
	scale := flag.Bool("scale", false, "instead: no kills, the league's wall time with 1, 2 and 3 workers (the scaling curve)")
	flag.Parse()
	if *scale {
		for n := 1; n <= 3; n++ {
			d, err := os.MkdirTemp("", "arena-scale-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			sum, err := Run(context.Background(), Options{Games: *games, Workers: n, Dir: d, NoLocal: true})
			os.RemoveAll(d)
			if err != nil {
				fmt.Fprintln(os.Stderr, "scale:", err)
				os.Exit(1)
			}
			fmt.Printf("scale: %d worker(s), %d games, wall %v, %.1f ms/game\n", n, sum.Games, sum.Wall.Round(100*time.Millisecond), float64(sum.Wall.Milliseconds())/float64(sum.Games))
		}
		return
	}
	work := *dir
	if work == "" {
		d, err := os.MkdirTemp("", "arena-chaos-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		work = d
	}
	sum, err := Run(context.Background(), Options{Games: *games, Kills: *kills, Stops: *stops, Dir: work, Log: os.Stderr})
	fmt.Println(sum)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(1)
	}
	if *dir == "" {
		os.RemoveAll(work)
	}
}

// Child runs this process as an agent, a worker or a coordinator when argv
// names a role; ok is false otherwise.
func Child(argv []string) (code int, ok bool) {
	if len(argv) < 2 {
		return 0, false
	}
	var err error
	switch argv[1] {
	case roleAgent:
		serveAgent(strings.TrimPrefix(argv[2], "builtin:"))
		return 0, true
	case roleWorker:
		err = runWorker(argv[2], argv[3], argv[4])
	case roleCoord:
		err = runCoordinator(argv[2], argv[3], argv[4])
	default:
		return 0, false
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, argv[1], err)
		return 1, true
	}
	return 0, true
}

// crasher plays randomly and exits in the middle of its third move.
type crasher struct {
	builtin.Random
	moves int
}

func (c *crasher) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if c.moves++; c.moves == 3 {
		os.Exit(3)
	}
	return c.Random.Move(ctx, t)
}

func serveAgent(name string) {
	if strings.HasPrefix(name, course.Prefix) {
		if err := agents.Serve(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return
	}
	if name == "crasher" {
		sdk.Serve(&crasher{})
		return
	}
	a, err := builtin.New(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sdk.Serve(a)
}

// launcher starts agents; javaCache is where its process compiles course
// Java agents.
func launcher(javaCache string) referee.Launcher {
	return referee.HostLauncher(&host.Launcher{Self: []string{os.Args[0], roleAgent}, Builtins: []string{"random", "greedy", "crasher"}, Isolation: host.IsolationOff,
		Prepare: prepareWith(javaCache)})
}

// ackWait is short so a killed worker's game is replayed soon. Each
// worker still answers the coordinator's speed challenge before its first
// game, at a tenth of the default workload: the run checks what is lost
// or doubled, not how fast the workers are, and the default's playouts
// (played by each worker, again by the coordinator to check the answer,
// and once for its own reference) were seconds of CPU in every run.
var config = cluster.Config{AckWait: 2 * time.Second, ChallengePlayouts: cluster.DefaultChallengePlayouts / 10}

func runWorker(token, name, slotDir string) error {
	ep, err := cluster.ParseToken(token)
	if err != nil {
		return err
	}
	mach, err := slots.Detect(2)
	if err != nil {
		return err
	}
	pool, err := slots.New(slotDir, mach)
	if err != nil {
		return err
	}
	// Its own agent cache: the course agents are fetched from the
	// coordinator, and the Java one compiled here once.
	cache := filepath.Join(filepath.Dir(slotDir), "cache-"+name)
	javaCache := filepath.Join(cache, "javac")
	w := &cluster.Worker{Endpoint: ep, Registry: all.Registry(), Launch: launcher(javaCache), Slots: pool, Concurrency: 1,
		CacheDir: cache, Prepare: checkWith(javaCache),
		Machine: cluster.ThisMachine(name, pool.Size()), Config: config}
	return w.Run(context.Background())
}

func load(file, out string) (*leaguefile.Spec, error) {
	return leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true, Sets: []string{"output=" + out}}, Cores: 2})
}

func runCoordinator(token, file, out string) error {
	ep, err := cluster.ParseToken(token)
	if err != nil {
		return err
	}
	s, err := load(file, out)
	if err != nil {
		return err
	}
	ctx := context.Background()
	book, err := workerbook.Open(ctx, out)
	if err != nil {
		return err
	}
	defer book.Close()
	cfg := config
	cfg.Book = book
	coord, err := cluster.Dial(ctx, ep, cfg)
	if err != nil {
		return err
	}
	defer coord.Close()
	return league.Run(ctx, s, league.RunOptions{Launch: launcher(filepath.Join(out, "javac")), Remote: coord})
}

// Options for Run.
type Options struct {
	Games, Kills int
	Dir          string
	Log          *os.File
	// Self is the binary to start children from (default os.Args[0]).
	Self string
	// Workers is the number of worker processes (default 3).
	Workers int
	// NoLocal skips the local replay of the league (timing runs).
	NoLocal bool
	// Stops is how many times a worker is SIGSTOPped past the ack wait.
	Stops int
	// NoJava leaves the Java course agent (and its league) out: its
	// compiles and JVMs double the time of a run of a few games.
	NoJava bool
	// NoPython leaves the Python course agent out: with it the
	// Dots-and-Boxes league has five entrants, not four, and a few games
	// asked for become twenty.
	NoPython bool
	// Gap is the longest wait before each disturbance (default 1.5 s);
	// each wait is drawn between a fifth of it and it. A short league
	// needs short gaps for every disturbance to land before it ends.
	Gap time.Duration
}

// Summary is the one line a run prints.
type Summary struct {
	Games, Scheduled, CoordKills, WorkerKills, Resumes, Lost, Duplicated, Orphans int
	Integrity                                                                     string
	Reproduced                                                                    bool
	// AnonymousRefused: a client without credentials was refused at connect.
	AnonymousRefused bool
	// Stops: workers SIGSTOPped past the ack wait, then continued.
	Stops int
	// CourseAgent: a course Python agent was among the entrants (in the
	// Dots-and-Boxes league); PythonSkipped says why not.
	CourseAgent   bool
	PythonSkipped string
	// JavaAgent: a COMP424 course Java agent was among the entrants (in
	// the Pentago-Twist league); JavaSkipped says why not.
	JavaAgent   bool
	JavaSkipped string
	// PythonGames and JavaGames: games stored with the course agents.
	PythonGames, JavaGames int
	// Compiles: workers whose cache holds the Java agent compiled (each
	// compiles it once, into its own cache).
	Compiles int
	// VerdictsDiffer: games whose verdict differs from the local run's.
	VerdictsDiffer int
	// AckedWithoutResult: a rogue worker acknowledged a job and published
	// nothing (the game must still be played once).
	AckedWithoutResult bool
	// Forged: a rogue worker published a forged record under a valid
	// lease; ForgedStored counts games stored as that rogue's (must be 0).
	Forged       bool
	ForgedStored int
	Wall         time.Duration
}

func (s Summary) String() string {
	return fmt.Sprintf("chaos: games %d/%d, kills %d coordinator + %d worker, stops %d, resumes %d, lost %d, duplicated %d, orphans %d, integrity %s, standings reproduced %v, verdicts differing %d, "+
		"course Python agent %s, course Java agent %s, anonymous client refused %v, job acked without result %v, forged record published %v and stored %d, %v",
		s.Games, s.Scheduled, s.CoordKills, s.WorkerKills, s.Stops, s.Resumes, s.Lost, s.Duplicated, s.Orphans, s.Integrity, s.Reproduced, s.VerdictsDiffer,
		courseLine(s.CourseAgent, s.PythonSkipped, s.PythonGames, -1), courseLine(s.JavaAgent, s.JavaSkipped, s.JavaGames, s.Compiles),
		s.AnonymousRefused, s.AckedWithoutResult, s.Forged, s.ForgedStored, s.Wall.Round(time.Second))
}

// courseLine says whether a course agent was in, and what it played.
func courseLine(in bool, why string, games, compiles int) string {
	if !in {
		return "left out (" + why + ")"
	}
	if compiles < 0 {
		return fmt.Sprintf("in, %d games", games)
	}
	return fmt.Sprintf("in, %d games, compiled by %d worker(s)", games, compiles)
}

type proc struct {
	args []string
	cmd  *exec.Cmd
	done chan error
}

func (p *proc) start(self string, log *os.File) error {
	p.cmd = exec.Command(self, p.args...)
	p.cmd.Stderr = log
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.done = make(chan error, 1)
	go func(c *exec.Cmd, d chan error) { d <- c.Wait() }(p.cmd, p.done)
	return nil
}

func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Run plays the league under chaos and checks it.
func Run(ctx context.Context, o Options) (Summary, error) {
	var sum Summary
	start := time.Now()
	self := o.Self
	if self == "" {
		self = os.Args[0]
	}
	log := o.Log
	if log == nil {
		log, _ = os.Open(os.DevNull)
	}
	file, leagues, err := writeLeague(o.Dir, o.Games, !o.NoPython, !o.NoJava, &sum)
	if err != nil {
		return sum, err
	}
	out := filepath.Join(o.Dir, "cluster")
	srv, err := cluster.Serve("127.0.0.1:0", filepath.Join(o.Dir, "server"))
	if err != nil {
		return sum, err
	}
	defer srv.Close()

	// A client with neither TLS nor credentials must not get in.
	if nc, err := nats.Connect(srv.URL(), nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
	} else {
		sum.AnonymousRefused = true
	}
	coord, workers, err := procs(srv, o, file, out)
	if err != nil {
		return sum, err
	}
	// The local run needs only the league file: it plays beside the
	// cluster instead of after it, and is waited for before the orphans
	// are counted (its agents are this binary's too).
	local := startLocal(ctx, o, file)
	defer local.stop()
	all := append([]*proc{coord}, workers...)
	for _, p := range all {
		if err := p.start(self, log); err != nil {
			return sum, err
		}
	}
	defer func() {
		for _, p := range all {
			if p.cmd.ProcessState == nil {
				_ = p.cmd.Process.Signal(syscall.SIGKILL)
			}
		}
	}()
	rogueDone, err := startRogue(ctx, srv, &sum)
	if err != nil {
		return sum, err
	}
	if err := disturb(o, self, log, coord, workers, out, &sum); err != nil {
		return sum, err
	}
	for _, w := range workers {
		w.kill()
	}
	rogueDone()
	localErr := local.wait()
	time.Sleep(500 * time.Millisecond)
	sum.Orphans = orphans(self)

	sum.Compiles = compiled(o.Dir)
	if err := count(ctx, out, leagues, &sum); err != nil {
		return sum, err
	}
	sum.Integrity = integrity(filepath.Join(out, resultsdb.FileName))

	sum.Wall = time.Since(start)
	if o.NoLocal {
		if sum.Lost > 0 || sum.Games != sum.Scheduled {
			return sum, fmt.Errorf("%d game(s) lost", sum.Lost)
		}
		return sum, nil
	}
	if localErr != nil {
		return sum, localErr
	}
	return sum, reproduce(ctx, o.Dir, out, leagues, &sum)
}

// startRogue runs the rogue worker (valid credentials, cheating) beside
// the honest ones; the returned stop ends it and waits for it.
func startRogue(ctx context.Context, srv *cluster.Server, sum *Summary) (stop func(), err error) {
	ep, err := srv.Join("rogue")
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sum.AckedWithoutResult, sum.Forged, _ = cheat(rctx, ep)
	}()
	return func() { cancel(); <-done }, nil
}

// disturb kills the coordinator and workers at random moments, restarting
// them, and once (when Stops is set) stops a worker past the ack wait,
// until the league ends.
func disturb(o Options, self string, log *os.File, coord *proc, workers []*proc, out string, sum *Summary) error {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	deadline := time.Now().Add(30 * time.Minute)
	storedAtKill := 0
	gap := o.Gap
	if gap <= 0 {
		gap = 1500 * time.Millisecond
	}
	for {
		// Kill at a random moment, spread so both kinds reach their
		// count well before the league ends.
		wait := gap/5 + time.Duration(rng.Int64N(int64(gap*4/5)+1))
		select {
		case err := <-coord.done:
			if err != nil {
				return fmt.Errorf("coordinator failed: %v", err)
			}
			coord.done <- nil
			return nil
		case <-time.After(wait):
		}
		if time.Now().After(deadline) {
			return errors.New("league not finished within 30 minutes")
		}
		if sum.Stops < o.Stops {
			// Past the ack wait: its game goes to another worker, and
			// whatever it publishes on waking is fenced off.
			w := workers[rng.IntN(len(workers))]
			_ = w.cmd.Process.Signal(syscall.SIGSTOP)
			time.Sleep(config.AckWait + 1500*time.Millisecond)
			_ = w.cmd.Process.Signal(syscall.SIGCONT)
			sum.Stops++
			continue
		}
		if sum.CoordKills >= o.Kills && sum.WorkerKills >= o.Kills {
			continue
		}
		if sum.CoordKills < o.Kills && (sum.WorkerKills >= o.Kills || rng.IntN(2) == 0) {
			// Only once games were stored since the last kill: each
			// restart resumes a league with games to keep, however soon
			// the kills come.
			if stored(out) > storedAtKill {
				coord.kill()
				sum.CoordKills++
				sum.Resumes++
				storedAtKill = stored(out)
				if err := coord.start(self, log); err != nil {
					return err
				}
				continue
			}
			if sum.WorkerKills >= o.Kills {
				continue
			}
		}
		w := workers[rng.IntN(len(workers))]
		w.kill()
		sum.WorkerKills++
		if err := w.start(self, log); err != nil {
			return err
		}
	}
}

// localRun is the league played locally beside the cluster.
type localRun struct {
	cancel context.CancelFunc
	done   chan error
	err    error
	waited bool
}

// startLocal starts the local run, unless o.NoLocal.
func startLocal(ctx context.Context, o Options, file string) *localRun {
	lctx, cancel := context.WithCancel(ctx)
	l := &localRun{cancel: cancel, done: make(chan error, 1)}
	if o.NoLocal {
		l.done <- nil
		return l
	}
	go func() { l.done <- playLocal(lctx, o.Dir, file) }()
	return l
}

// wait waits for the local run's end and returns its error.
func (l *localRun) wait() error {
	if !l.waited {
		l.err, l.waited = <-l.done, true
	}
	return l.err
}

// stop cancels the local run (when a disturbance failed) and waits for it.
func (l *localRun) stop() {
	l.cancel()
	_ = l.wait()
}

// playLocal plays the league file in this process into dir/local, as a
// single machine would.
func playLocal(ctx context.Context, dir, file string) error {
	ls, err := load(file, filepath.Join(dir, "local"))
	if err != nil {
		return err
	}
	mach, _ := slots.Detect(2)
	pool, err := slots.New(filepath.Join(dir, "slots-local"), mach)
	if err != nil {
		return err
	}
	if err := league.Run(ctx, ls, league.RunOptions{Launch: launcher(filepath.Join(dir, "javac-local")), Slots: pool}); err != nil {
		return fmt.Errorf("local league: %w", err)
	}
	return nil
}

// reproduce compares the cluster's standings and verdicts with the local
// run's (in dir/local), and names every problem the run had.
func reproduce(ctx context.Context, dir, out string, leagues []string, sum *Summary) error {
	local := filepath.Join(dir, "local")
	a, err := table(ctx, out, leagues)
	b, err2 := table(ctx, local, leagues)
	if err != nil || err2 != nil {
		return errors.Join(err, err2)
	}
	sum.Reproduced = a == b
	va, err := verdicts(ctx, out, leagues)
	vb, err2 := verdicts(ctx, local, leagues)
	if err != nil || err2 != nil {
		return errors.Join(err, err2)
	}
	for id, v := range vb {
		if va[id] != v {
			sum.VerdictsDiffer++
		}
	}
	var problems []string
	if sum.Lost > 0 || sum.Duplicated > 0 || sum.Games != sum.Scheduled {
		problems = append(problems, fmt.Sprintf("%d lost, %d duplicated", sum.Lost, sum.Duplicated))
	}
	if sum.Orphans > 0 {
		problems = append(problems, fmt.Sprintf("%d process(es) left", sum.Orphans))
	}
	if sum.Integrity != "ok" {
		problems = append(problems, "integrity_check: "+sum.Integrity)
	}
	if !sum.AnonymousRefused {
		problems = append(problems, "a client without credentials connected")
	}
	if sum.ForgedStored > 0 {
		problems = append(problems, fmt.Sprintf("%d game(s) stored from the rogue worker", sum.ForgedStored))
	}
	if sum.VerdictsDiffer > 0 {
		problems = append(problems, fmt.Sprintf("%d verdict(s) differ from the local run's", sum.VerdictsDiffer))
	}
	if !sum.Reproduced {
		problems = append(problems, fmt.Sprintf("standings differ:\ncluster %s\nlocal   %s", a, b))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// procs are the coordinator's and the workers' processes, each worker
// with its own join token.
func procs(srv *cluster.Server, o Options, file, out string) (*proc, []*proc, error) {
	coord := &proc{args: []string{roleCoord, srv.Coordinator().Token(), file, out}}
	workers := make([]*proc, max(1, o.Workers))
	if o.Workers == 0 {
		workers = make([]*proc, 3)
	}
	for i := range workers {
		ep, err := srv.Join(fmt.Sprintf("w%d", i))
		if err != nil {
			return nil, nil, err
		}
		workers[i] = &proc{args: []string{roleWorker, ep.Token(), fmt.Sprintf("w%d", i), filepath.Join(o.Dir, fmt.Sprintf("slots%d", i))}}
	}
	return coord, workers, nil
}

// writeLeague writes the chaos league file into dir: Dots-and-Boxes
// between the built-in agents and, when /usr/bin/python3 exists (and
// withPython), a course Python bot; and, when Java can be compiled here
// (and withJava), Pentago-Twist between the greedy built-in and a COMP424
// course Java agent. The course agents' files are in dir, so workers fetch
// them from the coordinator. Each game is its own league of the file
// (their names are returned); at least games Dots-and-Boxes games are
// scheduled, in whole colour-swapped pairs.
func writeLeague(dir string, games int, withPython, withJava bool, sum *Summary) (file string, leagues []string, err error) {
	type entrant struct{ name, ref, game string }
	var entrants []entrant
	for i, b := range builtins {
		game := dotsGame
		if b == "greedy" {
			game = ""
		}
		entrants = append(entrants, entrant{fmt.Sprintf("%s%d", b, i), b, game})
	}
	py, why := "", "left out by the run's options"
	if withPython {
		if py, why, err = writePython(dir); err != nil {
			return "", nil, err
		}
	}
	if sum.CourseAgent, sum.PythonSkipped = py != "", why; py != "" {
		entrants = append(entrants, entrant{fmt.Sprintf("course%d", len(entrants)), py, dotsGame})
	}
	java, why := "", "left out by the run's options"
	if withJava {
		if java, why, err = writeJava(dir); err != nil {
			return "", nil, err
		}
	}
	leagues = []string{"chaos/" + dotsGame}
	if sum.JavaAgent, sum.JavaSkipped = java != "", why; java != "" {
		entrants = append(entrants, entrant{fmt.Sprintf("java%d", len(entrants)), java, pentagoGame})
		leagues = append(leagues, "chaos/"+pentagoGame)
	}
	dots := 0
	for _, e := range entrants {
		if e.game != pentagoGame {
			dots++
		}
	}
	pairings := dots * (dots - 1) / 2
	gpp := (games + pairings - 1) / pairings
	if gpp%2 == 1 {
		gpp++
	}
	file = filepath.Join(dir, "chaos.yaml")
	body := "name: chaos\nseed: 5\ngames_per_pairing: " + strconv.Itoa(gpp) + "\ngames:\n"
	for _, l := range leagues {
		body += "  - game: " + strings.TrimPrefix(l, "chaos/") + "\n"
	}
	if len(leagues) == 1 {
		// A file of one game names its league by the file's name alone.
		leagues[0] = "chaos"
	}
	body += "agents:\n"
	for _, e := range entrants {
		body += fmt.Sprintf("  - name: %s\n    agent: %q\n", e.name, e.ref)
		if e.game != "" {
			body += "    games: [" + e.game + "]\n"
		}
	}
	return file, leagues, os.WriteFile(file, []byte(body), 0o644)
}

const (
	dotsGame    = "dots-and-boxes"
	pentagoGame = "pentago-twist"
)

// count fills in the scheduled, stored, lost and duplicated games of the
// leagues, and the course agents' games.
func count(ctx context.Context, out string, leagues []string, sum *Summary) error {
	st, err := resultsdb.OpenDir(ctx, out)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, l := range leagues {
		games, err := st.Games(ctx, l)
		matches, merr := st.Matches(ctx, l)
		if err != nil || merr != nil {
			return errors.Join(err, merr)
		}
		sum.Scheduled += len(matches)
		seen := map[string]int{}
		for _, g := range games {
			seen[g.Match.ID]++
		}
		sum.Games += len(seen)
		for _, g := range games {
			if g.Record.Worker != nil && g.Record.Worker.Name == "rogue" {
				sum.ForgedStored++
			}
			for _, a := range g.Record.Agents {
				switch {
				case strings.HasPrefix(a.Name, "course"):
					sum.PythonGames++
				case strings.HasPrefix(a.Name, "java"):
					sum.JavaGames++
				}
			}
		}
		for _, m := range matches {
			switch n := seen[m.ID]; {
			case n == 0:
				sum.Lost++
			case n > 1:
				sum.Duplicated += n - 1
			}
		}
	}
	return nil
}

// verdicts is every stored game's verdict (seats, winner, scores, reason,
// forfeit, plies) by match id.
func verdicts(ctx context.Context, dir string, leagues []string) (map[string]string, error) {
	st, err := resultsdb.OpenDirReadOnly(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	v := map[string]string{}
	for _, l := range leagues {
		games, err := st.Games(ctx, l)
		if err != nil {
			return nil, err
		}
		for _, g := range games {
			r := g.Record
			v[g.Match.ID] = fmt.Sprintf("%s-%s %d %v %v %q %q %d", r.Agents[0].Name, r.Agents[1].Name, r.Result.Winner, r.Result.Draw, r.Result.Scores, r.Result.Reason, r.Result.Forfeit, len(r.Moves))
		}
	}
	return v, nil
}

// compiled counts the workers' Java caches that hold a compiled build.
func compiled(dir string) int {
	n := 0
	caches, _ := filepath.Glob(filepath.Join(dir, "cache-*", "javac"))
	for _, c := range caches {
		var found bool
		_ = filepath.WalkDir(c, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Base(p) == "StudentPlayer.class" {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
		if found {
			n++
		}
	}
	return n
}

// stored counts the games in the store, 0 when there is none yet.
func stored(out string) int {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(out, resultsdb.FileName)+"?mode=ro")
	if err != nil {
		return 0
	}
	defer db.Close()
	var n int
	_ = db.QueryRow(`SELECT count(*) FROM games`).Scan(&n)
	return n
}

func integrity(path string) string {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil {
		return err.Error()
	}
	return res
}

// table is the leagues' standings reduced to what must reproduce.
func table(ctx context.Context, dir string, leagues []string) (string, error) {
	st, err := resultsdb.OpenDirReadOnly(ctx, dir)
	if err != nil {
		return "", err
	}
	defer st.Close()
	var b strings.Builder
	for _, l := range leagues {
		rep, err := standings.Report(ctx, st, l)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s: ", l)
		for _, r := range rep.Rows {
			fmt.Fprintf(&b, "%s %d/%d/%d %g; ", r.Agent, r.W, r.D, r.L, r.Score)
		}
	}
	return b.String(), nil
}

// orphans counts live processes started from self other than this one,
// and kills them.
func orphans(self string) int {
	abs, _ := filepath.Abs(self)
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || (exe != abs && exe != self) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if !strings.Contains(string(cmdline), "__chaos_") {
			continue
		}
		n++
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return n
}
