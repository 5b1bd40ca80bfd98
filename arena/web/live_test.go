package web_test

import (
	"strings"
	"testing"

	"arena/arena/league/live"
	"arena/engine"
)

// A game in progress is on the leagues page with its board now, and a
// move of it sends pages with live boards a "moves" event (not an
// "update", which every live page answers by fetching itself again).
func TestRunningGamesOnTheLeaguesPage(t *testing.T) {
	f := newFixture(t)
	w, err := live.Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := playRecord(t, "lg/cachex/m3", "cachex", engine.Params{"n": "4"}, 4, [2]string{"beta" + evil, "alpha"})
	rec.Moves = rec.Moves[:3]
	rec.Final, rec.Events = "", nil
	w.Update("lg/cachex", rec)

	_, body := get(t, f.srv.URL+"/")
	if !strings.Contains(body, "Running now") || !strings.Contains(body, `data-game="lg/cachex/m3"`) || !strings.Contains(body, "3 move(s), last "+rec.Moves[2].Text) {
		t.Fatalf("no running game on the page:\n%s", body)
	}
	i := strings.Index(body, `data-game="lg/cachex/m3"`)
	fig := body[i : i+strings.Index(body[i:], "</figure>")]
	if !strings.Contains(fig, "<svg") || strings.Contains(fig, evil) || !strings.Contains(fig, " to move") {
		t.Errorf("the running game's figure:\n%s", fig)
	}
	if !strings.Contains(body, `data-live-moves="1"`) {
		t.Error("the leagues page does not listen for moves")
	}
	if _, games := get(t, f.srv.URL+"/games?src=0&league=lg/cachex"); strings.Contains(games, `data-live-moves`) {
		t.Error("the games list fetches itself again on every move")
	}

	next := events(t, f.srv.URL)
	w.Done(rec.ID)
	if ev := next(); ev != "moves" {
		t.Fatalf("after the game left: event %q, want moves", ev)
	}
	if _, body = get(t, f.srv.URL+"/"); strings.Contains(body, "Running now") {
		t.Error("an ended game is still running on the page")
	}
}
