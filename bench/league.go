package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"arena/agents/builtin/inproc"
	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

// inProcessLauncher calls built-in agents in process: the ceiling a
// league of subprocess agents is compared with.
var inProcessLauncher referee.Launcher = inproc.Launch

// gameProfile looks game up with its course profile.
func gameProfile(game string) (engine.Game, engine.Profile, error) {
	g, err := all.Registry().Lookup(game)
	if err != nil {
		return nil, engine.Profile{}, err
	}
	prof, err := g.Profile(engine.Params{})
	return g, prof, err
}

// playMany plays n random-vs-random games of game, c at once, and returns
// games per second.
func playMany(ctx context.Context, launch referee.Launcher, game string, n, c int) (float64, error) {
	g, prof, err := gameProfile(game)
	if err != nil {
		return 0, err
	}
	ref := &referee.Referee{Launch: launch}
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				m := referee.Match{
					ID: fmt.Sprintf("bench-%d", i), Game: g, Params: engine.Params{}, Profile: prof, Seed: uint64(i + 1),
					Players: [2]referee.Player{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "builtin:random"}},
				}
				rec, err := ref.Play(ctx, m)
				if err == nil && len(rec.Events) > 0 {
					err = fmt.Errorf("game %s: unexpected event %s: %s", m.ID, rec.Events[0].Kind, rec.Events[0].Detail)
				}
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// benchLeague plays fresh-process games through the referee against the
// same games in process, then times `arena league run` (leagueRun). The
// agents are served by the lean host, as a league's are: the arena
// binary's start as a host is measured in the start section, and a
// fresh-process game is two starts and its moves, so a league row per host
// only repeated that comparison (at 20 s a row).
func benchLeague(ctx context.Context, o options, b *bins, t *table) error {
	mach, err := slots.Detect(0)
	if err != nil {
		return err
	}
	for _, game := range []string{"dots-and-boxes", "bohnenspiel"} {
		_, prof, err := gameProfile(game)
		if err != nil {
			return err
		}
		for _, c := range leagueConcurrencies(o.concurrency, mach.N, prof) {
			// The ceiling is cheap: play many more games so it is not noise.
			ceil, err := playMany(ctx, inProcessLauncher, game, o.games*20, c)
			if err != nil {
				return err
			}
			gps, err := playMany(ctx, referee.HostLauncher(readmeLauncher(b)), game, o.games, c)
			if err != nil {
				return fmt.Errorf("lean arena-agent + arena-init: %w", err)
			}
			what := fmt.Sprintf("%s random-vs-random c=%d, lean arena-agent + arena-init, no reuse", game, c)
			t.add("league", what, fmt.Sprintf("%.1f games/s", gps), fmt.Sprintf("in process %.0f games/s", ceil), fmt.Sprintf("%.4f of ceiling", gps/ceil))
		}
	}
	return leagueRun(ctx, o, b, t, mach.N)
}

// leagueConcurrencies are the concurrencies of asked that a league of
// the profile plays on cores, each once: a league holds games timed by the
// wall clock to half the cores (leaguefile.Concurrency), so on 2 cores
// "concurrency: 2" plays one game at a time, the rows of concurrency 1
// again.
func leagueConcurrencies(asked []int, cores int, prof engine.Profile) []int {
	var out []int
	for _, c := range asked {
		if eff, _ := leaguefile.Concurrency(c, cores, prof); !slices.Contains(out, eff) {
			out = append(out, eff)
		}
	}
	return out
}

// issueGamesPerSecond is the league throughput of instant agents measured
// when the performance work began (a fresh pair of processes per game):
// the base of the "5x" target.
const issueGamesPerSecond = 59.0

// leagueRun times `arena league run` end to end on leagues of two random
// agents (the store, its commits and the pre-flight included), with the
// agents' processes kept across games (the default) and with a fresh
// process for every game (--fresh-processes), next to the machine's floor
// for any league of agents in processes of their own (leagueFloor).
func leagueRun(ctx context.Context, o options, b *bins, t *table, cores int) error {
	dir, err := os.MkdirTemp("", "arena-bench-league-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, game := range []string{"dots-and-boxes", "bohnenspiel"} {
		_, prof, err := gameProfile(game)
		if err != nil {
			return err
		}
		plies, err := meanPlies(ctx, game, 200)
		if err != nil {
			return err
		}
		floor, err := leagueFloor(ctx, b, plies, max(200, o.games*2))
		if err != nil {
			return fmt.Errorf("league floor: %w", err)
		}
		t.add("league", fmt.Sprintf("floor: %s's %.1f moves a game as bare socket round trips, alternating between 2 processes pinned to 2 CPUs", game, plies),
			fmt.Sprintf("%.0f games/s", floor), "", "")
		// Each run: concurrency, a fresh process per game or kept ones,
		// and, once, kept ones without sandboxes (isolation off, where
		// the agents' CPU is read through the process tree instead).
		type run struct {
			c            int
			fresh, plain bool
		}
		var runs []run
		for _, c := range leagueConcurrencies(o.concurrency, cores, prof) {
			runs = append(runs, run{c: c, fresh: true}, run{c: c})
		}
		runs = append(runs, run{c: 1, plain: true})
		for _, r := range runs {
			c, fresh := r.c, r.fresh
			// Kept processes make a game cheap: ten times the games,
			// so the run's fixed costs (pre-flight, first starts) are
			// not most of it.
			games := o.games
			if !fresh {
				games *= 10
			}
			file := filepath.Join(dir, fmt.Sprintf("%s-c%d-%v-%v.yaml", game, c, fresh, r.plain))
			conf := fmt.Sprintf("game: %s\nagents:\n  - name: a\n    agent: builtin:random\n  - name: b\n    agent: builtin:random\nformat: round-robin\ngames_per_pairing: %d\nconcurrency: %d\nseed: 1\n", game, games, c)
			if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
				return err
			}
			args := []string{"league", "run", file, "--quiet"}
			how := "processes kept across games"
			if fresh {
				args = append(args, "--fresh-processes")
				how = "a fresh process per game"
			}
			if r.plain {
				args = append(args, "--isolation", "off")
				how += ", isolation off"
			}
			start := time.Now()
			out, err := exec.CommandContext(ctx, b.arena, args...).CombinedOutput()
			if err != nil {
				return fmt.Errorf("arena league run: %w\n%s", err, out)
			}
			gps := float64(games) / time.Since(start).Seconds()
			// The league holds per-move profiles to half the cores, so
			// "concurrency: 2" plays one game at a time on 2 cores.
			t.add("league", fmt.Sprintf("arena league run, %s random-vs-random, concurrency: %d, %d games, %s, end to end", game, c, games, how),
				fmt.Sprintf("%.1f games/s", gps),
				fmt.Sprintf("floor %.0f games/s; issue's %.0f games/s", floor, issueGamesPerSecond),
				fmt.Sprintf("%.2f of floor, %.1f× issue's", gps/floor, gps/issueGamesPerSecond))
		}
	}
	return nil
}

// meanPlies is the mean length of n random-vs-random games of game,
// played in process.
func meanPlies(ctx context.Context, game string, n int) (float64, error) {
	g, prof, err := gameProfile(game)
	if err != nil {
		return 0, err
	}
	ref := &referee.Referee{Launch: inProcessLauncher}
	total := 0
	for i := range n {
		rec, err := ref.Play(ctx, referee.Match{
			ID: fmt.Sprintf("plies-%d", i), Game: g, Params: engine.Params{}, Profile: prof, Seed: uint64(i + 1),
			Players: [2]referee.Player{{Name: "a", Ref: "builtin:random"}, {Name: "b", Ref: "builtin:random"}},
		})
		if err != nil {
			return 0, err
		}
		total += len(rec.Moves)
	}
	return float64(total) / float64(n), nil
}

// leagueFloor is what no league of agents in processes of their own can
// beat on this machine: games of plies moves (rounded per game so the mean
// is kept), each move one round trip of a move request's size over a bare
// Unix socket, alternating between two minimal servers pinned to two CPUs
// as a league pins its agents. Here a round trip mostly waits for an idle
// CPU to wake, which a busy loop (the per-move benchmark) never does.
func leagueFloor(ctx context.Context, b *bins, plies float64, games int) (float64, error) {
	cpus, err := slots.Affinity(0)
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "arena-bench-floor-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	var conns [2]net.Conn
	for i := range conns {
		sock := filepath.Join(dir, fmt.Sprintf("s%d.sock", i))
		srv, err := startServer(ctx, b.pingpong, sock, "20")
		if err != nil {
			return 0, err
		}
		defer stop(srv)
		if err := host.Repin(srv.Process.Pid, []int{cpus[i%len(cpus)]}); err != nil {
			return 0, fmt.Errorf("pin the floor server: %w", err)
		}
		c, err := net.Dial("unix", sock)
		if err != nil {
			return 0, err
		}
		defer c.Close()
		conns[i] = c
	}
	frame := binary.BigEndian.AppendUint32(nil, 103)
	frame = append(frame, make([]byte, 103)...)
	in := make([]byte, 4+20)
	start := time.Now()
	done := 0.0
	for g := range games {
		n := int(float64(g+1)*plies) - int(float64(g)*plies)
		for i := range n {
			c := conns[i%2]
			if _, err := c.Write(frame); err != nil {
				return 0, err
			}
			if _, err := io.ReadFull(c, in); err != nil {
				return 0, err
			}
		}
		done++
	}
	return done / time.Since(start).Seconds(), nil
}
