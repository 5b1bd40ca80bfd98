package league

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/entrants"
	"arena/arena/league/leaguefile"
	"arena/arena/record"
	"arena/arena/results/resultsdb"
	"arena/games/all"
)

// A stored configuration differs acceptably only by entrants added after
// the stored ones and by resubmissions; anything else is a change.
func TestVersionsExplain(t *testing.T) {
	cfg := func(agents string) string { return `{"seed":1,"format":"round-robin","agents":[` + agents + `]}` }
	ann := `{"name":"ann","agent":"/s/ann.lua"}`
	bob := `{"name":"bob","agent":"/s/bob.lua"}`
	late := `{"name":"late","agent":"/s/late.lua"}`
	added := &versions{stored: true, added: []string{"late"}}
	resub := &versions{stored: true, changed: map[string][2]string{"ann": {"sha256:a", "sha256:b"}}, order: []string{"ann"}}
	cases := []struct {
		name     string
		v        *versions
		old, now string
		want     bool
	}{
		{"added last", added, cfg(ann + "," + bob), cfg(ann + "," + bob + "," + late), true},
		{"added between", added, cfg(ann + "," + bob), cfg(ann + "," + late + "," + bob), true},
		{"resubmitted", resub, cfg(ann), cfg(`{"name":"ann","agent":"/s/ann/agent.lua"}`), true},
		{"other key changed", added, cfg(ann), `{"seed":2,"format":"round-robin","agents":[` + ann + "," + late + `]}`, false},
		{"agent removed", added, cfg(ann + "," + bob), cfg(ann + "," + late), false},
		{"agents reordered", added, cfg(ann + "," + bob), cfg(bob + "," + ann + "," + late), false},
		{"listed agent changed", added, cfg(ann + "," + bob), cfg(ann + `,{"name":"bob","agent":"/s/bob2.lua"},` + late), false},
		{"nothing new", &versions{stored: true}, cfg(ann), cfg(ann), false},
		{"no stored run", nil, cfg(ann), cfg(ann + "," + late), false},
	}
	for _, c := range cases {
		if got := c.v.explains(c.old, c.now); got != c.want {
			t.Errorf("%s: explains = %v, want %v", c.name, got, c.want)
		}
	}
}

// classLeague loads a league of Lua submissions in the given format and
// stores it, with every game of its first round won by the first seat.
func classLeague(t *testing.T, format string) (*leaguefile.Spec, *resultsdb.SQLite, []*plan) {
	return classLeagueWith(t, "format: "+format+"\n")
}

func classLeagueWith(t *testing.T, keys string) (*leaguefile.Spec, *resultsdb.SQLite, []*plan) {
	t.Helper()
	// ann resubmits.
	return classLeagueChanged(t, keys, func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "subs", "ann.lua"), []byte("function choose_move(state, clock) return state:legal_moves()[2] end\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// classLeagueChanged is classLeagueWith with the submissions changed by
// change (given the league file's folder) after the stored run.
func classLeagueChanged(t *testing.T, keys string, change func(dir string)) (*leaguefile.Spec, *resultsdb.SQLite, []*plan) {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{"ann", "bob", "cy", "dee"} {
		src := "function choose_move(state, clock) return state:legal_moves()[1] end\n-- " + n + "\n"
		if err := os.MkdirAll(filepath.Join(dir, "subs"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "subs", n+".lua"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "class.yaml")
	body := "game: bohnenspiel\nentrants:\n  dir: subs\n" + keys
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func() *leaguefile.Spec {
		s, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := load()
	ctx := context.Background()
	st, err := resultsdb.OpenDir(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	l := s.Leagues[0]
	batch := l.Schedule()
	if err := saveLeague(ctx, st, l, batch); err != nil {
		t.Fatal(err)
	}
	for _, m := range batch {
		g := &record.Game{ID: m.ID, Agents: [2]record.Agent{{Name: m.Seats[0]}, {Name: m.Seats[1]}}, Result: record.Result{Winner: 0}}
		if _, err := st.AddGame(ctx, l.Name, g); err != nil {
			t.Fatal(err)
		}
	}
	change(dir)
	s = load()
	plans, err := planLeagues(ctx, st, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, st, plans
}

// A round-robin replays a resubmission's games and keeps the others.
func TestResubmissionReplaysRoundRobin(t *testing.T) {
	s, st, plans := classLeague(t, leaguefile.RoundRobin)
	ctx := context.Background()
	if err := planVersions(ctx, st, s, plans, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if len(p.versions.replace) != 6 || len(p.pending) != 6 || p.kept != 6 {
		t.Fatalf("replace %d, pending %d, kept %d; want ann's 6 replayed and the other 6 kept", len(p.versions.replace), len(p.pending), p.kept)
	}
	if c, err := changed(ctx, st, p.l, p.versions); err != nil || len(c) != 0 {
		t.Fatalf("changed = %v, %v; a resubmission is no change to refuse", c, err)
	}
	got := strings.Join(p.versions.summary(p), "; ")
	if !strings.HasPrefix(got, "6 game(s) of ann replayed (resubmitted: ann hash ") || !strings.HasSuffix(got, "; 6 stored game(s) kept") {
		t.Errorf("summary %q", got)
	}
}

// A submission taken out of the folder is withdrawn: its stored games are
// superseded, none is played again, the others are kept, and the league
// is not a changed one to refuse.
func TestRemovedSubmissionIsWithdrawn(t *testing.T) {
	s, st, plans := classLeagueChanged(t, "", func(dir string) {
		if err := os.Remove(filepath.Join(dir, "subs", "dee.lua")); err != nil {
			t.Fatal(err)
		}
	})
	ctx := context.Background()
	if err := planVersions(ctx, st, s, plans, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if len(p.versions.replace) != 6 || len(p.pending) != 0 || p.kept != 6 {
		t.Fatalf("replace %d, pending %d, kept %d; want dee's 6 superseded, none played, 6 kept", len(p.versions.replace), len(p.pending), p.kept)
	}
	if c, err := changed(ctx, st, p.l, p.versions); err != nil || len(c) != 0 {
		t.Fatalf("changed = %v, %v; a withdrawn submission is no change to refuse", c, err)
	}
	got := strings.Join(p.versions.summary(p), "; ")
	if !strings.HasPrefix(got, "dee removed from the submissions: 6 stored game(s) superseded, none replayed") {
		t.Errorf("summary %q", got)
	}
	if d := p.versions.describe(); len(d) != 1 || d[0] != "dee removed from the submissions" {
		t.Errorf("describe %q", d)
	}
}

// An agent listed in the league file, not from the folder, that is taken
// out is a change of the league, as before.
func TestRemovedListedAgentIsAChange(t *testing.T) {
	s, st, plans := classLeagueChanged(t, "agents:\n  - name: base\n    agent: random\n", func(dir string) {
		body, err := os.ReadFile(filepath.Join(dir, "class.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(body), "agents:")
		if err := os.WriteFile(filepath.Join(dir, "class.yaml"), body[:i], 0o644); err != nil {
			t.Fatal(err)
		}
	})
	ctx := context.Background()
	if err := planVersions(ctx, st, s, plans, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if c, err := changed(ctx, st, plans[0].l, plans[0].versions); err != nil || len(c) == 0 {
		t.Fatalf("changed = %v, %v; want the removed listed agent to change the league", c, err)
	}
}

// A Swiss tournament under way refuses a resubmission, naming it, unless
// forced; then nothing is superseded and the general rule of a changed
// league applies.
func TestResubmissionRefusedMidSwiss(t *testing.T) {
	s, st, plans := classLeague(t, leaguefile.Swiss)
	ctx := context.Background()
	err := planVersions(ctx, st, s, plans, RunOptions{})
	var te *TournamentChangedError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "ann resubmitted (hash ") || !strings.Contains(err.Error(), "swiss") {
		t.Fatalf("err = %v; want the resubmission refused mid-tournament", err)
	}
	if err := planVersions(ctx, st, s, plans, RunOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if len(plans[0].versions.replace) != 0 {
		t.Fatalf("forced: %d games to replace, want none", len(plans[0].versions.replace))
	}
	if c, _ := changed(ctx, st, plans[0].l, plans[0].versions); len(c) == 0 {
		t.Fatal("forced: the changed hash is not reported as a change")
	}
}

// A gauntlet replays the resubmission's games against the challenger only.
func TestResubmissionReplaysGauntlet(t *testing.T) {
	s, st, plans := classLeagueWith(t, "format: gauntlet\nchallenger: bob\n")
	if err := planVersions(context.Background(), st, s, plans, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if len(p.versions.replace) != 2 || len(p.pending) != 2 || p.kept != 4 {
		t.Fatalf("replace %d, pending %d, kept %d; want ann-vs-bob's 2 replayed and 4 kept", len(p.versions.replace), len(p.pending), p.kept)
	}
}

// A stored entrant refused this run (a broken resubmission) leaves the
// league: its stored games are superseded, none is replayed, the others
// are kept, and the run is no change to refuse.
func TestRefusedEntrantLeavesLeague(t *testing.T) {
	s, st, _ := classLeague(t, leaguefile.RoundRobin)
	ctx := context.Background()
	s, err := leaguefile.Load(s.File, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2,
		Exclude: map[string]entrants.Refusal{"ann": {Name: "ann", Source: "subs/ann.lua", Reason: "failed the pre-flight check", Fix: "fix it"}}})
	if err != nil {
		t.Fatal(err)
	}
	plans, err := planLeagues(ctx, st, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := planVersions(ctx, st, s, plans, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if len(p.versions.replace) != 6 || len(p.pending) != 0 || p.kept != 6 || p.extra != 0 {
		t.Fatalf("replace %d, pending %d, kept %d, extra %d; want ann's 6 superseded, the other 6 kept", len(p.versions.replace), len(p.pending), p.kept, p.extra)
	}
	if c, err := changed(ctx, st, p.l, p.versions); err != nil || len(c) != 0 {
		t.Fatalf("changed = %v, %v; a refused entrant is no change to refuse", c, err)
	}
	if got := strings.Join(p.versions.summary(p), "; "); got != "ann refused this run: 6 stored game(s) superseded, none replayed; 6 stored game(s) kept" {
		t.Errorf("summary %q", got)
	}
	var log strings.Builder
	if err := supersede(ctx, st, plans, &log); err != nil {
		t.Fatal(err)
	}
	old, err := st.SupersededGames(ctx, p.l.Name)
	if err != nil || len(old) != 6 || old[0].Why != "ann refused this run" {
		t.Fatalf("superseded %d games (%v), first %+v", len(old), err, old)
	}
}
