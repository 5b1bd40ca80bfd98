package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"arena/agents/builtin"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// inProcess is a built-in agent called directly: the ceiling a league of
// subprocess agents is compared with.
type inProcess struct{ protocol.Agent }

func (inProcess) Kill()                           {}
func (inProcess) CPUTime() (time.Duration, error) { return 0, nil }
func (inProcess) MemoryExceeded() <-chan struct{} { return nil }
func (inProcess) Stderr() string                  { return "" }
func inProcessLauncher(ctx context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
	a, err := builtin.New(p.Ref[len("builtin:"):])
	if err != nil {
		return nil, err
	}
	impl := sdk.ServeConfig(a).Plugins[protocol.PluginName].(*protocol.Plugin).Impl
	return inProcess{impl}, nil
}

// playMany plays n random-vs-random games of game, c at once, and returns
// games per second.
func playMany(ctx context.Context, launch referee.Launcher, game string, n, c int) (float64, error) {
	g, err := all.Registry().Lookup(game)
	if err != nil {
		return 0, err
	}
	prof, err := g.Profile(engine.Params{})
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

func benchLeague(ctx context.Context, o options, b *bins, t *table) error {
	for _, game := range []string{"dots-and-boxes", "bohnenspiel"} {
		for _, c := range o.concurrency {
			// The ceiling is cheap: play many more games so it is not noise.
			ceil, err := playMany(ctx, inProcessLauncher, game, o.games*20, c)
			if err != nil {
				return err
			}
			for _, v := range []struct{ name, self string }{{"arena binary (today)", b.arena}, {"lean arena-agent", b.lean}} {
				gps, err := playMany(ctx, referee.HostLauncher(launcher(v.self)), game, o.games, c)
				if err != nil {
					return fmt.Errorf("%s: %w", v.name, err)
				}
				what := fmt.Sprintf("%s random-vs-random c=%d, %s, no reuse", game, c, v.name)
				t.add("league", what, fmt.Sprintf("%.1f games/s", gps), fmt.Sprintf("in process %.0f games/s", ceil), fmt.Sprintf("%.4f of ceiling", gps/ceil))
			}
		}
	}
	return leagueRun(ctx, o, b, t)
}

// leagueRun times `arena league run` end to end on leagues of two random
// agents (the store, its commits and the pre-flight included), with the
// agents' processes kept across games (the default) and with a fresh
// process for every game (--fresh-processes).
func leagueRun(ctx context.Context, o options, b *bins, t *table) error {
	dir, err := os.MkdirTemp("", "arena-bench-league-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, game := range []string{"dots-and-boxes", "bohnenspiel"} {
		for _, c := range o.concurrency {
			for _, fresh := range []bool{true, false} {
				file := filepath.Join(dir, fmt.Sprintf("%s-c%d-%v.yaml", game, c, fresh))
				conf := fmt.Sprintf("game: %s\nagents:\n  - name: a\n    agent: builtin:random\n  - name: b\n    agent: builtin:random\nformat: round-robin\ngames_per_pairing: %d\nconcurrency: %d\nseed: 1\n", game, o.games, c)
				if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
					return err
				}
				args := []string{"league", "run", file, "--quiet"}
				how := "processes kept across games"
				if fresh {
					args = append(args, "--fresh-processes")
					how = "a fresh process per game"
				}
				start := time.Now()
				out, err := exec.CommandContext(ctx, b.arena, args...).CombinedOutput()
				if err != nil {
					return fmt.Errorf("arena league run: %w\n%s", err, out)
				}
				el := time.Since(start)
				// The league holds per-move profiles to half the cores, so
				// "concurrency: 2" plays one game at a time on 2 cores.
				t.add("league", fmt.Sprintf("arena league run, %s random-vs-random, concurrency: %d, %d games, %s, end to end", game, c, o.games, how),
					fmt.Sprintf("%.1f games/s", float64(o.games)/el.Seconds()), "", "")
			}
		}
	}
	return nil
}
