package web_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/web"
	"arena/engine"
	"arena/games/all"
)

// A Swiss league's page says which round is being played, how many of
// its games are stored, and how long the rest of the round would take.
func TestSwissRoundProgress(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "swiss.yaml")
	body := "name: sw\ngame: bohnenspiel\nformat: swiss\nrounds: 3\ngames_per_pairing: 2\noutput: " + filepath.Join(dir, "out") + "\nagents:\n"
	for _, n := range []string{"a", "b", "c", "d"} {
		body += "  - name: " + n + "\n    agent: random\n"
	}
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := leaguefile.Load(file, leaguefile.Options{Registry: all.Registry(), Sources: leaguefile.Sources{NoEnv: true}, Cores: 2})
	if err != nil {
		t.Fatal(err)
	}
	l := spec.Leagues[0]
	_, round1, err := l.Walk(nil)
	if err != nil || len(round1) != 4 {
		t.Fatalf("round 1: %d games, %v", len(round1), err)
	}
	st, err := resultsdb.OpenDir(ctx, spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var agents []results.Agent
	for _, a := range l.Agents {
		agents = append(agents, results.Agent{Name: a.Name, Ref: a.Ref})
	}
	sl := results.League{Name: l.Name, Game: "bohnenspiel", Profile: l.Profile.Name, Format: l.Format, ConfigHash: l.Hash, Config: l.Config}
	if err := st.SaveLeague(ctx, sl, agents, round1); err != nil {
		t.Fatal(err)
	}
	for i, m := range round1[:3] {
		rec := playRecord(t, m.ID, "bohnenspiel", engine.Params{}, m.Seed, m.Seats)
		rec.Started = time.Unix(1700000000+int64(10*i), 0)
		rec.Ended = rec.Started.Add(10 * time.Second)
		if _, err := st.AddGame(ctx, l.Name, rec); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := web.New(all.Registry(), []string{spec.Output}, web.Options{Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	_, page := get(t, hs.URL+"/")
	// Three games in 30 s: the round's last game about 10 s more.
	if !strings.Contains(page, `<strong class="round">round 1 of 3: 3 of 4 games played</strong> <span class="eta">(about 10 s left at the rate so far in this round)</span>`) {
		t.Errorf("no round progress on the page:\n%s", page)
	}
}
