package feedback_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/arena/feedback"
	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/engine"
	"arena/games/all"
)

const evil = "<script>alert(1)</script>"

// lineBoard is a hex cross-out board of four free cells in a row: the
// player to move wins by crossing out three (the opponent must take the
// last cell and loses), and loses by crossing out one at an end.
func lineBoard() string {
	rows := []string{"....########"}
	for len(rows) < 12 {
		rows = append(rows, "############")
	}
	return strings.Join(rows, "/")
}

// play builds a record of moves chosen by the free cells they leave
// (leave[i] for move i; -1 for any), seat 0 first.
func play(t *testing.T, id string, seats [2]string, leave []int, late int) *record.Game {
	t.Helper()
	params := engine.Params{"board": lineBoard()}
	g, _ := all.Registry().Lookup("hex-crossout")
	st, err := g.NewState(params)
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Game{Schema: record.SchemaVersion, ID: id, Game: "hex-crossout", Params: params, Profile: "nycu-2023",
		Agents: [2]record.Agent{{Name: seats[0], Ref: "lua:x.lua"}, {Name: seats[1], Ref: "builtin:strong"}},
		Start:  st.Text(), Started: time.Unix(1700000000, 0), Ended: time.Unix(1700000005, 0),
		Stderr: [2]string{"depth 3 " + evil + "\n", ""}, Arena: "arena v0.0.0-test"}
	for i, want := range leave {
		var pick engine.Move
		found := false
		for _, m := range st.LegalMoves(nil) {
			c := st.Clone()
			c.Apply(m)
			row := strings.Split(c.Text(), "/")[0]
			if strings.Count(row, ".") == want && (want != 3 || row[0] != '.') {
				pick, found = m, true
				break
			}
		}
		if !found {
			t.Fatalf("%s: no move leaving %d cells", id, want)
		}
		src := record.SourceAgent
		if i == late {
			src = record.SourceRandom
			rec.Events = append(rec.Events, record.Event{Ply: i, Seat: st.ToMove(), Kind: "late", Penalty: "random-move",
				Detail: "replied after 812 ms against the 700 ms limit " + evil, Reply: "9,9,1," + evil})
		}
		rec.Moves = append(rec.Moves, record.Move{Ply: i, Seat: st.ToMove(), Text: st.FormatMove(pick), Source: src, WallMS: 5})
		st.Apply(pick)
	}
	r := st.Result()
	rec.Result = record.Result{Winner: r.Winner, Draw: r.Draw}
	rec.Final = st.Text()
	return rec
}

// store holds a league of two hex cross-out games the student lost: one
// thrown away at its first move (a late reply whose random substitute
// lost), one lost before its first move.
func store(t *testing.T) (*resultsdb.SQLite, string) {
	t.Helper()
	ctx := context.Background()
	st, err := resultsdb.OpenDir(ctx, filepath.Join(t.TempDir(), "lg"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	name := "course/hex-crossout"
	l := results.League{Name: name, Game: "hex-crossout", Params: map[string]string{"board": lineBoard()}, Profile: "nycu-2023", Format: "round-robin"}
	recs := []*record.Game{
		play(t, name+"/g0", [2]string{"student", "house"}, []int{3, 1, 0}, 0),
		play(t, name+"/g1", [2]string{"house", "student"}, []int{1, 0}, -1),
	}
	var ms []results.Match
	for i, r := range recs {
		ms = append(ms, results.Match{ID: r.ID, League: name, Pairing: "student-vs-house", Pair: 0, Index: i, Seq: i, Seats: [2]string{r.Agents[0].Name, r.Agents[1].Name}, Seed: uint64(i)})
	}
	if err := st.SaveLeague(ctx, l, []results.Agent{{Name: "student", Ref: "lua:x.lua"}, {Name: "house", Ref: "builtin:strong"}}, ms); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Result.Winner != seatOf(r, "house") {
			t.Fatalf("%s: the student did not lose: %+v", r.ID, r.Result)
		}
		if _, err := st.AddGame(ctx, name, r); err != nil {
			t.Fatal(err)
		}
	}
	return st, name
}

func seatOf(r *record.Game, name string) int {
	if r.Agents[0].Name == name {
		return 0
	}
	return 1
}

var externalRef = regexp.MustCompile(`(?i)\b(src|href|action)\s*=\s*["']?\s*(https?:|//|/)|url\(`)

func TestFeedbackPage(t *testing.T) {
	st, name := store(t)
	var progress []string
	p, err := feedback.Build(context.Background(), st, []string{name}, "student", feedback.Options{
		Registry: all.Registry(), Made: "arena v9.9.9-test",
		Progress: func(done, total int, id string) {
			progress = append(progress, fmt.Sprintf("%d/%d %s", done, total, id))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Sections[0]
	if s.Row.L != 2 || s.Lost != 2 || s.Analysed != 2 || len(s.Penalties) != 1 || len(s.Stderr) != 1 {
		t.Fatalf("section %+v", s)
	}
	if len(progress) != 3 || progress[0] != "0/2 "+name+"/g0" || progress[2] != "2/2 " {
		t.Errorf("progress %q", progress)
	}
	tp := s.Turning[0].Point
	if tp.Move != 1 || tp.Better == "" || tp.Source != record.SourceRandom {
		t.Errorf("turning point of g0 %+v: want move 1 (the substitute) with a better move", tp)
	}
	if n := s.Turning[1].Point; n.Move != 0 || !strings.Contains(n.Note, "already lost before") {
		t.Errorf("g1: %+v: want lost before the first move", n)
	}
	var html strings.Builder
	if err := p.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	page := html.String()
	for _, want := range []string{
		"Feedback for student", "arena v9.9.9-test", "refereed by arena v0.0.0-test", "rank 2 of 2",
		"A move must arrive within the time limit", "replied after 812 ms", "random legal move in its place", // the penalty in words
		"9,9,1,&lt;script&gt;", "depth 3 &lt;script&gt;", // reply and stderr, escaped
		"The search preferred", "exact misère solver", "proven: the solver decided both positions exactly",
		"already lost before this agent&#39;s first move",
		`<iframe class="game" sandbox="allow-scripts"`, "DecompressionStream('gzip')",
		"<style>", "<svg",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, evil) {
		t.Error("agent text unescaped in the page")
	}
	if m := externalRef.FindString(page); m != "" {
		t.Errorf("the page refers outside itself: %q", m)
	}
	if n := strings.Count(page, "<iframe"); n != 2 {
		t.Errorf("%d games embedded, want 2", n)
	}
	files := packedGames(t, page)
	if len(files) != 2 {
		t.Fatalf("%d packed games, want 2", len(files))
	}
	for i, f := range files {
		if !strings.HasPrefix(f, "<!doctype html>") || !strings.Contains(f, "<svg") || !strings.Contains(f, p.Sections[0].Games[i].ID) {
			t.Errorf("packed game %d is not the viewer's page of %s: %.200q", i, p.Sections[0].Games[i].ID, f)
		}
		if strings.Contains(f, evil) {
			t.Errorf("packed game %d has agent text unescaped", i)
		}
	}
	if len(page) > 200<<10 {
		t.Errorf("the page of two short games is %d bytes", len(page))
	}
	var md strings.Builder
	if err := p.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Feedback for student", "| house | 0 | 0 | 2 |", "**late → random-move**", "700 ms limit &lt;script&gt;", "sent: `9,9,1,<script>", "the search preferred `", "Position before the move:", "      free 4; crossed out"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(md.String(), "<svg") {
		t.Error("the Markdown has an SVG board")
	}
}

func TestFeedbackBounds(t *testing.T) {
	st, name := store(t)
	p, err := feedback.Build(context.Background(), st, []string{name}, "student", feedback.Options{Registry: all.Registry(), MaxAnalysed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Sections[0]; s.Analysed != 1 || len(s.Turning) != 1 || s.Lost != 2 {
		t.Errorf("analysed %d of %d with MaxAnalysed 1", s.Analysed, s.Lost)
	}
	if _, err := feedback.Build(context.Background(), st, []string{name}, "nobody", feedback.Options{Registry: all.Registry()}); err == nil || !strings.Contains(err.Error(), `"nobody"`) {
		t.Errorf("an unknown entrant: %v", err)
	}
}

var packedGame = regexp.MustCompile(`data-game="([A-Za-z0-9_-]*)"`)

// packedGames unpacks every game of a page as its script does: base64url
// without padding, then gzip.
func packedGames(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	for _, m := range packedGame.FindAllStringSubmatch(page, -1) {
		raw, err := base64.RawURLEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}
