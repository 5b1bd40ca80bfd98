package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/web"
	"arena/arena/web/browsertest"
	"arena/engine"
	"arena/games/all"
)

// browserGames are the five games the browser test serves, a league each.
var browserGames = []struct {
	game   string
	params engine.Params
}{
	{"cachex", engine.Params{"n": "5"}},
	{"pentago-twist", nil},
	{"dots-and-boxes", nil},
	{"bohnenspiel", nil},
	{"hex-crossout", nil},
}

// browserStore writes a league of three games for each of the five games
// and returns the directory and the first game's record of each.
func browserStore(t *testing.T) (string, []*record.Game) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "demo")
	st, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	agents := [2]string{"greedy", "random"}
	var firsts []*record.Game
	for _, bg := range browserGames {
		g, err := all.Registry().Lookup(bg.game)
		if err != nil {
			t.Fatal(err)
		}
		prof, _ := g.Profile(bg.params)
		l := results.League{Name: "demo/" + bg.game, Game: bg.game, Params: map[string]string(bg.params), Profile: prof.Name, Format: "round-robin"}
		var matches []results.Match
		for i := 0; i < 4; i++ {
			seats := [2]string{agents[i%2], agents[1-i%2]}
			matches = append(matches, results.Match{ID: fmt.Sprintf("%s/g%03d", l.Name, i), League: l.Name, Pairing: "greedy-vs-random", Index: i, Seq: i, Seats: seats, Seed: uint64(i + 11)})
		}
		if err := st.SaveLeague(ctx, l, []results.Agent{{Name: agents[0], Ref: "builtin:greedy"}, {Name: agents[1], Ref: "builtin:random"}}, matches); err != nil {
			t.Fatal(err)
		}
		for i, m := range matches[:3] {
			rec := playRecordWith(t, m.ID, bg.game, bg.params, m.Seed, m.Seats,
				[2]string{"searching depth 3\n", "seed " + fmt.Sprint(m.Seed) + "\n"}, "replied after the limit", "")
			if _, err := st.AddGame(ctx, l.Name, rec); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				firsts = append(firsts, rec)
			}
		}
	}
	return dir, firsts
}

// TestViewerFlowInBrowser drives the viewer as a person does, in headless
// Chromium: the leagues page with its table of contents, a league's games,
// one game played to its end by autoplay, the keys, the downloaded file
// opened offline and played there too. With ARENA_SCREENSHOTS=DIR it saves
// the pages and every game's board in the middle and at the end there
// (arena/web/screenshots regenerates docs/img so); without it, only the
// games page, into a temporary folder.
func TestViewerFlowInBrowser(t *testing.T) {
	if testing.Short() {
		// Starting and driving Chromium is minutes on a busy machine; the
		// pages' HTML is checked by the other tests here.
		t.Skip("drives a headless Chromium: runs without -short")
	}
	chrome := browsertest.FindChromium()
	if chrome == "" {
		t.Skip("no Chromium found (Debian: apt-get install -y chromium; or set ARENA_CHROMIUM): skipping the browser test")
	}
	// Every screenshot only when asked for (screenshots.sh): unasked,
	// nobody looks at them, and they were a third of the test's time.
	// One is always taken, so the script's path keeps working.
	shots, every := os.Getenv("ARENA_SCREENSHOTS"), true
	if shots == "" {
		shots, every = t.TempDir(), false
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, firsts := browserStore(t)
	srv, err := web.New(all.Registry(), []string{dir}, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	profile := t.TempDir()
	b, stop, err := browsertest.Start(ctx, chrome, profile)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// Chromium's single-instance folder, which a killed Chromium leaves
	// behind, is in the profile (removed with it), not in /tmp.
	if m, _ := filepath.Glob(filepath.Join(profile, "org.chromium.*")); len(m) == 0 {
		t.Errorf("no org.chromium.* folder in the profile %s: Chromium's temporary files went elsewhere", profile)
	}
	shot := func(path string, always bool) {
		t.Helper()
		if every || always {
			takeShot(t, b, path)
		}
	}

	// The leagues: five, so a table of contents.
	run(t, b, "leagues page", chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible("nav.toc"))
	if n := eval[int](t, b, `document.querySelectorAll("nav.toc li").length`); n != len(browserGames) {
		t.Errorf("table of contents lists %d leagues, want %d", n, len(browserGames))
	}
	shot(filepath.Join(shots, "leagues.png"), false)

	// A league's games, then its first game.
	run(t, b, "games page", chromedp.Click(`section#league-0 a[href^="/games"]`, chromedp.NodeVisible), chromedp.WaitVisible("table.games"))
	shot(filepath.Join(shots, "games.png"), true)
	run(t, b, "game page", chromedp.Click(`table.games a[href^="/game?"]`, chromedp.NodeVisible), chromedp.WaitVisible("#viewer"))
	playToEnd(t, b, "the game page", chromedp.Click("#play"))

	// The keys: ← one back, Home, End, space plays from the start.
	last := eval[int](t, b, `parseInt(document.getElementById("viewer").dataset.last, 10)`)
	run(t, b, "arrow left", chromedp.KeyEvent(kb.ArrowLeft))
	if p := ply(t, b); p != last-1 {
		t.Errorf("← at the end shows move %d, want %d", p, last-1)
	}
	run(t, b, "home", chromedp.KeyEvent(kb.Home))
	if p := ply(t, b); p != 0 {
		t.Errorf("Home shows move %d", p)
	}
	run(t, b, "end", chromedp.KeyEvent(kb.End))
	if p := ply(t, b); p != last {
		t.Errorf("End shows move %d, want %d", p, last)
	}
	run(t, b, "space", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(" "))
	if eval[string](t, b, `document.getElementById("viewer").dataset.playing`) != "1" {
		t.Error("space does not start the autoplay")
	}
	run(t, b, "space again", chromedp.KeyEvent(" "))
	if eval[string](t, b, `document.getElementById("viewer").dataset.playing`) != "" {
		t.Error("space does not pause the autoplay")
	}

	// The download, opened from a file with nothing to fetch.
	href := eval[string](t, b, `document.querySelector("a.download").href`)
	code, file := get(t, href)
	if code != 200 {
		t.Fatalf("download: %d", code)
	}
	path := filepath.Join(t.TempDir(), "game.html")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, b, "the downloaded file", chromedp.Navigate("file://"+path), chromedp.WaitVisible("#viewer"))
	// Nothing fetched: no script, style, image or stream from anywhere.
	if n := eval[int](t, b, `performance.getEntriesByType("resource").length`); n != 0 {
		t.Errorf("the downloaded file fetched %d resources", n)
	}
	if n := eval[int](t, b, `document.querySelectorAll(".frame svg").length`); n != last+1 {
		t.Errorf("the file has %d boards, want %d", n, last+1)
	}
	playToEnd(t, b, "the downloaded file", chromedp.KeyEvent(" "))

	// Every game's board in the middle and at the end, from the file's
	// pages (the stylesheet and the marks are the same as the server's).
	for i, rec := range firsts {
		code, file := getFile(t, srv, rec.ID)
		if code != 200 {
			t.Fatalf("%s: download %d", rec.Game, code)
		}
		p := filepath.Join(t.TempDir(), fmt.Sprintf("g%d.html", i))
		if err := os.WriteFile(p, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		n := len(rec.Moves)
		run(t, b, rec.Game, chromedp.Navigate("file://"+p+"#ply="+fmt.Sprint(n/2)), chromedp.WaitVisible("#viewer"))
		if got := ply(t, b); got != n/2 {
			t.Errorf("%s: #ply=%d shows move %d", rec.Game, n/2, got)
		}
		if eval[int](t, b, `document.querySelectorAll(".frame:not([hidden]) .lastmove").length`) == 0 {
			t.Errorf("%s: no last-move mark on the board", rec.Game)
		}
		shot(filepath.Join(shots, "game-"+rec.Game+"-middle.png"), false)
		run(t, b, rec.Game+" end", chromedp.KeyEvent(kb.End))
		shot(filepath.Join(shots, "game-"+rec.Game+"-end.png"), false)
	}
	t.Logf("screenshots in %s", shots)
}

// getFile downloads a game through a fresh server of the same viewer.
func getFile(t *testing.T, srv *web.Server, id string) (int, string) {
	t.Helper()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	return get(t, hs.URL+"/download?src=0&id="+url.QueryEscape(id))
}

// playToEnd picks the fastest speed, presses play (press: the button or
// the space bar) and waits for the last
// move (a generous wait: the machine may be loaded).
func playToEnd(t *testing.T, b context.Context, what string, press chromedp.Action[chromedp.Void]) {
	t.Helper()
	run(t, b, what+": speed", chromedp.SetValue("#speed", "100"))
	run(t, b, what+": play", press)
	wait, cancel := context.WithTimeout(b, 2*time.Minute)
	defer cancel()
	_, err := chromedp.Run(wait, chromedp.Poll[bool](`(function () {
		var v = document.getElementById("viewer");
		return v.dataset.ply === v.dataset.last && v.dataset.playing === "" ? true : null;
	})()`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil {
		t.Fatalf("%s: autoplay did not reach the end (at move %d): %v", what, ply(t, b), err)
	}
	if !strings.Contains(eval[string](t, b, `document.getElementById("play").textContent`), "play") {
		t.Errorf("%s: the button does not offer play again at the end", what)
	}
}

func ply(t *testing.T, b context.Context) int {
	t.Helper()
	return eval[int](t, b, `parseInt(document.getElementById("viewer").dataset.ply, 10)`)
}

func run(t *testing.T, b context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func eval[T any](t *testing.T, b context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(b, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// takeShot saves the page as a PNG at path.
func takeShot(t *testing.T, b context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(b, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot %s: not a PNG (%d bytes)", path, len(png))
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
