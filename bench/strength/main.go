// Command strength plays the house-bot ladder through the real referee,
// with every agent in its own subprocess under the course profile's real
// limits, and writes docs/strength.md.
//
//	go run ./bench/strength                         # the full ladder
//	go run ./bench/strength -games 10 -only bohnenspiel,hex-crossout
//
// For every game it plays strong vs random, strong vs baseline and
// baseline vs random, alternating who moves first, and reports each
// pairing's points share with a 95% interval, the slowest reply seen and
// every time penalty (there should be none).
//
//	go run ./bench/strength -examples -games 100
//
// plays each game's Lua example (agents/lua/examples) against random
// instead, and prints each win rate beside its target (examplesTarget):
// how strong the examples are is measured here, not in the tests.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"arena/agents"
	"arena/agents/builtin"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/bench/internal/loadavg"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

type pairing struct{ a, b string }

type tally struct {
	games            int
	points           float64 // for a
	wins, draws, los int
	timeFaults       []string
	slowest          [2]float64 // ms, for a and b
	timeouts         int
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == agents.HostArg {
		// This binary is also the agent host for its games.
		if err := agents.Serve(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "strength: agent host:", err)
			os.Exit(1)
		}
		return
	}
	games := flag.Int("games", 20, "games per pairing (an even number alternates who moves first fairly)")
	only := flag.String("only", "", "comma-separated games to play (default: all five)")
	pairs := flag.String("pairs", "strong:random,strong:baseline,baseline:random", "pairings A:B to play")
	parallel := flag.Int("parallel", 1, "games at once (each game runs two agent processes; wall-clock limits suffer on a busy machine)")
	out := flag.String("out", "docs/strength.md", "the report to write")
	seed := flag.Uint64("seed", 1, "base seed of the games")
	records := flag.String("records", "", "also append every game record (JSON lines) to this file")
	examples := flag.Bool("examples", false, "play each game's Lua example against random (target: "+fmt.Sprint(examplesTarget*100)+"% of the points) instead of the ladder; writes -out only when it is given")
	flag.Parse()
	if *examples {
		outGiven := false
		flag.Visit(func(f *flag.Flag) { outGiven = outGiven || f.Name == "out" })
		if !outGiven {
			*out = ""
		}
	}
	var recw *os.File
	if *records != "" {
		f, err := os.OpenFile(*records, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fatal(err)
		}
		defer f.Close()
		recw = f
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	launcher := &host.Launcher{Self: []string{self, agents.HostArg}, Builtins: builtin.Names(), StderrBytes: 8192}
	ref := &referee.Referee{Launch: referee.HostLauncher(launcher)}

	gameNames, ladder := gamesAndLadder(*only, *pairs)

	start := time.Now()
	loadStart := loadavg.Now()
	var report strings.Builder
	writeHeader(&report, start)
	for _, name := range gameNames {
		g, err := all.Registry().Lookup(name)
		if err != nil {
			fatal(err)
		}
		pl := ladder
		if *examples {
			pl = []pairing{examplePairing(name)}
		}
		for _, p := range pl {
			t := play(ctx, ref, g, p, *games, *parallel, *seed, recw)
			if ctx.Err() != nil {
				fatal(ctx.Err())
			}
			line := row(name, p, t)
			report.WriteString(line)
			fmt.Fprint(os.Stderr, line)
			if *examples {
				fmt.Fprintf(os.Stderr, "  %s the target of %.0f%% of the points against random\n", targetVerdict(t), examplesTarget*100)
			}
			for _, f := range t.timeFaults {
				fmt.Fprintf(os.Stderr, "  time fault: %s\n", f)
			}
		}
	}
	fmt.Fprintf(&report, "\nLoad average (1, 5, 15 min) at the start: %s; at the end: %s. Wall-clock limits are judged on this\n"+
		"machine as it was, other jobs included; a late reply inside a cushion is a substitute move, not a loss.\n", loadStart, loadavg.Now())
	if *out == "" {
		return
	}
	text := strings.Replace(report.String(), "DURATION", time.Since(start).Round(time.Second).String(), 1)
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fatal(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", *out)
}

// gamesAndLadder reads -only (default: every game) and -pairs.
func gamesAndLadder(only, pairs string) ([]string, []pairing) {
	var gameNames []string
	if only != "" {
		gameNames = strings.Split(only, ",")
	} else {
		for _, g := range all.Registry().Games() {
			gameNames = append(gameNames, g.Info().Name)
		}
	}
	var ladder []pairing
	for _, p := range strings.Split(pairs, ",") {
		a, b, ok := strings.Cut(p, ":")
		if !ok {
			fatal(fmt.Errorf("-pairs %q: want A:B", p))
		}
		ladder = append(ladder, pairing{a, b})
	}
	return gameNames, ladder
}

// writeHeader writes the report's title, how it was made and what its
// columns mean.
func writeHeader(w *strings.Builder, start time.Time) {
	fmt.Fprintf(w, "# House-bot strength\n\n")
	fmt.Fprintf(w, "Made by `go run ./bench/strength %s` on %s (%d CPUs, GOMAXPROCS %d), %s, in %s.\n\n",
		strings.Join(os.Args[1:], " "), runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0),
		start.UTC().Format("2006-01-02"), "DURATION")
	fmt.Fprintf(w, "Every game runs through the referee with both agents as subprocesses, under the game's course profile with its\n"+
		"real limits (`arena games --verbose`); who moves first alternates. Points: win 1, draw ½. The interval is a 95%%\n"+
		"Wilson interval on the points share. \"Slowest\" is the longest reply the referee measured for each side (wall clock;\n"+
		"Cachex is limited by CPU time over the whole game). \"Time faults\" counts timeouts and late replies: there must be none.\n\n")
	fmt.Fprintf(w, "| game | A | B | games | A's W-D-L | A's points | 95%% interval | slowest A / B (ms) | time faults |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|\n")
}

// row is one pairing's line of the report's table.
func row(game string, p pairing, t tally) string {
	lo, hi := wilson(t.points, t.games)
	return fmt.Sprintf("| %s | %s | %s | %d | %d-%d-%d | %.1f%% | %.1f–%.1f%% | %.0f / %.0f | %d |\n",
		game, p.a, p.b, t.games, t.wins, t.draws, t.los, 100*t.points/float64(t.games), 100*lo, 100*hi,
		t.slowest[0], t.slowest[1], t.timeouts)
}

// targetVerdict says whether a Lua example took its target share of the
// points.
func targetVerdict(t tally) string {
	if t.games == 0 || t.points/float64(t.games) < examplesTarget {
		return "MISSES"
	}
	return "meets"
}

func play(ctx context.Context, ref *referee.Referee, g engine.Game, p pairing, n, parallel int, seed uint64, recw *os.File) tally {
	var mu sync.Mutex
	var t tally
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, err := ref.Play(ctx, match(g, p, i, seed))
				mu.Lock()
				if err != nil {
					if ctx.Err() == nil {
						t.timeFaults = append(t.timeFaults, fmt.Sprintf("game %d not played: %v", i, err))
					}
					mu.Unlock()
					continue
				}
				add(&t, rec, i%2 == 1)
				if recw != nil {
					if line, err := rec.MarshalLine(); err == nil {
						_, _ = recw.Write(line)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return t
}

func match(g engine.Game, p pairing, i int, seed uint64) referee.Match {
	params := engine.Params{}
	if g.Info().Name == "hex-crossout" {
		// A different board every game, like the course's random boards.
		params["free"] = fmt.Sprint(12 + (i/2)%22)
		params["seed"] = fmt.Sprint(seed*1000 + uint64(i/2))
	}
	prof, err := g.Profile(params)
	if err != nil {
		fatal(err)
	}
	players := [2]referee.Player{{Name: "A:" + p.a, Ref: agentRef(p.a)}, {Name: "B:" + p.b, Ref: agentRef(p.b)}}
	if i%2 == 1 {
		players[0], players[1] = players[1], players[0]
	}
	return referee.Match{
		ID:      fmt.Sprintf("strength-%s-%s-%s-%d", g.Info().Name, p.a, p.b, i),
		Game:    g,
		Params:  params,
		Profile: prof,
		Players: players,
		Seed:    seed*1_000_003 + uint64(i),
	}
}

// examplesTarget is the share of the points each Lua example is meant to
// take from random.
const examplesTarget = 0.9

// examplePairing pairs a game's Lua example with random.
func examplePairing(game string) pairing {
	return pairing{"lua:agents/lua/examples/" + game + ".lua", "random"}
}

// agentRef is a pairing name as an agent reference: house bots are named
// bare, anything else (lua:PATH) as it is.
func agentRef(name string) string {
	if strings.Contains(name, ":") {
		return name
	}
	return "builtin:" + name
}

// add counts one game for side A (seat 1 when swapped).
func add(t *tally, rec *record.Game, swapped bool) {
	a := 0
	if swapped {
		a = 1
	}
	t.games++
	switch {
	case rec.Result.Draw:
		t.draws++
		t.points += 0.5
	case rec.Result.Winner == a:
		t.wins++
		t.points++
	default:
		t.los++
	}
	for _, m := range rec.Moves {
		side := 0
		if m.Seat != a {
			side = 1
		}
		t.slowest[side] = math.Max(t.slowest[side], m.WallMS)
	}
	for _, e := range rec.Events {
		if e.Kind == string(engine.FailTimeout) || e.Kind == string(engine.FailLate) {
			t.timeouts++
			t.timeFaults = append(t.timeFaults, fmt.Sprintf("%s ply %d seat %d: %s %s", rec.ID, e.Ply, e.Seat, e.Kind, e.Detail))
		}
	}
}

// wilson is the 95% Wilson score interval for a share of points.
func wilson(points float64, n int) (float64, float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.96
	p := points / float64(n)
	nn := float64(n)
	c := (p + z*z/(2*nn)) / (1 + z*z/nn)
	h := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / (1 + z*z/nn)
	return math.Max(0, c-h), math.Min(1, c+h)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "strength:", err)
	os.Exit(1)
}
