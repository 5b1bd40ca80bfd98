package plan_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/league/plan"
	"arena/arena/record"
	"arena/arena/results"
	"arena/games/all"
)

// load loads a league file written into a fresh directory.
func load(t *testing.T, body string) *leaguefile.Spec {
	t.Helper()
	file := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// storedGames is a results store holding only games.
type storedGames struct {
	results.Store
	games []results.Game
}

func (s storedGames) Games(context.Context, string) ([]results.Game, error) { return s.games, nil }

const fiveAgents = `
agents:
  - {name: a, agent: greedy}
  - {name: b, agent: random}
  - {name: c, agent: greedy}
  - {name: d, agent: random}
  - {name: e, agent: random}
`

func TestPlanStagesFromLimits(t *testing.T) {
	spec := load(t, "game: bohnenspiel\nformat: knockout\nqualifier: {format: swiss, rounds: 3, advance: 4}\n"+fiveAgents)
	plans, err := plan.Plan(context.Background(), spec, nil, plan.Options{Workers: 2, Cores: 8, Playouts: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 1 || len(plans[0].Stages) != 2 {
		t.Fatalf("plans %+v", plans)
	}
	lp := plans[0]
	q, ko := lp.Stages[0], lp.Stages[1]
	if q.Stage != "swiss qualifier" || q.Games != 12 || len(q.Rounds) != 3 {
		t.Errorf("qualifier %+v", q)
	}
	// Four agents: two semi-finals then a final, 2 games each.
	if ko.Stage != "knockout" || ko.Games != 6 || len(ko.Rounds) != 2 {
		t.Errorf("knockout %+v", ko)
	}
	prof := spec.Leagues[0].Profile
	if lp.Workers != 2 || q.MoveWall < prof.MoveLimit || !strings.Contains(q.TimeFrom, "upper bound") || q.PliesFrom != "20 random games" {
		t.Errorf("qualifier's times %+v with %d workers", q, lp.Workers)
	}
	// Rounds run one after the other, their games two at a time.
	game := time.Duration(q.Plies * float64(q.MoveWall))
	if q.Wall != 3*2*game {
		t.Errorf("qualifier wall %s, want 3 rounds of 2 games at a time of %s", q.Wall, game)
	}
	if want := float64(q.Games) * q.Plies * q.MoveCPU.Hours(); q.CPUHours != want {
		t.Errorf("CPU-hours %g, want %g", q.CPUHours, want)
	}
	var text bytes.Buffer
	if err := plan.Write(&text, plans); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"swiss qualifier  12", "knockout", "total            18"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("plan text lacks %q:\n%s", want, text.String())
		}
	}
}

func TestPlanFromStoredGames(t *testing.T) {
	spec := load(t, "game: bohnenspiel\n"+fiveAgents)
	ms := func(x float64) *float64 { return &x }
	// Two games: 3 and 5 plies; agent moves of 10 and 30 ms wall, 8 and
	// 24 ms CPU; a substitute move counts for the plies only.
	g1 := &record.Game{Moves: []record.Move{
		{Source: "agent", WallMS: 10, MoveCPUMS: ms(8)}, {Source: "agent", WallMS: 30, MoveCPUMS: ms(24)}, {Source: "random"}}}
	g2 := &record.Game{Moves: []record.Move{
		{Source: "agent", WallMS: 10, MoveCPUMS: ms(8)}, {Source: "agent", WallMS: 30, MoveCPUMS: ms(24)},
		{Source: "agent", WallMS: 10, MoveCPUMS: ms(8)}, {Source: "agent", WallMS: 30, MoveCPUMS: ms(24)}, {Source: "skip"}}}
	st := storedGames{games: []results.Game{{Record: g1}, {Record: g2}}}
	plans, err := plan.Plan(context.Background(), spec, st, plan.Options{Workers: 2, Cores: 8})
	if err != nil {
		t.Fatal(err)
	}
	sp := plans[0].Stages[0]
	if sp.Plies != 4 || sp.PliesFrom != "2 stored game(s)" || sp.TimeFrom != "measured over 6 stored move(s)" {
		t.Errorf("plan from stored games %+v", sp)
	}
	if sp.MoveWall != 20*time.Millisecond || sp.MoveCPU != 16*time.Millisecond {
		t.Errorf("a ply's time %s wall, %s CPU; want the means 20ms and 16ms", sp.MoveWall, sp.MoveCPU)
	}
	// Ten pairings of 2 games, two at a time: 10 rounds of 4 plies of 20ms.
	if sp.Games != 20 || sp.Wall != 10*4*20*time.Millisecond {
		t.Errorf("%d games in %s", sp.Games, sp.Wall)
	}
}

// TestPlanWallFromStoredRuns checks the wall time a plan takes from the
// stored games' runs: each game's share of a worker is the runs' spans
// (first start to last end, the pause between runs left out) over the
// games, so the work between games counts and the night between two runs
// does not.
func TestPlanWallFromStoredRuns(t *testing.T) {
	spec := load(t, "game: bohnenspiel\ngames_per_pairing: 4\nagents:\n  - {name: a, agent: greedy}\n  - {name: b, agent: random}\n  - {name: c, agent: random}\n")
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	ms := func(x float64) *float64 { return &x }
	game := func(start float64) results.Game {
		// 1 s of game, 0.5 s between games; 2 plies of 300 ms wall, 200 ms CPU.
		mv := record.Move{Source: "agent", WallMS: 300, MoveCPUMS: ms(200)}
		return results.Game{Record: &record.Game{Started: at(start), Ended: at(start + 1), Moves: []record.Move{mv, mv}}}
	}
	// A run of four games, then one of two a day later: busy 5.5 s and
	// 2.5 s for 6 games played one at a time.
	st := storedGames{games: []results.Game{game(0), game(1.5), game(3), game(4.5), game(86400), game(86401.5)}}
	plans, err := plan.Plan(context.Background(), spec, st, plan.Options{Workers: 1, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	sp := plans[0].Stages[0]
	slot := 8 * time.Second / 6
	if sp.GameWall != slot {
		t.Errorf("a game's wall %s, want 8s of runs over 6 games (%s)", sp.GameWall, slot)
	}
	// Three pairings of 4 games, one at a time.
	if sp.Games != 12 || sp.Wall != 12*slot {
		t.Errorf("%d games in %s, want 12 in %s", sp.Games, sp.Wall, 12*slot)
	}
	if want := 12 * 2 * (200 * time.Millisecond).Hours(); sp.CPUHours != want {
		t.Errorf("CPU-hours %g, want %g (12 games of 2 plies of 200ms)", sp.CPUHours, want)
	}
}
