// Package gameview turns a game record into what people look at: the
// position after every move, drawn by the game itself (text and SVG), with
// the move, the time it used against the profile's limit, the referee's
// penalties, and the result in the game's own terms. The terminal replay and
// the web viewer both read it; it knows no game by name.
package gameview

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"arena/arena/record"
	"arena/engine"
)

// Frame is the position after one move (Frames[0] is the start). A game
// ended by a penalty that no move answers (an illegal reply, a timeout
// that is a loss) has one more frame, Ending, with the final position
// again and the penalty's events.
type Frame struct {
	Index  int          // 0 for the start, i+1 after record move i
	Move   *record.Move // nil for the start and the ending
	Ending bool         // the extra frame of a game ended by a penalty
	Seat   int          // who moved, or whose failure ended the game; NoSeat for the start
	Board  string       // canonical board text
	Text   string       // the game's terminal drawing (or the canonical text)
	SVG    string       // the game's SVG drawing, "" when it has none
	ToMove int          // seat to move next, engine.NoSeat once over
	Scores [2]int
	// Limit is what the move was timed against: the per-move limit (the
	// first-move allowance for a side's first move) or, for CPU budgets,
	// the whole game's budget; Used is the move's wall time or the seat's
	// CPU time so far, to compare with it. Both are zero for the start and
	// for moves the referee made.
	Limit, Used time.Duration
	CPU         bool           // Used and Limit are CPU time (a per-game budget)
	Events      []record.Event // what the referee did about this move
}

// Game is a record made viewable.
type Game struct {
	Rec     *record.Game
	Info    engine.Info
	Profile engine.Profile
	Frames  []Frame
	// Result is the result sentence in the game's own terms.
	Result string
	// Notes are problems that did not stop the replay (an override that
	// no longer applies).
	Notes []string
}

// Build replays rec with its game from reg, checking that the recorded
// start and final boards are the ones the rules reach and that a game that
// ended normally ended where the rules say. A record that does not replay
// is an error naming the move.
func Build(reg *engine.Registry, rec *record.Game) (*Game, error) {
	g, err := reg.Lookup(rec.Game)
	if err != nil {
		return nil, err
	}
	params := engine.Params(rec.Params)
	st, err := g.NewState(params)
	if err != nil {
		return nil, err
	}
	prof, err := g.Profile(params)
	if err != nil {
		return nil, err
	}
	v := &Game{Rec: rec, Info: g.Info(), Profile: prof}
	for _, o := range rec.Overrides {
		if err := applyOverride(&v.Profile, o); err != nil {
			v.Notes = append(v.Notes, err.Error())
		}
	}
	if rec.Start != "" && st.Text() != rec.Start {
		return nil, fmt.Errorf("start board differs:\n record: %s\n engine: %s", rec.Start, st.Text())
	}
	v.Frames = append(v.Frames, frame(0, st, nil))
	v.Frames[0].Seat = engine.NoSeat
	firstSeen := [2]bool{}
	for i := range rec.Moves {
		m := &rec.Moves[i]
		if err := replay(st, i, m); err != nil {
			return nil, err
		}
		f := frame(i+1, st, m)
		f.Seat = m.Seat
		if m.Source == record.SourceAgent && m.Seat >= 0 && m.Seat < 2 {
			switch v.Profile.Time {
			case engine.CPUBudget:
				f.CPU, f.Limit, f.Used = true, v.Profile.Budget, ms(m.CPUMS)
			default:
				f.Limit, f.Used = v.Profile.MoveLimit, ms(m.WallMS)
				if !firstSeen[m.Seat] && v.Profile.FirstMoveLimit > 0 {
					f.Limit = v.Profile.FirstMoveLimit
				}
			}
		}
		// The opening's moves were the referee's: an agent's first own
		// move still had the first-move allowance.
		if m.Seat >= 0 && m.Seat < 2 && m.Source != record.SourceOpening {
			firstSeen[m.Seat] = true
		}
		v.Frames = append(v.Frames, f)
	}
	v.Frames = attachEvents(v.Frames, rec)
	if st.Text() != rec.Final {
		return nil, fmt.Errorf("final board differs:\n record: %s\n engine: %s", rec.Final, st.Text())
	}
	if rec.Result.Forfeit == "" && !strings.HasPrefix(rec.Result.Reason, "NO RESULT") {
		if !st.Terminal() {
			return nil, errors.New("the record ends normally, but the replayed position is not over")
		}
		res := st.Result()
		if res.Draw != rec.Result.Draw || (!res.Draw && res.Winner != rec.Result.Winner) {
			return nil, fmt.Errorf("result differs: record says %s, the rules say winner %d (draw %v)", rec.Summary(), res.Winner, res.Draw)
		}
	}
	v.Result = TellResult(st, rec)
	markFrames(v)
	return v, nil
}

// replay plays the record's move i (m) on st: a skipped turn, or a move
// the rules allow its seat now; an error names the move.
func replay(st engine.State, i int, m *record.Move) error {
	if m.Text == "" {
		p, ok := st.(engine.Passer)
		if !ok {
			return fmt.Errorf("move %d: a skipped turn in a game without skips", i+1)
		}
		p.Pass()
		return nil
	}
	if st.Terminal() {
		return fmt.Errorf("move %d %q: the game is already over", i+1, m.Text)
	}
	if st.ToMove() != m.Seat {
		return fmt.Errorf("move %d %q: recorded for seat %d, but seat %d is to move", i+1, m.Text, m.Seat, st.ToMove())
	}
	mv, err := st.ParseMove(m.Text)
	if err != nil {
		return fmt.Errorf("move %d: %w", i+1, err)
	}
	st.Apply(mv)
	return nil
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func frame(i int, st engine.State, m *record.Move) Frame {
	f := Frame{Index: i, Move: m, Board: st.Text(), Text: st.Text(), ToMove: st.ToMove(), Scores: st.Scores()}
	if d, ok := st.(engine.Drawer); ok {
		f.Text = d.Draw()
	}
	if d, ok := st.(engine.SVGDrawer); ok {
		f.SVG = d.SVG()
	}
	return f
}

// attachEvents puts each referee event under the move it concerns: the
// move of the same seat made at the event's ply (a substitute, a skipped
// turn, the move after a restart). Events no move answers (a penalty that
// ended the game) go to an ending frame after the last move.
func attachEvents(frames []Frame, rec *record.Game) []Frame {
	var ending *Frame
	for _, ev := range rec.Events {
		at := -1
		for i, m := range rec.Moves {
			if m.Ply == ev.Ply && m.Seat == ev.Seat {
				at = i + 1
				break
			}
		}
		if at >= 0 {
			frames[at].Events = append(frames[at].Events, ev)
			continue
		}
		if ending == nil {
			last := frames[len(frames)-1]
			ending = &Frame{Index: len(frames), Ending: true, Seat: ev.Seat, Board: last.Board, Text: last.Text, SVG: last.SVG,
				ToMove: engine.NoSeat, Scores: last.Scores}
		}
		ending.Events = append(ending.Events, ev)
	}
	if ending != nil {
		frames = append(frames, *ending)
	}
	return frames
}

// applyOverride re-applies a recorded override ("setting: from -> to").
func applyOverride(p *engine.Profile, o string) error {
	setting, rest, ok := strings.Cut(o, ": ")
	_, to, ok2 := strings.Cut(rest, " -> ")
	if !ok || !ok2 {
		return fmt.Errorf("override %q: not \"setting: from -> to\"", o)
	}
	if _, err := p.Apply(setting, to); err != nil {
		return fmt.Errorf("override %q: %w", o, err)
	}
	return nil
}

// TellResult says how a recorded game ended, in the game's own terms where
// the final state can tell them (engine.ResultTeller), else generically;
// the course's reason and any forfeit follow.
func TellResult(final engine.State, rec *record.Game) string {
	names := [2]string{rec.Agents[0].Name, rec.Agents[1].Name}
	r := engine.Result{Winner: rec.Result.Winner, Draw: rec.Result.Draw, Reason: rec.Result.Reason}
	if len(rec.Result.Scores) == 2 {
		r.Scores = [2]int{rec.Result.Scores[0], rec.Result.Scores[1]}
	} else if final != nil {
		r.Scores = final.Scores()
	}
	var s string
	if t, ok := final.(engine.ResultTeller); ok && final != nil {
		s = t.TellResult(r, names)
	} else {
		s = rec.Summary()
		r.Reason = "" // Summary has it
	}
	if r.Reason != "" {
		s += " — " + r.Reason
	}
	if rec.Result.Detail != "" && rec.Result.Detail != rec.Result.Reason {
		s += " (" + rec.Result.Detail + ")"
	}
	if rec.Result.Forfeit != "" {
		s += " [ended by a penalty: " + rec.Result.Forfeit + "]"
	}
	return s
}

// Penalties lists the events that are failures (not launches and
// restarts), in order.
func Penalties(rec *record.Game) []record.Event {
	var out []record.Event
	for _, e := range rec.Events {
		if e.Kind != "launch" && e.Kind != "restart" {
			out = append(out, e)
		}
	}
	return out
}

// MovePenalty is a penalty with the number of the move it concerns, the
// number the move list gives it (the start is 0, the record's first move 1,
// a game-ending penalty no move answers one past the last move). Every
// table and chart of a game numbers moves so; the event's own Ply is the
// engine's count, which skipped turns and substitutes make differ.
type MovePenalty struct {
	Move int
	record.Event
}

// Penalties lists the game's failures (not launches and restarts) with
// the numbers of their moves, in order.
func (v *Game) Penalties() []MovePenalty {
	var out []MovePenalty
	for _, f := range v.Frames {
		for _, e := range f.Events {
			if e.Kind != "launch" && e.Kind != "restart" {
				out = append(out, MovePenalty{Move: f.Index, Event: e})
			}
		}
	}
	return out
}

// FormatTime renders a frame's time against its limit, e.g.
// "412 ms of 700 ms" or "CPU 3.21 s of 25 s used"; "" when the move was
// not timed.
func (f *Frame) FormatTime() string {
	if f.Limit == 0 && f.Used == 0 {
		return ""
	}
	if f.CPU {
		return fmt.Sprintf("CPU %s of %s used", dur(f.Used), dur(f.Limit))
	}
	s := fmt.Sprintf("%s of %s", dur(f.Used), dur(f.Limit))
	if f.Limit > 0 && f.Used > f.Limit {
		s += " (over)"
	}
	return s
}

func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

// Position is the position after the moves a record holds so far (a
// game in progress, which has no final board or result yet to check), as
// its last frame, and the game's description.
func Position(reg *engine.Registry, rec *record.Game) (Frame, engine.Info, error) {
	g, err := reg.Lookup(rec.Game)
	if err != nil {
		return Frame{}, engine.Info{}, err
	}
	st, err := g.NewState(engine.Params(rec.Params))
	if err != nil {
		return Frame{}, engine.Info{}, err
	}
	var last *record.Move
	for i := range rec.Moves {
		last = &rec.Moves[i]
		if err := replay(st, i, last); err != nil {
			return Frame{}, engine.Info{}, err
		}
	}
	f := frame(len(rec.Moves), st, last)
	f.Seat = engine.NoSeat
	if last != nil {
		f.Seat = last.Seat
	}
	return f, g.Info(), nil
}
