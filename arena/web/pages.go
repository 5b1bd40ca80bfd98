package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"arena/arena/gameview"
	"arena/arena/league/live"
	"arena/arena/league/standings"
	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/results/resultsdb"
	"arena/engine"
)

func fmtElo(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprint(f)
	}
	if math.Abs(f) < 0.5 {
		return "0" // not "-0"
	}
	return fmt.Sprintf("%+.0f", f)
}

func fmtPoints(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

var funcs = template.FuncMap{
	"elo":    fmtElo,
	"points": fmtPoints,
	"ago":    ago,
	"list":   func(v ...string) []string { return v },
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	},
	// svg marks a board drawn by a game's own code from the canonical
	// board text; no agent-written text reaches it.
	"svg": func(s string) template.HTML { return template.HTML(s) },
}

func penaltyText(p map[string]int) string {
	if len(p) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, p[k]))
	}
	return strings.Join(parts, ", ")
}

// leagueView is one league on the leagues page.
type leagueView struct {
	Src       int
	Dir       string
	S         *standings.Standings
	Chart     ratingChart
	CrossHead []string
	Cross     [][]crossCell
	Err       string
	ETA       string // the time the unplayed games would take at the rate so far
	// Round is a Swiss or knockout league's round being played and its
	// games ("" for other formats and once over), RoundETA the time its
	// unplayed games would take.
	Round, RoundETA string
	// Stages is a Swiss or knockout league's own tables (its rounds, its
	// bracket) as the console prints them; "" for the other formats.
	Stages string
	// Running are the league's games in progress, with their boards now.
	Running []runningGame
}

// runningGame is a game in progress as the leagues page shows it.
type runningGame struct {
	ID      string
	Players [2]string
	Moves   int
	Last    string // the last move, "" before the first
	ToMove  string // the player to move
	Age     string // since the game's file was last written
	SVG     string
	Text    string
	Err     string // the board could not be drawn
}

// running makes the live games of one league directory viewable, by
// league name.
func running(reg *engine.Registry, games []live.Game, now time.Time) map[string][]runningGame {
	out := map[string][]runningGame{}
	for _, g := range games {
		rec := g.Record
		v := runningGame{ID: rec.ID, Players: [2]string{rec.Agents[0].Name, rec.Agents[1].Name}, Moves: len(rec.Moves)}
		v.Age = fmt.Sprintf("%d s ago", max(0, int(now.Sub(g.Updated).Seconds())))
		f, _, err := gameview.Position(reg, rec)
		if err != nil {
			v.Err = err.Error()
		} else {
			v.SVG, v.Text = f.SVG, f.Text
			if f.ToMove == 0 || f.ToMove == 1 {
				v.ToMove = v.Players[f.ToMove]
			}
			if f.Move != nil {
				v.Last = f.Move.Text
				if v.Last == "" {
					v.Last = "(skipped turn)"
				}
			}
		}
		out[g.League] = append(out[g.League], v)
	}
	return out
}

// eta says how long the league's unplayed games would take at the rate
// its stored games came in (first start to last end); "" when it is
// complete or too few games tell a rate. A stopped league's rate is the
// one it had while it ran.
func eta(games []results.Game, scheduled int) string {
	return etaLeft(games, scheduled-len(games))
}

// etaLeft is eta for left more games.
func etaLeft(games []results.Game, left int) string {
	if left <= 0 || len(games) < 2 {
		return ""
	}
	var first, last time.Time
	for _, g := range games {
		if st := g.Record.Started; !st.IsZero() && (first.IsZero() || st.Before(first)) {
			first = st
		}
		if en := g.Record.Ended; en.After(last) {
			last = en
		}
	}
	span := last.Sub(first)
	if first.IsZero() || span <= 0 {
		return ""
	}
	d := span * time.Duration(left) / time.Duration(len(games))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("about %d s left at the rate so far", max(1, int(d.Seconds()+0.5)))
	case d < time.Hour:
		return fmt.Sprintf("about %d min left at the rate so far", int(d.Minutes()+0.5))
	}
	return fmt.Sprintf("about %.1f h left at the rate so far", d.Hours())
}

type crossCell struct {
	Self  bool
	Games int
	Text  string
	Class string
}

func (s *Server) leaguesPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var views []leagueView
	var errs []string
	for i, src := range s.sources {
		lives, _ := live.Read(src.dir)
		now := running(s.reg, lives, time.Now())
		st, err := src.store(ctx)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: no results yet (%v)", src.dir, err))
			continue
		}
		ls, err := st.Leagues(ctx)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, l := range ls {
			v := leagueView{Src: i, Dir: src.dir, Running: now[l.Name]}
			sd, err := standings.Report(ctx, st, l.Name)
			if err != nil {
				v.Err = err.Error()
				v.S = &standings.Standings{League: l}
			} else {
				v.S = sd
				if sd.Stages != nil {
					v.Round = sd.Stages.Round.String()
				}
				if sd.Played < sd.Scheduled || v.Round != "" {
					// Only an unfinished league reads its games again.
					if games, err := st.Games(ctx, l.Name); err == nil {
						v.ETA = eta(games, sd.Scheduled)
						if v.Round != "" {
							v.RoundETA = etaLeft(games, sd.Stages.Round.Games-sd.Stages.Round.Played)
						}
					}
				}
				v.Chart = newRatingChart(sd.Rows)
				v.CrossHead, v.Cross = cross(sd)
				if sd.Stages != nil {
					var b strings.Builder
					if err := sd.Stages.WriteText(&b); err == nil {
						v.Stages = b.String()
					}
				}
			}
			views = append(views, v)
		}
	}
	s.render(w, "leagues", map[string]any{"Title": s.opt.Title, "PageTitle": "Leagues", "Leagues": views, "Errors": errs, "Live": true, "LiveMoves": true})
}

func cross(s *standings.Standings) ([]string, [][]crossCell) {
	var head []string
	for _, r := range s.Rows {
		head = append(head, r.Agent)
	}
	out := make([][]crossCell, len(s.Rows))
	for i := range s.Rows {
		for j := range s.Rows {
			if i == j {
				out[i] = append(out[i], crossCell{Self: true})
				continue
			}
			c := s.Cross[i][j]
			cc := crossCell{Games: c.Games()}
			if c.Games() > 0 {
				cc.Text = fmt.Sprintf("%s/%d", fmtPoints(c.Score()), c.Games())
				switch {
				case c.Score()*2 > float64(c.Games()):
					cc.Class = "ahead"
				case c.Score()*2 < float64(c.Games()):
					cc.Class = "behind"
				}
			}
			out[i] = append(out[i], cc)
		}
	}
	return head, out
}

// ratingChart places each agent's Elo and 95% interval on one axis.
type ratingChart struct {
	Width, Height int
	Rows          []ratingRow
	Ticks         []tick
	ZeroX         float64
	Bottom        int
	Note          string
}

type ratingRow struct {
	Agent        string
	Y            int
	X, Lo, Hi    float64
	Label        string
	LoOpen, HiOp bool // the interval runs off the chart
}

type tick struct {
	X     float64
	Label string
}

const chartLeft, chartRight = 150, 40

func newRatingChart(rows []standings.Row) ratingChart {
	c := ratingChart{Width: 640, Height: 40 + 26*len(rows)}
	c.Bottom = c.Height - 4
	lo, hi := -100.0, 100.0
	finite := func(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }
	for _, r := range rows {
		for _, f := range []float64{r.Elo, r.EloLo, r.EloHi} {
			if finite(f) {
				lo, hi = math.Min(lo, f), math.Max(hi, f)
			}
		}
	}
	// Keep extreme fits from squashing the rest.
	lo, hi = math.Max(lo, -800), math.Min(hi, 800)
	step := 50.0
	for (hi-lo)/step > 8 {
		step *= 2
	}
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	span := float64(c.Width - chartLeft - chartRight)
	x := func(f float64) (float64, bool) {
		switch {
		case math.IsNaN(f):
			return chartLeft + span/2, true
		case f < lo:
			return chartLeft, true
		case f > hi:
			return chartLeft + span, true
		}
		return chartLeft + (f-lo)/(hi-lo)*span, false
	}
	for t := lo; t <= hi+1e-9; t += step {
		tx, _ := x(t)
		c.Ticks = append(c.Ticks, tick{X: tx, Label: fmt.Sprintf("%+.0f", t)})
	}
	c.ZeroX, _ = x(0)
	for i, r := range rows {
		rr := ratingRow{Agent: r.Agent, Y: 20 + 26*i}
		rr.X, _ = x(r.Elo)
		rr.Lo, rr.LoOpen = x(r.EloLo)
		rr.Hi, rr.HiOp = x(r.EloHi)
		rr.Label = fmtElo(r.Elo)
		if finite(r.EloLo) && finite(r.EloHi) {
			rr.Label += fmt.Sprintf(" [%+.0f, %+.0f]", r.EloLo, r.EloHi)
		}
		c.Rows = append(c.Rows, rr)
	}
	c.Note = "Bradley–Terry Elo with 95% intervals; an arrow marks an interval beyond the axis"
	return c
}

// gameRow is one game in the games table.
type gameRow struct {
	ID        string
	Seats     [2]string
	Winner    int
	Draw      bool
	Result    string
	Plies     int
	Penalties string
	Forfeit   string
	Ended     time.Time
}

func (s *Server) gamesPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	src, si, err := s.sourceOf(r)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	st, err := src.store(ctx)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	q := r.URL.Query()
	name := q.Get("league")
	l, agents, err := st.League(ctx, name)
	if err != nil {
		s.fail(w, http.StatusNotFound, fmt.Errorf("league %q: %w", name, err))
		return
	}
	games, err := st.Games(ctx, name)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	f := gameFilter{Agent: q.Get("agent"), Result: q.Get("result"), Penalty: q.Get("penalty")}
	kinds := map[string]bool{}
	var rows []gameRow
	// Results are told in the game's terms by a start position: telling
	// needs the game, not the final position, so no game is replayed here.
	var teller engine.State
	if g, err := s.reg.Lookup(l.Game); err == nil {
		teller, _ = g.NewState(engine.Params(l.Params))
	}
	for _, g := range games {
		rec := g.Record
		for _, e := range gameview.Penalties(rec) {
			kinds[e.Kind] = true
		}
		if !f.match(rec) {
			continue
		}
		pen := map[string]int{}
		for seat := 0; seat < 2; seat++ {
			for k, n := range rec.Penalties(seat) {
				pen[fmt.Sprintf("%s (%s)", k, rec.Agents[seat].Name)] += n
			}
		}
		rows = append(rows, gameRow{
			ID: rec.ID, Seats: [2]string{rec.Agents[0].Name, rec.Agents[1].Name},
			Winner: rec.Result.Winner, Draw: rec.Result.Draw, Result: tell(teller, rec),
			Plies: len(rec.Moves), Penalties: penaltyText(pen), Forfeit: rec.Result.Forfeit, Ended: rec.Ended,
		})
	}
	var names []string
	for _, a := range agents {
		names = append(names, a.Name)
	}
	old, err := supersededRows(ctx, st, name, f.Agent, teller)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	s.render(w, "games", map[string]any{
		"Title": s.opt.Title, "PageTitle": "Games of " + l.Name, "Src": si, "League": l, "Agents": names, "Kinds": slices.Sorted(maps.Keys(kinds)),
		"Filter": f, "Rows": rows, "Total": len(games), "Live": true, "Superseded": old,
	})
}

// supersededRow is a game of an earlier version of a resubmitted entrant:
// kept in the store under its own id, never counted.
type supersededRow struct {
	ID, Of, Why, Result string
	Seats               [2]string
	Plies               int
	Ended               time.Time
}

// supersededRows lists a league's superseded games, those of agent only
// when one is chosen.
func supersededRows(ctx context.Context, st *resultsdb.SQLite, league, agent string, teller engine.State) ([]supersededRow, error) {
	old, err := st.SupersededGames(ctx, league)
	if err != nil {
		return nil, err
	}
	var out []supersededRow
	for _, g := range old {
		rec := g.Record
		seats := [2]string{rec.Agents[0].Name, rec.Agents[1].Name}
		if agent != "" && seats[0] != agent && seats[1] != agent {
			continue
		}
		out = append(out, supersededRow{ID: g.Match.ID, Of: g.Of, Why: g.Why, Result: tell(teller, rec), Seats: seats, Plies: len(rec.Moves), Ended: rec.Ended})
	}
	return out, nil
}

func tell(st engine.State, rec *record.Game) string {
	if st == nil {
		return rec.Summary()
	}
	return gameview.TellResult(st, rec)
}

// gameFilter selects games by agent, result and penalty kind.
type gameFilter struct {
	Agent   string
	Result  string // "", win, loss, draw (from Agent's side; without an agent: draw, decisive), forfeit
	Penalty string // a failure kind, or "any"
}

func (f gameFilter) match(rec *record.Game) bool {
	seat := -1
	if f.Agent != "" {
		for i, a := range rec.Agents {
			if a.Name == f.Agent {
				seat = i
			}
		}
		if seat < 0 {
			return false
		}
	}
	switch f.Result {
	case "":
	case "draw":
		if !rec.Result.Draw {
			return false
		}
	case "decisive":
		if rec.Result.Draw || rec.Result.Winner < 0 {
			return false
		}
	case "win", "loss":
		if seat < 0 || rec.Result.Draw || rec.Result.Winner < 0 || (rec.Result.Winner == seat) != (f.Result == "win") {
			return false
		}
	case "forfeit":
		if rec.Result.Forfeit == "" {
			return false
		}
	default:
		return false
	}
	if f.Penalty != "" {
		found := false
		for _, e := range gameview.Penalties(rec) {
			if (seat < 0 || e.Seat == seat) && (f.Penalty == "any" || e.Kind == f.Penalty) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// loadGame reads the game the request names and replays it; on failure
// it has answered the request.
func (s *Server) loadGame(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	ctx := r.Context()
	src, si, err := s.sourceOf(r)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return nil, false
	}
	st, err := src.store(ctx)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return nil, false
	}
	id := r.URL.Query().Get("id")
	rec, leagueName, err := st.Record(ctx, id)
	if errors.Is(err, results.ErrNotFound) {
		s.fail(w, http.StatusNotFound, err)
		return nil, false
	}
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return nil, false
	}
	data, err := gameData(s.reg, rec, leagueName, s.opt.Title)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return nil, false
	}
	data["Src"] = si
	return data, true
}

// gameData replays rec into what the game templates show.
func gameData(reg *engine.Registry, rec *record.Game, leagueName, title string) (map[string]any, error) {
	v, err := gameview.Build(reg, rec)
	if err != nil {
		return nil, fmt.Errorf("game %s does not replay: %w", rec.ID, err)
	}
	return map[string]any{
		"Title": title, "PageTitle": "Game " + rec.ID, "League": leagueName, "G": v, "Rec": rec,
		"Frames": frameViews(v), "Chart": newTimeChart(v), "Last": len(v.Frames) - 1,
		"Penalties": v.Penalties(), "Initials": gameview.Initials(rec.Agents[0].Name, rec.Agents[1].Name),
		"Contended": rec.Contention(0) + rec.Contention(1), "Opening": openingText(rec),
	}, nil
}

// openingText is the game's opening as its suite's file writes it, "" for
// a game from the start.
func openingText(rec *record.Game) string {
	if rec.Opening == nil {
		return ""
	}
	return strings.Join(rec.Opening.Moves, "; ")
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	if data, ok := s.loadGame(w, r); ok {
		s.render(w, "game", data)
	}
}

// downloadGame answers with the game as one HTML file that opens offline:
// every board, the moves, times, penalties and stderr, with the stylesheet
// and the stepping and autoplay script inline.
func (s *Server) downloadGame(w http.ResponseWriter, r *http.Request) {
	data, ok := s.loadGame(w, r)
	if !ok {
		return
	}
	if err := standalone(data); err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	rec := data["Rec"].(*record.Game)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", fileName(rec.ID)+".html"))
	s.render(w, "gamefile", data)
}

// standalone inlines the stylesheet and the script into a game's data,
// for a file that opens without the server.
func standalone(data map[string]any) error {
	css, err := staticFS.ReadFile("static/style.css")
	if err != nil {
		return err
	}
	js, err := staticFS.ReadFile("static/app.js")
	if err != nil {
		return err
	}
	// Both are the viewer's own embedded files, not agent text.
	data["CSS"], data["JS"], data["Standalone"] = template.CSS(css), template.JS(js), true
	return nil
}

// Stylesheet is the viewer's stylesheet, for pages that inline it (a
// feedback page draws boards as the viewer does).
func Stylesheet() (template.CSS, error) {
	css, err := staticFS.ReadFile("static/style.css")
	return template.CSS(css), err
}

// GameFile writes rec (a game of league leagueName) as one HTML file that
// opens offline: the viewer's "download this game", with every board, the
// moves, times, penalties and stderr, the stylesheet and the stepping and
// autoplay script inline. title names the site in its heading.
func GameFile(w io.Writer, reg *engine.Registry, rec *record.Game, leagueName, title string) error {
	t, err := parseTemplates()
	if err != nil {
		return err
	}
	data, err := gameData(reg, rec, leagueName, title)
	if err != nil {
		return err
	}
	if err := standalone(data); err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "gamefile", data)
}

// fileName turns a game id ("league/pairing/g000-...") into a file name
// of letters, digits, '-', '_' and '.'.
func fileName(id string) string {
	b := []byte(id)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "game"
	}
	return string(b)
}

// frameView is one ply on the game page.
type frameView struct {
	I       int
	SVG     string
	Text    string
	Seat    int
	Agent   string
	Move    string
	Source  string
	Time    string
	Over    bool
	Events  []record.Event
	Penalty bool
	Scores  [2]int
	ToMove  int
}

func frameViews(v *gameview.Game) []frameView {
	out := make([]frameView, len(v.Frames))
	for i := range v.Frames {
		f := &v.Frames[i]
		fv := frameView{I: i, SVG: f.SVG, Text: f.Text, Seat: -1, Time: f.FormatTime(), Events: f.Events, Scores: f.Scores, ToMove: f.ToMove}
		if f.Ending {
			fv.Seat, fv.Agent, fv.Move, fv.Source = f.Seat, v.Rec.Agents[f.Seat].Name, "(no move: the game ends on a penalty)", "agent"
		}
		if f.Move != nil {
			fv.Seat, fv.Agent, fv.Move, fv.Source = f.Move.Seat, v.Rec.Agents[f.Move.Seat].Name, f.Move.Text, f.Move.Source
			if f.Move.Source == record.SourceSkip {
				fv.Move = "(skipped turn)"
			}
			fv.Over = !f.CPU && f.Limit > 0 && f.Used > f.Limit
		}
		for _, e := range f.Events {
			if e.Kind != "launch" && e.Kind != "restart" {
				fv.Penalty = true
			}
		}
		out[i] = fv
	}
	return out
}

// timeChart plots each move's time against the limit (per-move profiles)
// or each seat's CPU time against the budget (CPU-budget profiles).
type timeChart struct {
	Width, Height int
	PenY          int // the top of the penalty markers
	Top, Bottom   int
	Bars          []timeBar
	Lines         [2]string // CPU: polyline points per seat
	LimitY        float64
	LimitShown    bool // the limit is on the chart's scale
	LimitLabel    string
	CPU           bool
	MaxLabel      string
}

type timeBar struct {
	I          int // frame index
	X, Y, W, H float64
	HalfW      float64
	Seat       int
	Title      string
	Penalty    bool
}

func newTimeChart(v *gameview.Game) timeChart {
	c := timeChart{Width: 640, Height: 186, Top: 22, Bottom: 166, PenY: 2}
	n := len(v.Frames) - 1
	if n < 1 {
		return c
	}
	maxv := time.Duration(0)
	limit := time.Duration(0)
	for _, f := range v.Frames[1:] {
		maxv = max(maxv, f.Used)
		if f.Limit > 0 {
			limit = f.Limit // the last timed move's: the ordinary limit, not a first-move allowance
		}
		c.CPU = c.CPU || f.CPU
	}
	// Scale to the moves, not to a limit far above them (a 25 s budget
	// would flatten millisecond moves); the limit line is drawn when it
	// fits and named either way.
	top := max(maxv*5/4, time.Millisecond)
	if limit > 0 && limit <= top*2 {
		top = max(top, limit*21/20)
	}
	plot := float64(c.Bottom - c.Top)
	y := func(d time.Duration) float64 { return float64(c.Bottom) - float64(d)/float64(top)*plot }
	left, width := 40.0, float64(c.Width-50)
	bw := width / float64(n)
	c.LimitY, c.LimitShown = y(limit), limit > 0 && limit <= top
	c.LimitLabel = "limit " + fmtDur(limit)
	if c.CPU {
		c.LimitLabel = "budget " + fmtDur(limit)
	}
	if !c.LimitShown {
		c.LimitY = float64(c.Top)
		c.LimitLabel += " (above the scale)"
	}
	c.MaxLabel = fmtDur(top)
	var pts [2][]string
	for i, f := range v.Frames[1:] {
		b := timeBar{I: i + 1, X: left + float64(i)*bw, W: math.Max(bw-1, 1), Seat: -1}
		b.HalfW = b.W / 2
		if f.Ending {
			b.Title = fmt.Sprintf("%d. %s: no move", i+1, v.Rec.Agents[f.Seat].Name)
		}
		if f.Move != nil {
			b.Seat = f.Move.Seat
			b.Title = fmt.Sprintf("%d. %s %s", i+1, v.Rec.Agents[f.Move.Seat].Name, f.Move.Text)
			if t := f.FormatTime(); t != "" {
				b.Title += ": " + t
			}
		}
		for _, e := range f.Events {
			if e.Kind != "launch" && e.Kind != "restart" {
				b.Penalty = true
				b.Title += "; " + e.Kind + " → " + e.Penalty
			}
		}
		b.Y = y(f.Used)
		b.H = float64(c.Bottom) - b.Y
		if c.CPU && b.Seat >= 0 {
			pts[b.Seat] = append(pts[b.Seat], fmt.Sprintf("%.1f,%.1f", b.X+b.W/2, b.Y))
			b.H = 0
		}
		c.Bars = append(c.Bars, b)
	}
	for s := range pts {
		c.Lines[s] = strings.Join(pts[s], " ")
	}
	return c
}

// fmtDur writes a duration for chart labels: "0.29 ms", "12 ms", "1.5 s".
func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2g ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}
