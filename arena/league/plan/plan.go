// Package plan estimates a league before it runs: per format and stage,
// the games, rounds, plies, agents' CPU-hours and wall time, from the
// league directory's stored games where it has some, else from random
// games and the profile's limits.
package plan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
	"time"

	"arena/arena/league/format"
	"arena/arena/league/leaguefile"
	"arena/arena/results"
	"arena/engine"
)

// Options say what a plan assumes.
type Options struct {
	// Workers is the games played at once (0: the league's concurrency);
	// Cores the CPUs (0: the machine's slots). Per-move wall-clock
	// profiles get half the cores, as in a run.
	Workers, Cores int
	// Playouts is how many random games estimate a game's length where no
	// stored game tells it (default 200).
	Playouts int
}

// StagePlan is one stage of a league: its games, rounds and costs.
type StagePlan struct {
	Stage  string
	Games  int
	Rounds []int // games per round, in order
	// Plies is the expected plies of a game; PliesFrom says how it was
	// found. MoveCPU and MoveWall are one ply's agent CPU and wall time;
	// TimeFrom says whether they were measured or are the profile's limits.
	Plies             float64
	PliesFrom         string
	MoveCPU, MoveWall time.Duration
	TimeFrom          string
	// GameWall is one game's share of a worker's wall time: measured over
	// the stored games' runs where there are some (moveStats.slot: set-up
	// and the work between games included), else Plies × MoveWall.
	GameWall time.Duration
	GameFrom string
	CPUHours float64
	Wall     time.Duration
}

// LeaguePlan is a league's plan before it runs.
type LeaguePlan struct {
	League, Format string
	Workers        int
	WorkersWhy     string
	Stages         []StagePlan
}

// moveStats are the stored games' means.
type moveStats struct {
	games, moves    int
	cpuMS, wallMS   float64
	cpuMoves, plies int
	spans           []gameSpan // games with a start and an end
}

// gameSpan is when a stored game started and ended.
type gameSpan struct{ start, end time.Time }

// sessionGap is the pause between stored games taken for the end of one
// run and the start of another: longer than any game's own set-up, and
// added to the games' mean length, it leaves a run's games together.
const sessionGap = 10 * time.Second

// slot is a game's share of a worker's wall time, as measured: the
// spans of the runs that played the stored games (first start to last
// end, the pauses between runs left out) times the workers that played
// them, over the games. Unlike a game's own length it holds everything
// between games (the store, kept processes checked and handed on, new
// processes started). workers is the concurrency the games were played
// at; 0 when no game has a start and an end.
func (m *moveStats) slot(workers int) time.Duration {
	if len(m.spans) == 0 {
		return 0
	}
	slices.SortFunc(m.spans, func(a, b gameSpan) int { return a.start.Compare(b.start) })
	var own time.Duration
	for _, sp := range m.spans {
		own += sp.end.Sub(sp.start)
	}
	gap := sessionGap + own/time.Duration(len(m.spans))
	var busy time.Duration
	first, last := m.spans[0].start, m.spans[0].end
	for _, sp := range m.spans[1:] {
		if sp.start.Sub(last) > gap {
			busy += last.Sub(first)
			first = sp.start
		}
		if sp.end.After(last) {
			last = sp.end
		}
	}
	busy += last.Sub(first)
	return busy * time.Duration(max(1, workers)) / time.Duration(len(m.spans))
}

// measure reads the plies and move times of a league's stored games.
func measure(ctx context.Context, st results.Store, name string) (moveStats, error) {
	var m moveStats
	if st == nil {
		return m, nil
	}
	err := results.EachGame(ctx, st, name, func(g results.Game) error {
		m.games++
		if r := g.Record; !r.Started.IsZero() && r.Ended.After(r.Started) {
			m.spans = append(m.spans, gameSpan{r.Started, r.Ended})
		}
		m.plies += len(g.Record.Moves)
		for _, mv := range g.Record.Moves {
			if mv.Source != "agent" {
				continue
			}
			m.moves++
			m.wallMS += mv.WallMS
			if mv.MoveCPUMS != nil {
				m.cpuMoves++
				m.cpuMS += *mv.MoveCPUMS
			}
		}
		return nil
	})
	return m, err
}

// randomPlies is the mean length of n random games.
func randomPlies(g engine.Game, params engine.Params, n int, seed uint64) (float64, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var buf []engine.Move
	total := 0
	for range n {
		s, err := g.NewState(params)
		if err != nil {
			return 0, err
		}
		for ply := 0; ply < 100000 && !s.Terminal(); ply++ {
			var mv engine.Move
			var ok bool
			if mv, buf, ok = engine.PlayoutMove(s, rng, buf); !ok {
				break
			}
			s.Apply(mv)
			total++
		}
	}
	return float64(total) / float64(n), nil
}

// rounds hands out a format's games with the higher-listed agent winning
// every game (so no knockout needs tie-breaks) and counts each round's
// games by stage.
func rounds(f format.Format) map[int][]int {
	out := map[int][]int{}
	var res []format.Result
	seen := map[format.Game]bool{}
	for games := f.Next(nil); games != nil; games = f.Next(res) {
		n, stage := 0, games[0].Stage
		for _, g := range games {
			if !seen[g] {
				seen[g] = true
				res = append(res, format.Result{Game: g, PointsA: 1})
				n++
			}
		}
		out[stage] = append(out[stage], n)
	}
	return out
}

// Plan estimates each league's games, plies, agent CPU-hours and wall
// time before anything runs, per stage. st may be nil; where it holds
// games of a league, their plies and move times are used instead of
// random playouts and the profile's limits.
func Plan(ctx context.Context, s *leaguefile.Spec, st results.Store, opt Options) ([]LeaguePlan, error) {
	var out []LeaguePlan
	for _, l := range s.Leagues {
		cores := opt.Cores
		if cores <= 0 {
			cores = s.Machine.N
		}
		workers := opt.Workers
		if workers <= 0 {
			workers = s.Config.Concurrency
		}
		lp := LeaguePlan{League: l.Name, Format: l.FormatName()}
		lp.Workers, lp.WorkersWhy = leaguefile.Concurrency(workers, cores, l.Profile)
		ms, err := measure(ctx, st, l.Name)
		if err != nil {
			return nil, err
		}
		base, err := gameCost(l, ms, opt.Playouts)
		if err != nil {
			return nil, err
		}
		byStage := rounds(l.Tournament)
		for stage := 0; stage < len(byStage); stage++ {
			sp := base
			sp.Stage, sp.Rounds = stageName(l, stage), byStage[stage]
			for _, n := range sp.Rounds {
				sp.Games += n
				sp.Wall += time.Duration((n+lp.Workers-1)/lp.Workers) * sp.GameWall
			}
			sp.CPUHours = float64(sp.Games) * sp.Plies * sp.MoveCPU.Hours()
			lp.Stages = append(lp.Stages, sp)
		}
		out = append(out, lp)
	}
	return out, nil
}

// stageName names a stage of the league's format.
func stageName(l *leaguefile.League, stage int) string {
	switch {
	case stage == 1:
		return leaguefile.Knockout
	case l.Format == leaguefile.Knockout && l.Qualifier.Format != "":
		return l.Qualifier.Format + " qualifier"
	}
	return l.Format
}

// gameCost is one game's expected plies and one ply's time: measured in
// stored games where there are some, else random playouts and the
// profile's limits (upper bounds: every move uses its whole limit).
func gameCost(l *leaguefile.League, ms moveStats, playouts int) (StagePlan, error) {
	var sp StagePlan
	if ms.games > 0 {
		sp.Plies = float64(ms.plies) / float64(ms.games)
		sp.PliesFrom = fmt.Sprintf("%d stored game(s)", ms.games)
	} else {
		if playouts <= 0 {
			playouts = 200
		}
		p, err := randomPlies(l.Game, l.Params, playouts, l.Seed)
		if err != nil {
			return sp, fmt.Errorf("league %s: %w", l.Name, err)
		}
		sp.Plies, sp.PliesFrom = p, fmt.Sprintf("%d random games", playouts)
	}
	if sp.Plies == 0 {
		return sp, errors.New("league " + l.Name + ": games of no plies")
	}
	if ms.moves > 0 {
		ms2 := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
		sp.MoveWall = ms2(ms.wallMS / float64(ms.moves))
		sp.MoveCPU = sp.MoveWall
		if ms.cpuMoves > 0 {
			sp.MoveCPU = ms2(ms.cpuMS / float64(ms.cpuMoves))
		}
		sp.TimeFrom = fmt.Sprintf("measured over %d stored move(s)", ms.moves)
		sp.GameWall, sp.GameFrom = time.Duration(sp.Plies*float64(sp.MoveWall)), "plies × a ply's wall"
		if slot := ms.slot(l.Concurrency); slot > 0 {
			sp.GameWall = slot
			sp.GameFrom = fmt.Sprintf("the stored games' runs at %d game(s) at a time", l.Concurrency)
		}
		return sp, nil
	}
	p := l.Profile
	switch p.Time {
	case engine.PerMove:
		// Each side's first move may take the first-move limit.
		extra := 2 * max(0, p.FirstMoveLimit-p.MoveLimit)
		sp.MoveWall = p.MoveLimit + time.Duration(float64(extra)/sp.Plies)
		sp.TimeFrom = "the profile's move limit, every move using all of it (an upper bound)"
	default:
		// Both budgets spent over the game's plies.
		sp.MoveWall = time.Duration(2 * float64(p.Budget) / sp.Plies)
		sp.TimeFrom = "the profile's CPU budget, both spent in full (an upper bound)"
	}
	sp.MoveCPU = sp.MoveWall
	sp.GameWall, sp.GameFrom = time.Duration(sp.Plies*float64(sp.MoveWall)), "plies × a ply's wall"
	return sp, nil
}

// Write prints the plans, a line per stage and a total per league.
func Write(w io.Writer, plans []LeaguePlan) error {
	for _, lp := range plans {
		fmt.Fprintf(w, "league %s: %s, %d game(s) at a time (%s)\n", lp.League, lp.Format, lp.Workers, lp.WorkersWhy)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "STAGE\tGAMES\tROUNDS\tPLIES/GAME\tAGENT CPU-HOURS\tWALL")
		games, cpu, wall := 0, 0.0, time.Duration(0)
		for _, sp := range lp.Stages {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.2f\t%s\n", sp.Stage, sp.Games, len(sp.Rounds), sp.Plies, sp.CPUHours, sp.Wall.Round(time.Second))
			games, cpu, wall = games+sp.Games, cpu+sp.CPUHours, wall+sp.Wall
		}
		if len(lp.Stages) > 1 {
			fmt.Fprintf(tw, "total\t%d\t\t\t%.2f\t%s\n", games, cpu, wall.Round(time.Second))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(lp.Stages) > 0 {
			sp := lp.Stages[0]
			fmt.Fprintf(w, "  plies from %s; a ply's time (%s agent CPU, %s wall) from %s;\n  a game's share of a worker %s from %s\n",
				sp.PliesFrom, sp.MoveCPU.Round(time.Millisecond), sp.MoveWall.Round(time.Millisecond), sp.TimeFrom, sp.GameWall.Round(time.Millisecond), sp.GameFrom)
		}
	}
	return nil
}
