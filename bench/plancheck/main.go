// Command plancheck compares `arena league plan` with a real run: it
// plays a small league of house bots (the calibration), plans a league of
// the same agents with more games from the calibration's stored games,
// then plays that league in a fresh directory and prints the plan's wall
// time beside the measured one:
//
//	go run ./bench/plancheck                  # bohnenspiel, 4 then 12 games per pairing
//	go run ./bench/plancheck -calibrate 2 -games 8
//
// The runs go through the built arena binary (`arena league run`), the
// lean agent host beside it, as a user runs them. docs/leagues.md has the
// results.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/league/plan"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/bench/internal/loadavg"
	"arena/games/all"
)

// leagueFile is the league both runs play: a house bot thinking a small
// fraction of the course's move limit, against a greedy and a random
// agent, so games take about a second and the league a few minutes.
const leagueFile = `name: plancheck
game: %s
agents:
  - name: baseline
    agent: builtin:baseline?time=%g
  - name: greedy
    agent: builtin:greedy
  - name: random
    agent: builtin:random
format: round-robin
games_per_pairing: %d
seed: 7
output: %s
`

func main() {
	game := flag.String("game", "bohnenspiel", "game of the leagues")
	think := flag.Float64("time", 0.05, "the house bot's fraction of each move limit")
	calib := flag.Int("calibrate", 4, "games per pairing of the calibration run")
	games := flag.Int("games", 12, "games per pairing of the planned and measured run")
	flag.Parse()
	if err := run(context.Background(), *game, *think, *calib, *games); err != nil {
		fmt.Fprintln(os.Stderr, "plancheck:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, game string, think float64, calib, games int) error {
	dir, err := os.MkdirTemp("", "arena-plancheck-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	arena := filepath.Join(dir, "arena")
	for _, pkg := range []string{"./cmd/arena", "./cmd/arena-agent", "./cmd/arena-init"} {
		cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, filepath.Base(pkg)), pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build %s: %w", pkg, err)
		}
	}
	calFile := filepath.Join(dir, "calibrate.yaml")
	fullFile := filepath.Join(dir, "full.yaml")
	calOut := filepath.Join(dir, "calibrate")
	if err := os.WriteFile(calFile, fmt.Appendf(nil, leagueFile, game, think, calib, calOut), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(fullFile, fmt.Appendf(nil, leagueFile, game, think, games, filepath.Join(dir, "full")), 0o644); err != nil {
		return err
	}
	before, err := planWall(ctx, fullFile, "")
	if err != nil {
		return err
	}
	calWall, err := runLeague(ctx, arena, calFile)
	if err != nil {
		return err
	}
	predicted, err := planWall(ctx, fullFile, calOut)
	if err != nil {
		return err
	}
	measured, err := runLeague(ctx, arena, fullFile)
	if err != nil {
		return err
	}
	fmt.Printf("game %s, house bot at time=%g, 3 agents, round-robin\n", game, think)
	fmt.Printf("calibration: %d games per pairing played in %s\n", calib, calWall)
	fmt.Printf("plan of %d games per pairing without stored games (the profile's limits): %s\n", games, before.Round(time.Second))
	fmt.Printf("plan of %d games per pairing from the calibration's games: %s\n", games, predicted.Round(100*time.Millisecond))
	fmt.Printf("measured run of %d games per pairing (arena league run, end to end): %s\n", games, measured)
	fmt.Printf("plan / measured: %.2f\n", predicted.Seconds()/measured.wall.Seconds())
	return nil
}

// planWall is the wall time `arena league plan` gives file, from the
// stored games of the league directory stored (none when "").
func planWall(ctx context.Context, file, stored string) (time.Duration, error) {
	spec, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}})
	if err != nil {
		return 0, err
	}
	var st results.Store
	if stored != "" {
		db, err := resultsdb.OpenDirReadOnly(ctx, stored)
		if err != nil {
			return 0, err
		}
		defer db.Close()
		st = db
	}
	plans, err := plan.Plan(ctx, spec, st, plan.Options{})
	if err != nil {
		return 0, err
	}
	if err := plan.Write(os.Stderr, plans); err != nil {
		return 0, err
	}
	var wall time.Duration
	for _, lp := range plans {
		for _, sp := range lp.Stages {
			wall += sp.Wall
		}
	}
	return wall, nil
}

// timedRun is one `arena league run`: its wall time, the games it
// withheld and played again (a late move the machine's load explains),
// and the load average before and after.
type timedRun struct {
	wall          time.Duration
	withheld      int
	before, after string
}

func (r timedRun) String() string {
	return fmt.Sprintf("%s (%d game(s) withheld and played again; load average %s before, %s after)",
		r.wall.Round(100*time.Millisecond), r.withheld, r.before, r.after)
}

// runLeague times `arena league run file` end to end.
func runLeague(ctx context.Context, arena, file string) (timedRun, error) {
	r := timedRun{before: loadavg.OneMinute()}
	start := time.Now()
	out, err := exec.CommandContext(ctx, arena, "league", "run", file, "--quiet").CombinedOutput()
	if err != nil {
		return r, fmt.Errorf("arena league run %s: %w\n%s", file, err, out)
	}
	r.wall = time.Since(start)
	r.after = loadavg.OneMinute()
	r.withheld = bytes.Count(out, []byte("withheld, to be played again"))
	return r, nil
}
