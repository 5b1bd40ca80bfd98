package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/web"
	"arena/engine"
	"arena/games/all"
)

// The penalty table, the move list, the move's own line and the time
// chart's bar all give a penalty the same move number.
func TestOneNumberingOfMoves(t *testing.T) {
	f := newFixture(t)
	rec := f.recs[0]
	_, body := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(rec.ID))
	// playRecord gives the record's fourth move (index 3) its penalty.
	const move = 4
	if rec.Events[0].Ply == move {
		t.Fatalf("the fixture's event ply %d equals the move number: the test would not tell them apart", move)
	}
	row := regexp.MustCompile(`<tr class="penalty"><td><a href="#ply=(\d+)" class="jump" data-ply="(\d+)">(\d+)</a>`).FindStringSubmatch(body)
	if row == nil || row[1] != strconv.Itoa(move) || row[3] != strconv.Itoa(move) {
		t.Errorf("penalty table numbers the move %v, want %d", row, move)
	}
	if !strings.Contains(body, `<li data-ply="4" class="penalty">`) {
		t.Error("the move list does not mark move 4 as the penalty")
	}
	if !regexp.MustCompile(`<g class="bar penalty" data-ply="4">`).MatchString(body) {
		t.Error("the time chart does not mark bar 4 as the penalty")
	}
	if !regexp.MustCompile(`<rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" class="hit"><title>4\. `).MatchString(body) {
		t.Error("the time chart's bar titles do not number moves as the list")
	}
}

// Penalty marks are drawn in the penalty colour, which no seat uses, and
// the legend says what each mark is.
func TestPenaltyMarksUseTheirOwnColour(t *testing.T) {
	f := newFixture(t)
	_, body := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(f.recs[0].ID))
	if strings.Contains(body, "red marks") {
		t.Error("the legend still calls penalties red, the colour of seat 0")
	}
	if !strings.Contains(body, `class="pmark"`) || !strings.Contains(body, `<span class="key pen"></span> ▼ a penalty`) {
		t.Error("no penalty marker or no legend for it")
	}
	_, css := get(t, f.srv.URL+"/static/style.css")
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z0-9]+): (#[0-9a-f]{6})`).FindAllStringSubmatch(css, -1) {
		vars[m[1]] = m[2]
	}
	pen := vars["pen"]
	if pen == "" || pen == vars["s0"] || pen == vars["s1"] || pen == vars["bad"] {
		t.Errorf("penalty colour %q, seats %q %q", pen, vars["s0"], vars["s1"])
	}
	if !strings.Contains(css, "svg.chart .pmark { fill: var(--pen); }") {
		t.Error("the chart's penalty marker is not in the penalty colour")
	}
}

// Chart labels are at least 11 px: their font sizes, and the charts never
// scaled below their own width.
func TestChartLabelsLegible(t *testing.T) {
	f := newFixture(t)
	_, css := get(t, f.srv.URL+"/static/style.css")
	for _, m := range regexp.MustCompile(`svg\.chart[^{]*\{[^}]*font-size: (\d+)px`).FindAllStringSubmatch(css, -1) {
		if n, _ := strconv.Atoi(m[1]); n < 11 {
			t.Errorf("chart label of %d px: %s", n, m[0])
		}
	}
	if !strings.Contains(css, "min-width: 640px") {
		t.Error("charts may be scaled below their 640-unit width")
	}
	_, body := get(t, f.srv.URL+"/")
	for _, m := range regexp.MustCompile(`<svg class="chart[^"]*" viewBox="0 0 (\d+) `).FindAllStringSubmatch(body, -1) {
		if m[1] != "640" {
			t.Errorf("a chart %s units wide, the stylesheet keeps 640 px", m[1])
		}
	}
}

var externalRef = regexp.MustCompile(`(?i)\b(src|href|action)\s*=\s*["']?\s*(https?:|//|/)|url\(`)

// The downloaded game is one file: every move's board, the moves, times,
// penalties, stderr and the autoplay script, and nothing it would fetch.
func TestDownloadIsSelfContained(t *testing.T) {
	f := newFixture(t)
	rec := f.recs[1]
	resp, body := get(t, f.srv.URL+"/download?src=0&id="+url.QueryEscape(rec.ID))
	if resp != 200 {
		t.Fatalf("download: %d\n%s", resp, body)
	}
	if m := externalRef.FindString(body); m != "" {
		t.Errorf("the file refers outside itself: %q", m)
	}
	if strings.Count(body, "<svg") < len(rec.Moves)+1 {
		t.Errorf("%d boards, want one per move and the start (%d)", strings.Count(body, "<svg"), len(rec.Moves)+1)
	}
	for i := 0; i <= len(rec.Moves); i++ {
		if !strings.Contains(body, `<div class="frame" data-ply="`+strconv.Itoa(i)+`"`) {
			t.Errorf("no board for move %d", i)
		}
	}
	for _, want := range []string{
		"<style>", ":root {", // the stylesheet inline
		`<script>// The viewer's only script`, `id="play"`, `id="speed"`, // autoplay inline
		"replied late &lt;script&gt;", "debug &lt;script&gt;alert", // penalty detail and stderr, escaped
		rec.Moves[len(rec.Moves)-1].Text, "limit ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the file lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>alert") {
		t.Error("agent text unescaped in the file")
	}
	if strings.Contains(body, "data-live") {
		t.Error("the file would open an event stream")
	}
	// And the page offers it.
	_, page := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(rec.ID))
	if !strings.Contains(page, `href="/download?src=0&amp;id=`+url.QueryEscape(rec.ID)) && !strings.Contains(page, `class="download"`) {
		t.Error("the game page has no download link")
	}
}

// web.GameFile writes the same file as the download, for pages built
// without a server (feedback pages).
func TestGameFileIsTheDownload(t *testing.T) {
	f := newFixture(t)
	rec, _, err := f.store.Record(context.Background(), f.recs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv.URL+"/download?src=0&id="+url.QueryEscape(rec.ID))
	var b strings.Builder
	if err := web.GameFile(&b, all.Registry(), rec, "lg/cachex", "arena"); err != nil {
		t.Fatal(err)
	}
	if b.String() != body {
		g, d := b.String(), body
		i := 0
		for i < len(g) && i < len(d) && g[i] == d[i] {
			i++
		}
		t.Errorf("GameFile differs from the download at byte %d: %q against %q", i, g[max(0, i-80):min(len(g), i+80)], d[max(0, i-80):min(len(d), i+80)])
	}
}

// Two leagues get a table of contents; a timeout marked possibly
// contention is noted on the league and on the game.
func TestContentsAndContentionNotes(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	l := results.League{Name: "lg/second", Game: "cachex", Params: map[string]string{"n": "4"}, Profile: "comp30024-2022", Format: "round-robin"}
	m := results.Match{ID: "lg/second/m0", League: l.Name, Pairing: "gamma-vs-delta", Seats: [2]string{"gamma", "delta"}, Seed: 9}
	if err := f.store.SaveLeague(ctx, l, []results.Agent{{Name: "gamma", Ref: "builtin:random"}, {Name: "delta", Ref: "builtin:random"}}, []results.Match{m}); err != nil {
		t.Fatal(err)
	}
	rec := playRecord(t, m.ID, "cachex", engine.Params{"n": "4"}, 9, m.Seats)
	cpu := 2.0
	rec.Events[0].Kind, rec.Events[0].Penalty = "timeout", "random-move"
	rec.Events[0].Evidence = &record.Evidence{WallMS: 900, MoveCPUMS: &cpu, Load: 9, Runnable: 9, CPUs: 2, PossiblyContention: true}
	if _, err := f.store.AddGame(ctx, l.Name, rec); err != nil {
		t.Fatal(err)
	}
	_, body := get(t, f.srv.URL+"/")
	if !strings.Contains(body, `<nav class="toc"`) || !strings.Contains(body, `href="#league-1">lg/second</a>`) || !strings.Contains(body, `id="league-1"`) {
		t.Error("no table of contents for two leagues")
	}
	if !regexp.MustCompile(`class="contention">[a-z]+: 1 of its 1 timeout\(s\) possibly contention`).MatchString(body) {
		t.Error("the league does not note the timeout possibly contention")
	}
	_, game := get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(rec.ID))
	if !strings.Contains(game, "1 late move(s) in this game possibly contention") || !strings.Contains(game, `<span class="tag contention">possibly contention</span>`) {
		t.Error("the game does not note its move possibly contention")
	}
}

// One league alone needs no table of contents.
func TestNoContentsForOneLeague(t *testing.T) {
	f := newFixture(t)
	_, body := get(t, f.srv.URL+"/")
	if strings.Contains(body, `<nav class="toc"`) {
		t.Error("a table of contents for a single league")
	}
}

// An unfinished league says how long its other games would take at the
// rate so far: the fixture's three games span 10 s, one is left.
func TestLeagueProgressAndETA(t *testing.T) {
	f := newFixture(t)
	_, body := get(t, f.srv.URL+"/")
	if !strings.Contains(body, `<progress value="3" max="4">`) {
		t.Error("no progress bar of 3 of 4 games")
	}
	if !strings.Contains(body, `<span class="eta">about 3 s left at the rate so far</span>`) {
		t.Errorf("no ETA:\n%s", body)
	}
}
