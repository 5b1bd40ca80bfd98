package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/arena/web"
	"arena/engine"
	"arena/engine/enginetest"
	"arena/games/all"
)

const evil = `<script>alert("pwned")</script>`

// playRecord plays a random game of the game to the end and returns its
// record, with a penalty event and hostile stderr for seat 1.
func playRecord(t *testing.T, id, game string, params engine.Params, seed uint64, agents [2]string) *record.Game {
	t.Helper()
	return playRecordWith(t, id, game, params, seed, agents, [2]string{"thinking...\n", "debug " + evil + "\n"}, "replied late "+evil, evil)
}

// playRecordWith is playRecord with the stderr tails and the late reply's
// detail and text given; move times vary with the seed.
func playRecordWith(t *testing.T, id, game string, params engine.Params, seed uint64, agents [2]string, stderr [2]string, detail, reply string) *record.Game {
	t.Helper()
	g, err := all.Registry().Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.NewState(params)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.Profile(params)
	rec := &record.Game{
		Schema: record.SchemaVersion, ID: id, Game: game, Params: params, Profile: p.Name, Seed: seed,
		Agents: [2]record.Agent{{Name: agents[0], Ref: "builtin:random"}, {Name: agents[1], Ref: "builtin:random"}},
		Start:  st.Text(), Started: time.Unix(1700000000, 0), Ended: time.Unix(1700000010, 0),
		Stderr: stderr,
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var buf []engine.Move
	for !st.Terminal() {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(st, r, buf)
		seat := st.ToMove()
		src := record.SourceAgent
		if len(rec.Moves) == 3 {
			src = record.SourceRandom
			rec.Events = append(rec.Events, record.Event{Ply: st.Ply(), Seat: seat, Kind: "late", Penalty: "random-move", Detail: detail, Reply: reply})
		}
		rec.Moves = append(rec.Moves, record.Move{Ply: st.Ply(), Seat: seat, Text: st.FormatMove(m), Source: src, WallMS: 10 + float64(len(rec.Moves)) + 40*r.Float64()})
		st.Apply(m)
	}
	res := st.Result()
	rec.Result = record.Result{Winner: res.Winner, Draw: res.Draw, Reason: res.Reason}
	if res.Winner < 0 && !res.Draw {
		rec.Result.Winner = -1
	}
	rec.Result.Scores = []int{res.Scores[0], res.Scores[1]}
	rec.Final = st.Text()
	return rec
}

type fixture struct {
	dir   string
	store *resultsdb.SQLite
	srv   *httptest.Server
	recs  []*record.Game
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "lg")
	st, err := resultsdb.OpenDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	agents := []string{"alpha", "beta" + evil}
	l := results.League{Name: "lg/cachex", Game: "cachex", Params: map[string]string{"n": "4"}, Profile: "comp30024-2022", Format: "round-robin"}
	var matches []results.Match
	for i := 0; i < 4; i++ {
		seats := [2]string{agents[i%2], agents[1-i%2]}
		matches = append(matches, results.Match{ID: fmt.Sprintf("lg/cachex/m%d", i), League: l.Name, Pairing: "alpha-vs-beta", Index: i, Seq: i, Seats: seats, Seed: uint64(i + 1)})
	}
	if err := st.SaveLeague(ctx, l, []results.Agent{{Name: agents[0], Ref: "builtin:random"}, {Name: agents[1], Ref: "builtin:random"}}, matches); err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, store: st}
	for _, m := range matches[:3] {
		rec := playRecord(t, m.ID, "cachex", engine.Params{"n": "4"}, m.Seed, m.Seats)
		if _, err := st.AddGame(ctx, l.Name, rec); err != nil {
			t.Fatal(err)
		}
		f.recs = append(f.recs, rec)
	}
	srv, err := web.New(all.Registry(), []string{dir}, web.Options{Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	f.srv = httptest.NewServer(srv.Handler())
	t.Cleanup(f.srv.Close)
	return f
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestPagesEscapeAgentText(t *testing.T) {
	f := newFixture(t)
	code, body := get(t, f.srv.URL+"/")
	if code != 200 || !strings.Contains(body, "alpha") || !strings.Contains(body, "3 of 4") {
		t.Fatalf("leagues page: %d\n%s", code, body)
	}
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert") {
		t.Fatal("an agent name with <script> is not escaped on the leagues page")
	}
	if n := strings.Count(body, `class="point"`); n != 2 {
		t.Errorf("rating chart has %d points, want one per agent (2)", n)
	}

	rec := f.recs[0]
	code, body = get(t, f.srv.URL+"/game?src=0&id="+url.QueryEscape(rec.ID))
	if code != 200 {
		t.Fatalf("game page: %d\n%s", code, body)
	}
	if strings.Contains(body, "<script>alert") {
		t.Fatal("agent-written text reached the game page unescaped")
	}
	if c := strings.Count(body, "debug &lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;"); c != 1 {
		t.Errorf("stderr tail shown escaped %d times, want 1", c)
	}
	frames := regexp.MustCompile(`<div class="frame" data-ply="\d+"`).FindAllStringIndex(body, -1)
	if len(frames) != len(rec.Moves)+1 {
		t.Fatalf("%d frames, want %d (start and one per move)", len(frames), len(rec.Moves)+1)
	}
	// Each frame's SVG has the 16 cells of a 4×4 rhombus.
	first := body[frames[0][0]:frames[1][0]]
	svg := first[strings.Index(first, "<svg"):]
	svg = svg[:strings.Index(svg, "</svg>")+len("</svg>")]
	if n, err := enginetest.CountCells(svg); err != nil || n != 16 {
		t.Errorf("start SVG: %d cells (%v), want 16", n, err)
	}
	if !strings.Contains(body, `class="penalty"`) || !strings.Contains(body, "replied late &lt;script&gt;") {
		t.Error("the penalty is not highlighted with its detail")
	}
	if !strings.Contains(body, `class="chart time"`) || strings.Count(body, `class="bar`) != len(rec.Moves) {
		t.Errorf("time chart missing or without one bar per move")
	}
}

func TestGamesFilters(t *testing.T) {
	f := newFixture(t)
	list := func(q string) int {
		code, body := get(t, f.srv.URL+"/games?src=0&league="+url.QueryEscape("lg/cachex")+q)
		if code != 200 {
			t.Fatalf("games%s: %d\n%s", q, code, body)
		}
		return strings.Count(body, `href="/game?`)
	}
	if n := list(""); n != 3 {
		t.Fatalf("unfiltered: %d games, want 3", n)
	}
	wins := 0
	for _, r := range f.recs {
		if r.Result.Winner >= 0 && r.Agents[r.Result.Winner].Name == "alpha" {
			wins++
		}
	}
	if n := list("&agent=alpha&result=win"); n != wins {
		t.Errorf("alpha's wins: %d listed, want %d", n, wins)
	}
	if n := list("&agent=alpha&result=loss"); n != 3-wins {
		t.Errorf("alpha's losses: %d listed, want %d", n, 3-wins)
	}
	// Every game has one late reply, by whoever made the fourth move.
	if n := list("&penalty=late"); n != 3 {
		t.Errorf("penalty=late: %d, want 3", n)
	}
	if n := list("&penalty=timeout"); n != 0 {
		t.Errorf("penalty=timeout: %d, want 0", n)
	}
}

func TestReadOnly(t *testing.T) {
	f := newFixture(t)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequest(m, f.srv.URL+"/", strings.NewReader("x"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d, want 405", m, resp.StatusCode)
		}
	}
	resp, err := http.Get(f.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("no script policy: %q", csp)
	}
	if code, _ := get(t, f.srv.URL+"/static/app.js"); code != 200 {
		t.Errorf("embedded script: %d", code)
	}
	if code, _ := get(t, f.srv.URL+"/game?src=0&id=nope"); code != 404 {
		t.Errorf("unknown game: %d, want 404", code)
	}
}

// events opens the viewer's event stream at base and returns its next
// event's name each call, once the first ("hello") is read; the stream
// closes with the test.
func events(t *testing.T, base string) (next func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	next = func() string {
		t.Helper()
		for sc.Scan() {
			if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				return ev
			}
		}
		t.Fatalf("stream ended: %v", sc.Err())
		return ""
	}
	if ev := next(); ev != "hello" {
		t.Fatalf("first event %q, want hello", ev)
	}
	return next
}

// A live page's event stream reports a new game.
func TestEventsReportNewGames(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	next := events(t, f.srv.URL)
	rec := playRecord(t, "lg/cachex/m3", "cachex", engine.Params{"n": "4"}, 4, [2]string{"beta" + evil, "alpha"})
	if _, err := f.store.AddGame(ctx, "lg/cachex", rec); err != nil {
		t.Fatal(err)
	}
	if ev := next(); ev != "update" {
		t.Fatalf("after a new game: event %q, want update", ev)
	}
}

func TestLoopbackAddr(t *testing.T) {
	for in, want := range map[string]string{":8080": "127.0.0.1:8080", "0.0.0.0:80": "0.0.0.0:80", "127.0.0.1:0": "127.0.0.1:0"} {
		if got := web.LoopbackAddr(in); got != want {
			t.Errorf("LoopbackAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
