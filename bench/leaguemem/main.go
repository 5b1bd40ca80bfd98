// Command leaguemem measures the arena's memory over leagues of instant
// games: for each size it runs a round-robin league of built-in random
// agents called in process (so the process's memory is the arena's: the
// runner, the store, the journal, the standings), then prints the peak
// resident memory (VmHWM), the resident memory at the end after a
// collection (VmRSS), the heap in use and the games per second:
//
//	go run ./bench/leaguemem -games 1000,10000,100000
//
// Each size runs in a child process of its own, so one size's peak is not
// another's. docs/performance.md has the results.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"arena/agents/builtin/inproc"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/results/resultsdb"
	"arena/arena/slots"
	"arena/games/all"
)

// entrants is the league's agents: 10 pairings, so every size in
// thousands is a whole even number of games per pairing.
const entrants = 5

// measure is one league's result, passed from child to parent as JSON.
type measure struct {
	Games     int     `json:"games"`
	Seconds   float64 `json:"seconds"`
	PeakKiB   int     `json:"peak_kib"`
	EndKiB    int     `json:"end_kib"`
	HeapInuse uint64  `json:"heap_inuse"`
}

func main() {
	sizes := flag.String("games", "1000,10000,100000", "comma-separated league sizes in games (multiples of 20)")
	game := flag.String("game", "dots-and-boxes", "game of the leagues")
	one := flag.Int("one", 0, "run one league of this many games and print its measure as JSON (the child's mode)")
	flag.Parse()
	ctx := context.Background()
	if *one > 0 {
		m, err := runOne(ctx, *game, *one)
		if err != nil {
			fmt.Fprintln(os.Stderr, "leaguemem:", err)
			os.Exit(1)
		}
		_ = json.NewEncoder(os.Stdout).Encode(m)
		return
	}
	if err := runAll(ctx, *game, *sizes, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "leaguemem:", err)
		os.Exit(1)
	}
}

// runAll runs each size in a child and prints the table.
func runAll(ctx context.Context, game, sizes string, w io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var rows []measure
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || n%(2*entrants*(entrants-1)) != 0 {
			return fmt.Errorf("-games %q: want positive multiples of %d", f, 2*entrants*(entrants-1))
		}
		fmt.Fprintf(os.Stderr, "league of %d games...\n", n)
		cmd := exec.CommandContext(ctx, self, "-one", strconv.Itoa(n), "-game", game)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("league of %d games: %w", n, err)
		}
		var m measure
		if err := json.Unmarshal(out, &m); err != nil {
			return fmt.Errorf("league of %d games: %w", n, err)
		}
		rows = append(rows, m)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "games\tgames/s\tpeak RSS MiB\tend RSS MiB\theap in use MiB\tend RSS / first\t\n")
	for _, m := range rows {
		fmt.Fprintf(tw, "%d\t%.0f\t%.1f\t%.1f\t%.1f\t%.2f\t\n", m.Games, float64(m.Games)/m.Seconds,
			float64(m.PeakKiB)/1024, float64(m.EndKiB)/1024, float64(m.HeapInuse)/(1<<20), float64(m.EndKiB)/float64(rows[0].EndKiB))
	}
	return tw.Flush()
}

// runOne plays a league of n games of game in a temporary directory,
// reports its standings as `league run` does at the end, and measures.
func runOne(ctx context.Context, game string, n int) (measure, error) {
	dir, err := os.MkdirTemp("", "arena-leaguemem-")
	if err != nil {
		return measure{}, err
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	fmt.Fprintf(&b, "name: mem\ngame: %s\nformat: round-robin\ngames_per_pairing: %d\nseed: 1\noutput: %s\nagents:\n",
		game, n/(entrants*(entrants-1)/2), filepath.Join(dir, "out"))
	for i := range entrants {
		fmt.Fprintf(&b, "  - name: r%d\n    agent: builtin:random\n", i)
	}
	file := filepath.Join(dir, "mem.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return measure{}, err
	}
	spec, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}})
	if err != nil {
		return measure{}, err
	}
	// A pool of the bench's own, so the games do not wait on other
	// programs' CPU slots.
	pool, err := slots.New(filepath.Join(dir, "slots"), spec.Machine)
	if err != nil {
		return measure{}, err
	}
	start := time.Now()
	if err := league.Run(ctx, spec, league.RunOptions{Launch: inproc.Launch, Slots: pool, Warn: func(string) {}}); err != nil {
		return measure{}, err
	}
	st, err := resultsdb.OpenDirReadOnly(ctx, spec.Output)
	if err != nil {
		return measure{}, err
	}
	s, err := standings.Report(ctx, st, spec.Leagues[0].Name)
	st.Close()
	if err != nil {
		return measure{}, err
	}
	if s.Played != n {
		return measure{}, fmt.Errorf("league stored %d games, want %d", s.Played, n)
	}
	secs := time.Since(start).Seconds()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	peak, end, err := residentKiB()
	if err != nil {
		return measure{}, err
	}
	return measure{Games: n, Seconds: secs, PeakKiB: peak, EndKiB: end, HeapInuse: ms.HeapInuse}, nil
}

// residentKiB reads this process's peak and current resident memory.
func residentKiB() (peak, now int, err error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kib, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "VmHWM":
			peak = kib
		case "VmRSS":
			now = kib
		}
	}
	if peak == 0 || now == 0 {
		return 0, 0, fmt.Errorf("/proc/self/status: no VmHWM or VmRSS")
	}
	return peak, now, sc.Err()
}
