package feedback_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arena/arena/feedback"
	"arena/arena/web/browsertest"
	"arena/games/all"
)

// A feedback page opened from disk in headless Chromium unpacks a game
// into its frame when, and only when, the game is opened: the frame then
// holds exactly the viewer's page of that game (which arena/web's browser
// test plays offline).
func TestFeedbackGamesUnpackInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a headless Chromium: runs without -short")
	}
	chrome := browsertest.FindChromium()
	if chrome == "" {
		t.Skip("no Chromium found (Debian: apt-get install -y chromium; or set ARENA_CHROMIUM): skipping the browser test")
	}
	st, name := store(t)
	p, err := feedback.Build(context.Background(), st, []string{name}, "student", feedback.Options{Registry: all.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "student.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := packedGames(t, string(page))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, stop, err := browsertest.Start(ctx, chrome, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, scancel := context.WithTimeout(b, time.Minute)
		defer scancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	srcdoc := func(i int) string {
		t.Helper()
		return eval(t, b, `document.querySelectorAll("iframe.game")[`+strconv.Itoa(i)+`].srcdoc`)
	}
	step("open the page", chromedp.Navigate("file://"+file))
	if h := eval(t, b, `document.querySelector("h1").textContent`); h != "Feedback for student" {
		t.Fatalf("the page opened from disk shows %q", h)
	}
	if got := srcdoc(0) + srcdoc(1); got != "" {
		t.Fatalf("games unpacked before they were opened: %d bytes", len(got))
	}
	step("open the second game", chromedp.Click(`details:nth-of-type(2) summary`, chromedp.NodeVisible))
	pctx, pcancel := context.WithTimeout(b, time.Minute)
	defer pcancel()
	if _, err := chromedp.Run(pctx, chromedp.Poll[bool](`document.querySelectorAll("iframe.game")[1].srcdoc.length > 0`)); err != nil {
		t.Fatalf("the opened game was not unpacked: %v", err)
	}
	if got := srcdoc(1); got != want[1] {
		t.Fatalf("the opened frame holds %d bytes, want the viewer's page of %d bytes: %.200q", len(got), len(want[1]), got)
	}
	if got := srcdoc(0); got != "" {
		t.Fatalf("the first game, not opened, was unpacked too (%d bytes)", len(got))
	}
}

func eval(t *testing.T, b context.Context, js string) string {
	t.Helper()
	v, err := chromedp.Run(b, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}
