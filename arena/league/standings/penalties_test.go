package standings_test

import (
	"bytes"
	"strings"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/record"
	"arena/arena/results"
)

// Games decided by the dead-agent rule (turns skipped) are marked in the
// standings, with who had turns skipped.
func TestStandingsMarkSkippedGames(t *testing.T) {
	game := func(id string, skippedSeat int, winner int) results.Game {
		rec := &record.Game{Schema: record.SchemaVersion, ID: id, Game: "hex-crossout",
			Agents: [2]record.Agent{{Name: "crasher"}, {Name: "steady"}},
			Result: record.Result{Winner: winner}}
		rec.Moves = append(rec.Moves, record.Move{Ply: 0, Seat: 0, Source: record.SourceAgent, Text: "0,0,1,1"})
		if skippedSeat >= 0 {
			rec.Moves = append(rec.Moves, record.Move{Ply: 1, Seat: skippedSeat, Source: record.SourceSkip})
		}
		return results.Game{Match: results.Match{ID: id, Pairing: "crasher-vs-steady"}, Record: rec}
	}
	l := results.League{Name: "hex", Game: "hex-crossout", Profile: "nycu-aicap-2023", Format: leaguefile.RoundRobin,
		Overrides: []string{"penalty.dead: skip-turn -> loss"}}
	s := standings.Compute(l, []string{"crasher", "steady"}, 3, []results.Game{game("a", 0, 0), game("b", -1, 1), game("c", 0, 0)})
	if s.Skipped != 2 {
		t.Fatalf("%d skipped games, want 2", s.Skipped)
	}
	var buf bytes.Buffer
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"override penalty.dead: skip-turn -> loss", "crasher *", "steady *", "* 2 game(s) decided with a dead agent's turns skipped", "crasher 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("standings lack %q:\n%s", want, out)
		}
	}
	rows := standings.GameRows([]results.Game{game("a", 0, 0), game("b", -1, 1)})
	if len(rows[0].Skipped) != 1 || rows[0].Skipped[0] != "crasher" || rows[1].Skipped != nil {
		t.Errorf("games export marks %v and %v", rows[0].Skipped, rows[1].Skipped)
	}
	buf.Reset()
	if err := standings.WriteStandings(&buf, "json", []*standings.Standings{s}); err != nil || !strings.Contains(buf.String(), `"skipped_games": 2`) {
		t.Errorf("standings JSON lacks the skipped games (%v):\n%s", err, buf.String())
	}
}
