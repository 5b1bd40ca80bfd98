// Package feedback writes one page per entrant of a league for the
// student behind it: results and rating with its interval, every penalty
// explained in words with the board and the reply, the agent's stderr,
// each game viewable offline, and for every lost game the turning point a
// reference search found (arena/turning). Pages are self-contained HTML
// (nothing fetched, so they open from a disk or a mail attachment) or
// Markdown for mail.
package feedback

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"arena/agents/housebots"
	"arena/arena/gameview"
	"arena/arena/league/standings"
	"arena/arena/record"
	"arena/arena/results"
	"arena/arena/turning"
	"arena/engine"
)

// Options tune what a page holds and how much the analysis may spend.
type Options struct {
	Registry *engine.Registry
	// Bounds are the reference search's per-position bounds (zero:
	// turning.DefaultBounds).
	Bounds housebots.Bounds
	// MaxAnalysed is the most lost games analysed per entrant and league,
	// the first in schedule order (0: all; negative: none).
	MaxAnalysed int
	// Progress, when set, is told about each game analysed.
	Progress func(done, total int, gameID string)
	// Made is the build of the arena that writes the page.
	Made string
	// Title names the site in headings (default "arena").
	Title string
}

// Page is one entrant's feedback over the leagues it played in.
type Page struct {
	Entrant  string
	Title    string
	Made     string
	Sections []*Section
	reg      *engine.Registry
}

// Section is the entrant's part of one league.
type Section struct {
	League    results.League
	Played    int // games of the league stored
	Scheduled int
	Row       standings.Row
	Field     int      // agents in the table
	Arena     []string // builds that refereed the league's games
	Opponents []Opponent
	Games     []Game
	Penalties []Penalty
	Stderr    []Stderr
	Turning   []Turning
	Method    string // the reference search, described
	Lost      int    // lost games
	Analysed  int    // lost games analysed
}

// Opponent is the entrant's results against one other agent.
type Opponent struct {
	Name    string
	W, D, L int
}

// Game is one of the entrant's games.
type Game struct {
	ID       string
	Opponent string
	Seat     int
	Outcome  string // won, drawn, lost, no result
	Told     string // the result in the game's terms
	Moves    int
	Faults   int // the entrant's penalties in it
	view     *gameview.Game
	rec      *record.Game
	leagueNm string
}

// Penalty is one of the entrant's penalties, explained.
type Penalty struct {
	GameID      string
	Move        int // as the viewer numbers moves
	Kind        string
	Penalty     string
	Rule        string
	Consequence string
	Did         string
	Reply       string
	BoardSVG    string // the position the agent was asked to move in
	BoardText   string
}

// Stderr is the tail of the entrant's stderr in one game.
type Stderr struct {
	GameID string
	Tail   string
}

// Turning is the turning point of one lost game.
type Turning struct {
	GameID    string
	Opponent  string
	Point     turning.Point
	Certainty string
	BoardSVG  string
	BoardText string
	Before    string // the verdicts in words
	After     string
}

// Build gathers the feedback for entrant from the leagues names of st.
func Build(ctx context.Context, st results.Store, names []string, entrant string, opt Options) (*Page, error) {
	if opt.Title == "" {
		opt.Title = "arena"
	}
	if opt.Bounds == (housebots.Bounds{}) {
		opt.Bounds = turning.DefaultBounds
	}
	p := &Page{Entrant: entrant, Title: opt.Title, Made: opt.Made, reg: opt.Registry}
	for _, n := range names {
		s, err := buildSection(ctx, st, n, entrant, opt)
		if errors.Is(err, errNotIn) || errors.Is(err, results.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("league %s, entrant %s: %w", n, entrant, err)
		}
		p.Sections = append(p.Sections, s)
	}
	if len(p.Sections) == 0 {
		return nil, fmt.Errorf("entrant %q played in none of the leagues (%s)", entrant, strings.Join(names, ", "))
	}
	return p, nil
}

var errNotIn = errors.New("not an entrant of the league")

func buildSection(ctx context.Context, st results.Store, name, entrant string, opt Options) (*Section, error) {
	sd, err := standings.Report(ctx, st, name)
	if err != nil {
		return nil, err
	}
	s := &Section{League: sd.League, Played: sd.Played, Scheduled: sd.Scheduled, Field: len(sd.Rows), Arena: sd.Arena}
	found := false
	for _, r := range sd.Rows {
		if r.Agent == entrant {
			s.Row, found = r, true
		}
	}
	if !found {
		return nil, errNotIn
	}
	games, err := st.Games(ctx, name)
	if err != nil {
		return nil, err
	}
	opps := map[string]*Opponent{}
	for _, g := range games {
		seat := seatOf(g.Record, entrant)
		if seat < 0 {
			continue
		}
		gm, err := s.addGame(opt.Registry, g.Record, name, seat)
		if err != nil {
			return nil, err
		}
		o := opps[gm.Opponent]
		if o == nil {
			o = &Opponent{Name: gm.Opponent}
			opps[gm.Opponent] = o
		}
		switch gm.Outcome {
		case "won":
			o.W++
		case "drawn":
			o.D++
		case "lost":
			o.L++
		}
	}
	for _, r := range sd.Rows {
		if o := opps[r.Agent]; o != nil {
			s.Opponents = append(s.Opponents, *o)
		}
	}
	if err := s.analyse(ctx, opt); err != nil {
		return nil, err
	}
	return s, nil
}

func seatOf(rec *record.Game, entrant string) int {
	for i, a := range rec.Agents {
		if a.Name == entrant {
			return i
		}
	}
	return -1
}

// addGame replays one of the entrant's games and gathers its penalties and
// stderr.
func (s *Section) addGame(reg *engine.Registry, rec *record.Game, leagueName string, seat int) (Game, error) {
	v, err := gameview.Build(reg, rec)
	if err != nil {
		return Game{}, fmt.Errorf("game %s does not replay: %w", rec.ID, err)
	}
	gm := Game{ID: rec.ID, Opponent: rec.Agents[1-seat].Name, Seat: seat, Told: v.Result, Moves: len(rec.Moves), view: v, rec: rec, leagueNm: leagueName}
	switch {
	case rec.Result.Draw:
		gm.Outcome = "drawn"
	case rec.Result.Winner == seat:
		gm.Outcome = "won"
	case rec.Result.Winner == 1-seat:
		gm.Outcome = "lost"
		s.Lost++
	default:
		gm.Outcome = "no result"
	}
	for _, mp := range v.Penalties() {
		if mp.Seat != seat {
			continue
		}
		gm.Faults++
		at := v.Frames[max(mp.Move-1, 0)]
		s.Penalties = append(s.Penalties, Penalty{
			GameID: rec.ID, Move: mp.Move, Kind: mp.Kind, Penalty: mp.Penalty,
			Rule: rule(mp.Kind), Consequence: consequence(mp.Penalty), Did: did(mp.Event), Reply: mp.Reply,
			BoardSVG: at.SVG, BoardText: at.Text,
		})
	}
	if t := strings.TrimSpace(rec.Stderr[seat]); t != "" {
		s.Stderr = append(s.Stderr, Stderr{GameID: rec.ID, Tail: rec.Stderr[seat]})
	}
	s.Games = append(s.Games, gm)
	return gm, nil
}

// analyse finds the turning point of each lost game, up to the bound.
func (s *Section) analyse(ctx context.Context, opt Options) error {
	m, err := turning.For(s.League.Game, engine.Params(s.League.Params), opt.Bounds)
	if err != nil {
		s.Method = err.Error()
		return nil // a game without a reference search still gets its page
	}
	s.Method = m.Describe()
	g, err := opt.Registry.Lookup(s.League.Game)
	if err != nil {
		return err
	}
	var lost []Game
	for _, gm := range s.Games {
		if gm.Outcome == "lost" {
			lost = append(lost, gm)
		}
	}
	if opt.MaxAnalysed < 0 {
		lost = nil
	} else if opt.MaxAnalysed > 0 && len(lost) > opt.MaxAnalysed {
		lost = lost[:opt.MaxAnalysed]
	}
	for i, gm := range lost {
		if opt.Progress != nil {
			opt.Progress(i, len(lost), gm.ID)
		}
		p, err := turning.Find(ctx, g, gm.rec, gm.Seat, m.Judge)
		if err != nil {
			return err
		}
		s.Turning = append(s.Turning, turningOf(gm, p, m))
		s.Analysed++
	}
	if opt.Progress != nil && len(lost) > 0 {
		opt.Progress(len(lost), len(lost), "")
	}
	return nil
}

func turningOf(gm Game, p turning.Point, m turning.Method) Turning {
	t := Turning{GameID: gm.ID, Opponent: gm.Opponent, Point: p, Certainty: p.Explain(m)}
	if p.Move > 0 {
		f := gm.view.Frames[p.Move-1]
		t.BoardSVG, t.BoardText = f.SVG, f.Text
		t.Before, t.After = verdict(p.Before), verdict(p.After)
	}
	return t
}

// verdict tells an analysis for the entrant in words.
func verdict(a housebots.Analysis) string {
	if a.Proven {
		switch a.Outcome() {
		case 1:
			return "won with best play"
		case -1:
			return "lost with best play"
		}
		return "a draw with best play"
	}
	return fmt.Sprintf("not decided within the bounds (the search's estimate %+.1f, positive is good for the agent)", a.Value)
}
