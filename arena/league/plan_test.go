package league_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"arena/arena/league"
	"arena/arena/results"
)

const fiveAgents = `
agents:
  - {name: a, agent: greedy}
  - {name: b, agent: random}
  - {name: c, agent: greedy}
  - {name: d, agent: random}
  - {name: e, agent: random}
`

func TestPlanStagesFromLimits(t *testing.T) {
	spec, _ := loadLeague(t, writeFile(t, "p.yaml", "game: bohnenspiel\nformat: knockout\nqualifier: {format: swiss, rounds: 3, advance: 4}\n"+fiveAgents))
	plans, err := league.Plan(context.Background(), spec, nil, league.PlanOptions{Workers: 2, Cores: 8, Playouts: 20})
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
	if err := league.WritePlan(&text, plans); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"swiss qualifier  12", "knockout", "total            18"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("plan text lacks %q:\n%s", want, text.String())
		}
	}
}

func TestPlanFromStoredGames(t *testing.T) {
	spec, out := loadLeague(t, writeFile(t, "m.yaml", "game: bohnenspiel\n"+agentsYAML("greedy", "random")))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := league.Run(ctx, spec, league.RunOptions{Launch: testLauncher()}); err != nil {
		t.Fatal(err)
	}
	st, err := results.OpenDirReadOnly(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games := storedGames(t, out, spec.Leagues[0].Name)
	plies := 0
	for _, g := range games {
		plies += len(g.Record.Moves)
	}
	plans, err := league.Plan(ctx, spec, st, league.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sp := plans[0].Stages[0]
	if sp.Plies != float64(plies)/float64(len(games)) || sp.PliesFrom != "2 stored game(s)" || !strings.HasPrefix(sp.TimeFrom, "measured") {
		t.Errorf("plan from stored games %+v, want %d plies over %d games", sp, plies, len(games))
	}
	if sp.MoveWall >= spec.Leagues[0].Profile.MoveLimit {
		t.Errorf("measured move wall time %s: instant agents do not use the limit", sp.MoveWall)
	}
}
