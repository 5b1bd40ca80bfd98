package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/arena/results"
	"arena/engine"
)

// A game played from an opening says so on its page: which opening and
// its moves, and each of its moves marked as the opening's in the move
// list and on its frame.
func TestGamePageMarksTheOpening(t *testing.T) {
	f := newFixture(t)
	rec := playRecord(t, "lg/cachex/m3", "cachex", engine.Params{"n": "4"}, 4, [2]string{"beta" + evil, "alpha"})
	rec.Moves[0].Source, rec.Moves[1].Source = record.SourceOpening, record.SourceOpening
	rec.Opening = &record.Opening{Index: 7, Moves: []string{rec.Moves[0].Text, rec.Moves[1].Text}}
	if _, err := f.store.AddGame(context.Background(), "lg/cachex", rec); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(rec.ID))
	want := "opening 7 of the league's suite, its 2 move(s) played by the referee before the agents' first: <code>" + rec.Moves[0].Text + "; " + rec.Moves[1].Text + "</code>"
	if !strings.Contains(body, want) {
		t.Errorf("the page does not name the opening (%q)", want)
	}
	for _, ply := range []string{"1", "2"} {
		if !strings.Contains(body, `<li data-ply="`+ply+`" class="opening">`) {
			t.Errorf("the move list does not mark move %s as the opening's", ply)
		}
	}
	if strings.Contains(body, `<li data-ply="3" class="opening">`) {
		t.Error("the move list marks move 3, an agent's, as the opening's")
	}
	if n := strings.Count(body, `<span class="tag opening">opening</span>`); n != 4 {
		t.Errorf("%d opening tags, want 2 on the frames and 2 in the list", n)
	}
	_, plain := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(f.recs[0].ID))
	if strings.Contains(plain, "class=\"meta opening\"") || strings.Contains(plain, "tag opening") {
		t.Error("a game from the start is marked with an opening")
	}
}

// A league played from an opening suite names it on the leagues page.
func TestLeaguesPageNamesTheSuite(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	l := results.League{Name: "lg/cachex", Game: "cachex", Params: map[string]string{"n": "4"}, Profile: "comp30024-2022", Format: "round-robin",
		Config: `{"openings":{"count":3,"sha256":"0123456789abcdef"}}`, ConfigHash: "h"}
	if err := f.store.SaveLeague(ctx, l, []results.Agent{{Name: "alpha", Ref: "builtin:random"}, {Name: "beta" + evil, Ref: "builtin:random"}}, nil); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv.URL+"/")
	if !strings.Contains(body, `<p class="meta opening">openings: 3 from a file (sha256 0123456789ab), each played with both colours`) {
		t.Error("the leagues page does not name the opening suite")
	}
}
