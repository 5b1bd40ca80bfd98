package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// A resubmission's superseded games are listed apart on the games page,
// with the reason, and open like any game; they are not among the counted
// games.
func TestSupersededGamesListed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id := f.recs[0].ID
	if n, err := f.store.Supersede(ctx, "lg/cachex", []string{id}, "alpha resubmitted: hash aaa -> bbb"); err != nil || n != 1 {
		t.Fatalf("supersede: %d %v", n, err)
	}
	_, page := get(t, f.srv.URL+"/games?src=0&league="+url.QueryEscape("lg/cachex"))
	i := strings.Index(page, "Superseded games")
	if i < 0 {
		t.Fatalf("no superseded games section:\n%s", page)
	}
	old := page[i:]
	if !strings.Contains(old, "alpha resubmitted: hash aaa -&gt; bbb") || !strings.Contains(old, ">"+id+"</td>") || !strings.Contains(old, id+"~superseded-1") {
		t.Errorf("the superseded game is not listed with its reason:\n%s", old)
	}
	if strings.Contains(page[:i], ">"+id+"~superseded") {
		t.Error("the superseded game is among the counted games")
	}
	if code, game := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(id+"~superseded-1")); code != 200 || !strings.Contains(game, "<svg") {
		t.Errorf("the superseded game does not open: %d", code)
	}
	// Filtered to an agent that played none of them: none listed.
	if _, page := get(t, f.srv.URL+"/games?src=0&league="+url.QueryEscape("lg/cachex")+"&agent=nobody"); strings.Contains(page, "Superseded games") {
		t.Error("an agent filter does not apply to the superseded games")
	}
}
