// Command bench measures what the arena costs on top of the games, with
// each floor measured in the same run, and prints one table:
//
//	go run ./bench                 # everything, a few minutes on 2 cores
//	go run ./bench -quick          # fewer samples (a smoke run)
//
// Sections: the engines' random and listing playouts against plain
// reference implementations (bench/enginespeed); per-move overhead against a bare Unix-socket ping-pong and a
// bare gRPC call of the same payload; agent start against a bare fork/exec
// of the same binary; resident memory per agent kind against a minimal gRPC
// server; league throughput of instant agents against the same games in
// process; deadline precision of the referee. docs/performance.md has the
// results and how to read them.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/arena/slots"
	"arena/bench/internal/loadavg"
)

type options struct {
	moves       int           // per-move samples
	starts      int           // agent starts per kind
	games       int           // games per throughput cell
	deadline    int           // moves per deadline run at 95 % of the limit
	timeouts    int           // moves per deadline run of a never-answering agent
	limit       time.Duration // deadline runs' move limit
	cushion     time.Duration // deadline runs' cushion
	slots       int           // CPU slots of the deadline runs (a game holds two)
	only        string
	keep        bool
	quick       bool
	concurrency []int
}

func main() {
	var o options
	quick := flag.Bool("quick", false, "fewer samples everywhere (a smoke run, not for the docs)")
	flag.IntVar(&o.moves, "moves", 3000, "move requests per per-move measurement")
	flag.IntVar(&o.starts, "starts", 40, "agent starts per kind")
	flag.IntVar(&o.games, "games", 100, "games per throughput measurement")
	flag.IntVar(&o.deadline, "deadline-moves", 1000, "moves of the deadline run whose agent answers at 95% of the limit")
	// 300 timeouts suffice for the verdicts' p99: the largest of 300
	// samples exceeds the true p99 with 95 % confidence (0.99^300 < 0.05),
	// and each costs the limit, the cushion and a restart.
	flag.IntVar(&o.timeouts, "timeout-moves", 300, "moves of the deadline run whose agent never answers (the verdicts' p50 to max)")
	flag.DurationVar(&o.limit, "limit", 100*time.Millisecond, "move limit of the deadline-precision runs")
	flag.DurationVar(&o.cushion, "cushion", 50*time.Millisecond, "cushion of the deadline-precision runs")
	flag.IntVar(&o.slots, "slots", runtime.NumCPU(), "CPU slots of the deadline-precision runs (a game holds two, as in a league)")
	flag.StringVar(&o.only, "only", "", "comma-separated sections to run: "+strings.Join(sectionNames(), ",")+" (default all)")
	flag.BoolVar(&o.keep, "keep", false, "keep the built binaries' directory")
	flag.Parse()
	if err := checkOnly(o.only); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	o.quick = *quick
	if *quick {
		o.moves, o.starts, o.games, o.deadline, o.timeouts = 300, 5, 10, 60, 40
	}
	o.concurrency = []int{1, 2}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// section is one part of the bench's table.
type section struct {
	name string
	fn   func(context.Context, options, *bins, *table) error
}

// sections are the bench's sections, in the order they run.
func sections() []section {
	return []section{{"engine", benchEngine}, {"move", benchMove}, {"start", benchStart}, {"rss", benchRSS}, {"league", benchLeague}, {"deadline", benchDeadline}}
}

// sectionNames are the sections' names, in the order they run.
func sectionNames() []string {
	var names []string
	for _, s := range sections() {
		names = append(names, s.name)
	}
	return names
}

// checkOnly refuses an -only list naming a section there is not, which
// would otherwise build everything and measure nothing.
func checkOnly(only string) error {
	if only == "" {
		return nil
	}
	names := sectionNames()
	for _, s := range strings.Split(only, ",") {
		if !slices.Contains(names, s) {
			return fmt.Errorf("-only %s: no section %q; the sections are %s", only, s, strings.Join(names, ","))
		}
	}
	return nil
}

// bins are the programs under test, built for this run.
type bins struct {
	dir      string
	arena    string // the arena CLI, today's agent host for built-in and Lua agents
	lean     string // the lean agent host (cmd/arena-agent)
	init     string // the sandbox init alone (cmd/arena-init)
	timed    string // an SDK agent with controlled reply times
	raw      string // a protocol agent without the SDK
	mingrpc  string // plain gRPC floor
	pingpong string // bare socket floor, minimal Go program
	lua      string // a Lua agent script
	// enginespeed is bench/enginespeed, the engine section's measurement.
	enginespeed string
}

func build(ctx context.Context) (*bins, error) {
	dir, err := os.MkdirTemp("", "arena-bench-")
	if err != nil {
		return nil, err
	}
	b := &bins{dir: dir}
	targets := []struct {
		dst *string
		pkg string
	}{
		{&b.arena, "./cmd/arena"}, {&b.lean, "./cmd/arena-agent"}, {&b.init, "./cmd/arena-init"}, {&b.timed, "./bench/internal/timed"},
		{&b.mingrpc, "./bench/internal/mingrpc"}, {&b.pingpong, "./bench/internal/pingpong"},
		{&b.raw, "./bench/internal/rawagent"}, {&b.enginespeed, "./bench/enginespeed"},
	}
	// One go build for all: it compiles and links the programs in
	// parallel, where one build each ran the links one after another.
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, t := range targets {
		*t.dst = filepath.Join(dir, filepath.Base(t.pkg))
		args = append(args, t.pkg)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build of the bench's programs: %w", err)
	}
	b.lua = filepath.Join(dir, "first.lua")
	// The smallest Lua agent: the first legal move.
	script := "function choose_move(state, clock)\n  return state:legal_moves()[1]\nend\n"
	if err := os.WriteFile(b.lua, []byte(script), 0o644); err != nil {
		return nil, err
	}
	return b, nil
}

// table collects the rows printed at the end.
type table struct{ rows [][5]string }

func (t *table) add(section, what, value, floor, ratio string) {
	t.rows = append(t.rows, [5]string{section, what, value, floor, ratio})
	fmt.Fprintf(os.Stderr, "  %-10s %-52s %-26s %-30s %s\n", section, what, value, floor, ratio)
}

func (t *table) print() {
	head := [5]string{"section", "measure", "arena", "floor / baseline", "ratio"}
	w := [5]int{}
	for _, r := range append([][5]string{head}, t.rows...) {
		for i, c := range r {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	line := func(r [5]string) {
		var s strings.Builder
		s.WriteString("|")
		for i, c := range r {
			s.WriteString(" " + c + strings.Repeat(" ", w[i]-len([]rune(c))) + " |")
		}
		fmt.Println(s.String())
	}
	line(head)
	var sep [5]string
	for i := range sep {
		sep[i] = strings.Repeat("-", w[i])
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
}

func run(ctx context.Context, o options) error {
	began := time.Now()
	want := func(s string) bool {
		return o.only == "" || slices.Contains(strings.Split(o.only, ","), s)
	}
	startLoad := loadavg.Now()
	fmt.Fprintf(os.Stderr, "bench: building on %s/%s, %d CPUs, load %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), startLoad)
	// CPU slots are lock files shared by every arena process of the
	// machine: with the host-wide directory, the league rows would wait
	// for other arenas' games and measure them. The bench and every
	// arena it starts take their slots from a directory of their own.
	slotDir, err := slots.UseOwnDir("arena-bench-own-slots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(slotDir)
	var took timings
	t0 := time.Now()
	b, err := build(ctx)
	if err != nil {
		return err
	}
	took.add("build", time.Since(t0))
	if !o.keep {
		defer os.RemoveAll(b.dir)
	} else {
		fmt.Fprintln(os.Stderr, "bench: binaries in", b.dir)
	}
	t := &table{}
	for _, s := range sections() {
		if !want(s.name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s\n", s.name)
		t0 := time.Now()
		if err := s.fn(ctx, o, b, t); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		took.add(s.name, time.Since(t0))
		fmt.Fprintf(os.Stderr, "bench: %s took %v (load %s)\n", s.name, time.Since(t0).Round(100*time.Millisecond), loadavg.Now())
	}
	endLoad := loadavg.Now()
	fmt.Printf("arena bench: %s/%s, %d CPUs, load average %s at the start, %s at the end, %s, CPU slots in %s (this run's own)\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), startLoad, endLoad, time.Since(began).Round(time.Second), slotDir)
	fmt.Println("wall time by section:", took.String())
	if w := busyWarning(startLoad, endLoad, runtime.NumCPU()); w != "" {
		fmt.Println(w)
	}
	fmt.Println()
	t.print()
	return nil
}

// timings are the wall times of the run's parts, in the order they ran:
// where a run's minutes go.
type timings []struct {
	name string
	d    time.Duration
}

func (t *timings) add(name string, d time.Duration) {
	*t = append(*t, struct {
		name string
		d    time.Duration
	}{name, d})
}

// String lists each part with its seconds, e.g. "build 12s, engine 21s".
func (t timings) String() string {
	parts := make([]string, len(t))
	for i, p := range t {
		parts[i] = fmt.Sprintf("%s %v", p.name, p.d.Round(time.Second))
	}
	return strings.Join(parts, ", ")
}

// busyWarning says when the 1-minute load average at the start or the
// end exceeded the CPUs: then other programs ran beside the bench, and
// wall-clock rows (starts, moves, leagues) measure them too. Empty when
// the machine looked idle enough, or the load could not be read.
func busyWarning(start, end string, cpus int) string {
	busy := false
	for _, l := range []string{start, end} {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > float64(cpus) {
			busy = true
		}
	}
	if !busy {
		return ""
	}
	return fmt.Sprintf("MACHINE BUSY: the 1-minute load average exceeded the %d CPUs at the start or the end; wall-clock rows include other programs' work (the engine rows count CPU time and compare within the run)", cpus)
}

// quantile of sorted durations (nearest rank).
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1e3) }
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Nanoseconds())/1e6) }
func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}
