package standings_test

import (
	"strings"
	"testing"

	"arena/arena/league/standings"
	"arena/arena/record"
	"arena/arena/results"
)

func exportGame(id string, res record.Result) results.Game {
	return results.Game{
		Match:  results.Match{League: "cup", ID: id, Pairing: "ann-bob"},
		Record: &record.Game{ID: id, Agents: [2]record.Agent{{Name: "ann"}, {Name: "bob"}}, Result: res},
	}
}

// The games export names the winner whichever seat won, none for a draw
// or a game without a result, and leaves the score columns empty for a
// game without scores.
func TestGamesExportWinnerAndScores(t *testing.T) {
	games := []results.Game{
		exportGame("g1", record.Result{Winner: 0, Scores: []int{40, 32}}),
		exportGame("g2", record.Result{Winner: 1}),
		exportGame("g3", record.Result{Winner: -1, Draw: true, Scores: []int{36, 36}}),
		exportGame("g4", record.Result{Winner: -1, Reason: "no result"}),
	}
	rows := standings.GameRows(games)
	for i, want := range []string{"ann", "bob", "", ""} {
		if rows[i].Winner != want {
			t.Errorf("game %s: winner %q, want %q", rows[i].ID, rows[i].Winner, want)
		}
	}
	var b strings.Builder
	if err := standings.WriteGames(&b, "csv", games); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d CSV lines, want a header and 4 games:\n%s", len(lines), b.String())
	}
	for i, want := range []string{"ann,false,40,32,", "bob,false,,,", ",true,36,36,", ",false,,,no result"} {
		if !strings.Contains(lines[i+1], ","+want+",") {
			t.Errorf("CSV line %q lacks winner,draw,score0,score1,reason %q", lines[i+1], want)
		}
	}
}

// The standings export writes a score as its shortest exact decimal.
func TestStandingsExportScores(t *testing.T) {
	s := &standings.Standings{
		League: results.League{Name: "cup"},
		Rows:   []standings.Row{{Rank: 1, Agent: "ann", Score: 2, Elo: 30}, {Rank: 2, Agent: "bob", Score: 1.5, Elo: -30}},
	}
	var b strings.Builder
	if err := standings.WriteStandings(&b, "csv", []*standings.Standings{s}); err != nil {
		t.Fatal(err)
	}
	want := "league,rank,agent,games,w,d,l,score,elo,elo_lo,elo_hi,timeouts,illegal,crashes\n" +
		"cup,1,ann,0,0,0,0,2,30.0,0.0,0.0,0,0,0\n" +
		"cup,2,bob,0,0,0,0,1.5,-30.0,0.0,0.0,0,0,0\n"
	if b.String() != want {
		t.Errorf("standings CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}
