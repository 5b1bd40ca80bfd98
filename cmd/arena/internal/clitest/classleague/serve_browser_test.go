package classleague

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"arena/arena/web/browsertest"
	"arena/cmd/arena/internal/clitest"
)

// hostileStderr is what the test's Lua agent prints to its stderr: a
// viewer that rendered it as markup would run it.
const hostileStderr = `<script>window.pwned = 1</script>`

// TestViewerInBrowser runs a small league, serves it with `arena serve`
// and drives the pages in headless Chromium: the standings list the
// agents, a game's SVG board has the game's cells, stepping forward
// changes the board (by button and by arrow key), and an agent's stderr
// with <script> in it is shown as text and never runs. With
// ARENA_SCREENSHOTS=DIR it saves the three pages there (docs/viewer.md);
// otherwise into a temporary directory.
func TestViewerInBrowser(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := clitest.BuildArena(t)
	chrome := browsertest.FindChromium()
	if chrome == "" {
		t.Skip("no Chromium found (Debian: apt-get install -y chromium; or set ARENA_CHROMIUM): skipping the browser test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	work := t.TempDir()
	script := filepath.Join(work, "chatty.lua")
	if err := os.WriteFile(script, []byte(`
-- Plays random moves and prints markup to its stderr; in long
-- Bohnenspiel games it finally plays a pit that does not exist.
function choose_move(state, clock)
  print("thinking at ply " .. state:ply() .. " `+hostileStderr+`")
  if state:game() == "bohnenspiel" and state:ply() >= 30 then
    return "PIT " .. state:to_move() .. " 9"
  end
  local moves = state:legal_moves()
  return moves[math.random(#moves)]
end
`), 0o644); err != nil {
		t.Fatal(err)
	}
	leagueFile := filepath.Join(work, "viewer.yaml")
	out := filepath.Join(work, "results")
	if err := os.WriteFile(leagueFile, []byte(fmt.Sprintf(`name: viewer
games:
  - game: cachex
    params:
      n: 5
  - game: bohnenspiel
agents:
  - name: greedy
    agent: builtin:greedy
  - name: random
    agent: builtin:random
  - name: chatty
    agent: lua:%s
format: round-robin
games_per_pairing: 2
seed: 7
output: %s
`, script, out)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := clitest.Arena(t, ctx, bin, "league", "run", leagueFile); r.Err != nil {
		t.Fatalf("league run: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}

	base := startServe(t, ctx, bin, out)

	shots := os.Getenv("ARENA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	actx, acancel := browsertest.Allocator(ctx, chrome, t.TempDir())
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	// Leagues: every agent in both standings tables.
	if err := chromedp.Do(bctx, chromedp.Navigate(base), chromedp.WaitVisible("table.standings")); err != nil {
		t.Fatalf("leagues page: %v", err)
	}
	standings, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("table.standings")).map(t => t.innerText)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(standings) != 2 {
		t.Fatalf("%d standings tables, want 2 (cachex, bohnenspiel)", len(standings))
	}
	for _, table := range standings {
		for _, a := range []string{"greedy", "random", "chatty"} {
			if !strings.Contains(table, a) {
				t.Errorf("standings do not list %s:\n%s", a, table)
			}
		}
	}
	screenshot(t, bctx, filepath.Join(shots, "leagues.png"))

	// Live: more games for the league while the page stays open; the
	// server's events make the page swap in the new standings without a
	// reload (the marker set on this window survives).
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](`window.stillHere = 42`)); err != nil {
		t.Fatal(err)
	}
	if r := clitest.Arena(t, ctx, bin, "league", "run", leagueFile, "--games-per-pairing", "4", "--force"); r.Err != nil {
		t.Fatalf("league run with more games: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	live, err := chromedp.Run(bctx, chromedp.Poll[string](
		`(() => { const p = document.querySelector("section.league .played"); return p && p.textContent === "12 of 12" && window.stillHere === 42 ? p.textContent : null })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil || live != "12 of 12" {
		t.Fatalf("the open leagues page did not update itself to 12 of 12 games: %q %v", live, err)
	}

	// Games of the Cachex league where chatty played.
	gamesURL := base + "games?src=0&league=" + url.QueryEscape("viewer/cachex") + "&agent=chatty"
	if err := chromedp.Do(bctx, chromedp.Navigate(gamesURL), chromedp.WaitVisible("table.games")); err != nil {
		t.Fatalf("games page: %v", err)
	}
	links, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("table.games a")).map(a => a.href)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 8 {
		t.Fatalf("chatty's Cachex games: %d listed, want 8", len(links))
	}

	// Bohnenspiel games where chatty's made-up pit cost it the game.
	pitURL := base + "games?src=0&league=" + url.QueryEscape("viewer/bohnenspiel") + "&agent=chatty&penalty=illegal"
	if err := chromedp.Do(bctx, chromedp.Navigate(pitURL), chromedp.WaitVisible("table.games")); err != nil {
		t.Fatalf("games page: %v", err)
	}
	illegal, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("table.games tr.penalty a")).map(a => a.href)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(illegal) == 0 {
		t.Fatal("no Bohnenspiel game of chatty's with an illegal move listed by the penalty filter")
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(base+"games?src=0&league="+url.QueryEscape("viewer/bohnenspiel")), chromedp.WaitVisible("table.games")); err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, filepath.Join(shots, "games.png"))

	// One game: an SVG board with the 25 cells of a 5×5 rhombus.
	if err := chromedp.Do(bctx, chromedp.Navigate(links[0]), chromedp.WaitVisible("#viewer .frame:not([hidden]) svg")); err != nil {
		t.Fatalf("game page: %v", err)
	}
	cells, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#viewer .frame:not([hidden]) svg .cell").length`))
	if err != nil || cells != 25 {
		t.Fatalf("visible board has %d cells (%v), want 25", cells, err)
	}
	board := func() string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#viewer .frame:not([hidden]) svg").outerHTML`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	label := func() string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text("#plylabel"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	start := board()
	if got := label(); !regexp.MustCompile(`^0 / \d+$`).MatchString(got) {
		t.Fatalf("ply label %q at the start", got)
	}
	if err := chromedp.Do(bctx, chromedp.Click("#next")); err != nil {
		t.Fatal(err)
	}
	one := board()
	if one == start || !strings.HasPrefix(label(), "1 / ") {
		t.Fatalf("the step button did not move to ply 1 (label %q, board changed %v)", label(), one != start)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if two := board(); two == one || !strings.HasPrefix(label(), "2 / ") {
		t.Fatalf("the right arrow key did not move to ply 2 (label %q)", label())
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if back := board(); back != one {
		t.Fatal("the left arrow key did not go back to ply 1")
	}

	// chatty's stderr: shown as text, never run.
	tails, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("pre.stderr")).map(p => p.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(tails, "\n"), hostileStderr) {
		t.Fatalf("chatty's stderr is not shown as text: %q", tails)
	}
	ran, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.pwned === 1 || document.querySelectorAll("pre.stderr script, main script").length > 0`))
	if err != nil || ran {
		t.Fatalf("the stderr's <script> became markup (ran or parsed: %v, %v)", ran, err)
	}

	// The illegal move's game: at the last ply the penalty is highlighted
	// with the course's reason.
	if err := chromedp.Do(bctx, chromedp.Navigate(illegal[0]), chromedp.WaitVisible("#viewer"), chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	detail, err := chromedp.Run(bctx, chromedp.Text("#viewer .frame:not([hidden]) .moveinfo.penalty"))
	if err != nil || !strings.Contains(detail, "illegal") {
		t.Fatalf("last ply of a game lost by an illegal move: %q (%v)", detail, err)
	}
	screenshot(t, bctx, filepath.Join(shots, "game.png"))
	t.Logf("screenshots in %s", shots)
}

// startServe starts `arena serve DIR` on a free loopback port and returns
// its URL; the server is stopped when the test ends.
func startServe(t *testing.T, ctx context.Context, bin, dir string) string {
	t.Helper()
	sctx, stop := context.WithCancel(ctx)
	cmd := exec.CommandContext(sctx, bin, "serve", "--addr", "127.0.0.1:0", dir)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	go io.Copy(io.Discard, stdout)
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if err != nil || m == "" {
		t.Fatalf("arena serve did not print its URL: %q %v\n%s", line, err, errb.String())
	}
	return m
}

func screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
