// Command coursecompare plays course-shaped agents under the arena and under
// their course's own framework on the same machine, with the same limits,
// and prints, side by side, what each judged: moves, replies past the limit
// (a random move played instead), memory failures and games lost on time,
// per 1,000 moves with 95% intervals.
//
//	go run ./bench/coursecompare -pentago ~/src/pentago_twist -cachex ~/src/skeleton-code-B -games 6
//
// -pentago is a checkout of the COMP424 2021 Pentago-Twist repository (the
// course's framework: boardgame.Server and boardgame.Client); it is not
// part of this project and is never modified: it is copied to a temporary
// folder with the bench's own agents (agents/pentago/student_player) put
// in its student_player package. Each agent plays builtin:random in the
// arena and the course's RandomPentagoPlayer in the framework; the two are
// interleaved game by game, alternating who moves first, so both see the
// same machine. The course side runs the framework as its launcher did:
// java -Xms520m -Xmx520m boardgame.Client CLASS, the server with -t 2000
// -ft 30000.
//
// -cachex is a folder holding the COMP30024 2022 referee package
// (referee/, version 2022.0.1, from the course's skeleton code). The
// bench's numpy packages (agents/cachex) are played by that referee as
// the course ran it (python -m referee -t 60 -s 100 9 RED BLUE, both
// players in its process, memory measured as VmPeak above the size after
// imports, shared 2 x 100 MB) against a random package, and in the arena
// against builtin:random.
//
// -hex is a checkout of the NYCU 2023 hex cross-out repository: its TA
// server (Server Source Code/AI_game.py, 6 s receive timeout, a random
// move for a silent player) starts the bench's script (agents/hex/guarded:
// Monte Carlo, stops at 4.5 s by its own clock) and a random script, on a
// generated board of 30 free cells; the arena plays the same script
// through course:SCRIPT against builtin:random on the same boards. The
// server is written for Windows with a display: the bench gives it a
// taskkill that does nothing and a tkinter whose window ends it after the
// game, and starts each script through a launcher, as the course started
// a student's program.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

//go:embed all:agents
var agentFiles embed.FS

func main() {
	var o options
	flag.StringVar(&o.pentago, "pentago", "", "checkout of the course's Pentago-Twist repository (SaminYeasar/pentago_twist)")
	flag.StringVar(&o.cachex, "cachex", "", "folder holding the COMP30024 2022 course referee package (referee/, version 2022.0.1)")
	flag.StringVar(&o.hex, "hex", "", "checkout of the NYCU 2023 hex cross-out repository (minson18/AI-Capstone-Prog2: its TA server and client library)")
	flag.IntVar(&o.games, "games", 4, "games per agent on each side")
	flag.StringVar(&o.only, "agents", "", "agents to play, comma-separated (default: all of the games given)")
	flag.StringVar(&o.arena, "arena", "", "arena binary (default: built from ./cmd/arena)")
	flag.StringVar(&o.python, "python", "python3", "Python interpreter with numpy, for both sides of the Cachex and hex cross-out games")
	flag.BoolVar(&o.keep, "keep", false, "keep the work folder (logs, records) and print its path")
	flag.Parse()
	if o.pentago == "" && o.cachex == "" && o.hex == "" || o.games < 1 {
		fmt.Fprintln(os.Stderr, "coursecompare: give one or more of -pentago PATH, -cachex PATH and -hex PATH (the courses' frameworks), and -games of at least 1")
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "coursecompare:", err)
		os.Exit(1)
	}
}

type options struct {
	pentago, cachex, hex, only, arena, python string
	games                                     int
	keep                                      bool
}

// side plays one game of an agent on one side: first says whether the
// agent moves first.
type side func(ctx context.Context, agent string, first bool, n int) (tally, error)

// contest is one agent of the bench played on both sides.
type contest struct {
	agent         string
	course, arena side
}

func run(ctx context.Context, o options) error {
	work, err := os.MkdirTemp("", "arena-coursecompare-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Println("work folder:", work)
	} else {
		defer os.RemoveAll(work)
	}
	if o.arena == "" {
		o.arena = filepath.Join(work, "arena")
		fmt.Println("building the arena…")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", o.arena, "./cmd/arena").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/arena: %v\n%s", err, out)
		}
	}
	ar := &arenaSide{bin: o.arena, python: o.python, records: filepath.Join(work, "records"), cache: filepath.Join(work, "cache")}
	if err := os.MkdirAll(ar.records, 0o755); err != nil {
		return err
	}
	var contests []contest
	if o.pentago != "" {
		c, err := pentagoContests(ctx, o, work, ar)
		if err != nil {
			return err
		}
		contests = append(contests, c...)
	}
	if o.cachex != "" {
		c, err := cachexContests(o, work, ar)
		if err != nil {
			return err
		}
		contests = append(contests, c...)
	}
	if o.hex != "" {
		c, err := hexContests(o, work, ar)
		if err != nil {
			return err
		}
		contests = append(contests, c...)
	}
	var rows []row
	for _, c := range contests {
		if o.only != "" && !slices.Contains(strings.Split(o.only, ","), c.agent) {
			continue
		}
		r, err := play(ctx, c, o.games)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	fmt.Println()
	printTable(os.Stdout, rows)
	return nil
}

// play interleaves the two sides game by game, alternating who moves
// first, so that both see the same machine.
func play(ctx context.Context, c contest, games int) (row, error) {
	r := row{agent: c.agent}
	for g := 0; g < games; g++ {
		first := g%2 == 0
		ct, err := c.course(ctx, c.agent, first, g)
		if err != nil {
			return r, fmt.Errorf("%s, course game %d: %w", c.agent, g+1, err)
		}
		r.course.add(ct)
		at, err := c.arena(ctx, c.agent, first, g)
		if err != nil {
			return r, fmt.Errorf("%s, arena game %d: %w", c.agent, g+1, err)
		}
		r.arena.add(at)
		fmt.Printf("%s game %d/%d (load %s): course %s | arena %s\n", c.agent, g+1, games, loadAverage(), ct, at)
	}
	return r, nil
}

func pentagoContests(ctx context.Context, o options, work string, ar *arenaSide) ([]contest, error) {
	repo := filepath.Join(work, "pentago")
	if _, err := os.Stat(filepath.Join(o.pentago, "src", "boardgame", "Server.java")); err != nil {
		return nil, fmt.Errorf("%s is not the course's Pentago-Twist repository (no src/boardgame/Server.java)", o.pentago)
	}
	// The framework is compiled from src/ on both sides; the bench's
	// agents go into its student_player package.
	if err := copyTree(o.pentago, repo, []string{".git", "bin"}); err != nil {
		return nil, err
	}
	if err := writeEmbedded("agents/pentago", filepath.Join(repo, "src")); err != nil {
		return nil, err
	}
	course := &framework{repo: repo, classes: filepath.Join(work, "classes"), logs: filepath.Join(work, "logs")}
	fmt.Println("compiling the course's framework and the agents (javac)…")
	if err := course.compile(ctx); err != nil {
		return nil, err
	}
	arena := func(ctx context.Context, class string, first bool, n int) (tally, error) {
		return ar.play(ctx, "pentago-twist", "course:"+repo+"?class=student_player."+class, nil, first, n)
	}
	var cs []contest
	for _, a := range []string{"HeapSearcher", "ThreadedSearcher", "HeapOverflow"} {
		cs = append(cs, contest{agent: a, course: course.play, arena: arena})
	}
	return cs, nil
}

func cachexContests(o options, work string, ar *arenaSide) ([]contest, error) {
	dir := filepath.Join(work, "cachex")
	if err := prepareCachex(o.cachex, dir); err != nil {
		return nil, err
	}
	ref := &cachexReferee{dir: dir, python: o.python, n: 9}
	course := func(ctx context.Context, pkg string, first bool, n int) (tally, error) {
		return ref.play(ctx, pkg, first)
	}
	arena := func(ctx context.Context, pkg string, first bool, n int) (tally, error) {
		path, class, _ := strings.Cut(pkg, ":")
		ref := "course:" + filepath.Join(dir, path)
		if class != "" {
			ref += "?class=" + class
		}
		return ar.play(ctx, "cachex", ref, []string{"n=9"}, first, n)
	}
	var cs []contest
	for _, a := range []string{"numpy_searcher", "numpy_searcher:Hog"} {
		cs = append(cs, contest{agent: a, course: course, arena: arena})
	}
	return cs, nil
}

// copyTree copies the regular files under from to to, leaving out the
// top-level entries named in skip.
func copyTree(from, to string, skip []string) error {
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() && slices.Contains(skip, rel) {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return fmt.Errorf("copying %s: %w", from, err)
	}
	return nil
}

// writeEmbedded writes the embedded tree under root into to.
func writeEmbedded(root, to string) error {
	return fs.WalkDir(agentFiles, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(to, strings.TrimPrefix(strings.TrimPrefix(p, root), "/"))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := agentFiles.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

var errNoGame = errors.New("no game was played")
