package turning

import (
	"context"
	"fmt"
	"math"

	"arena/agents/housebots"
	"arena/arena/record"
	"arena/engine"
	"arena/plugins/sdk/search"
)

// Certainty says how far a turning point is to be trusted.
type Certainty int

const (
	// Proven: the position after the move was proven lost (every line
	// searched to the end of the game) and the one before it was not.
	Proven Certainty = iota + 1
	// ProvenLater: the loss was proven only from the agent's next turn;
	// the move is the last one before it whose position was not proven
	// lost.
	ProvenLater
	// Estimate: no position was proven lost within the bounds; the move is
	// the one after which the search's estimate fell the most.
	Estimate
)

// Point is the turning point of one lost game for one seat.
type Point struct {
	// Move is the move's number as the viewer numbers it (the record's
	// first move is 1); 0 when there is no turning point to show.
	Move   int
	Ply    int    // the record's ply of the move
	Played string // the move the agent played (or the referee for it)
	Source string // who chose it: agent, random (a substitute)
	// Board is the canonical board text before the move.
	Board string
	// Better is the move the search preferred there ("" when it found none
	// better than the one played).
	Better    string
	Before    housebots.Analysis // the position before the move, for the seat
	After     housebots.Analysis // the position after the move, for the seat
	Certainty Certainty
	// Note explains a game with no turning point among the seat's moves:
	// lost before its first move, or ended by a penalty while the position
	// was not lost.
	Note string
	// Judged is how many positions were analysed.
	Judged int
}

// Explain says in words how sure the turning point is.
func (p Point) Explain(m Method) string {
	switch p.Certainty {
	case Proven:
		if m.Solver {
			return "proven: the solver decided both positions exactly"
		}
		return "proven: the search reached the end of the game on every line after this move and found it lost, and did not find the position before it lost"
	case ProvenLater:
		return "proven one turn later: the search proved the position lost at the agent's next turn, and not after this move, which was the last chance within its bounds"
	case Estimate:
		return "an estimate: no position was proven lost within the bounds; this is the move after which the search's evaluation fell the most"
	}
	return ""
}

// judged is one of the seat's moves with both positions analysed.
type judged struct {
	i             int                // index in rec.Moves
	board         string             // before the move
	played        string             // the move in the course's canonical text
	before, after housebots.Analysis // for the seat
}

// Find replays rec and finds the turning point for seat, which lost it:
// the first of its moves whose position before was not lost and after was
// lost, by judge.
func Find(ctx context.Context, g engine.Game, rec *record.Game, seat int, judge Judge) (Point, error) {
	st, err := g.NewState(engine.Params(rec.Params))
	if err != nil {
		return Point{}, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	var seen []judged
	for i, m := range rec.Moves {
		if err := ctx.Err(); err != nil {
			return Point{}, err
		}
		if m.Text == "" { // a skipped turn
			p, ok := st.(engine.Passer)
			if !ok {
				return Point{}, fmt.Errorf("game %s move %d: a skipped turn in a game without skips", rec.ID, i+1)
			}
			p.Pass()
			continue
		}
		before := st.Clone()
		mv, err := st.ParseMove(m.Text)
		if err != nil {
			return Point{}, fmt.Errorf("game %s move %d %q: %w", rec.ID, i+1, m.Text, err)
		}
		st.Apply(mv)
		if m.Seat != seat {
			continue
		}
		j := judged{i: i, board: before.Text(), played: before.FormatMove(mv)}
		if j.before, err = judgeFor(ctx, judge, before, seat); err != nil {
			return Point{}, fmt.Errorf("game %s before move %d: %w", rec.ID, i+1, err)
		}
		if j.after, err = judgeFor(ctx, judge, st, seat); err != nil {
			return Point{}, fmt.Errorf("game %s after move %d: %w", rec.ID, i+1, err)
		}
		seen = append(seen, j)
		if lost(j.before) {
			if len(seen) == 1 {
				return Point{Note: "the position was already lost before this agent's first move", Before: j.before, Certainty: Proven, Judged: 2}, nil
			}
			prev := seen[len(seen)-2]
			return pointAt(rec, prev, ProvenLater, 2*len(seen)), nil
		}
		if lost(j.after) {
			return pointAt(rec, j, Proven, 2*len(seen)), nil
		}
	}
	if len(seen) == 0 {
		return Point{Note: "this agent made no move in the game"}, nil
	}
	p := pointAt(rec, largestDrop(seen), Estimate, 2*len(seen))
	if rec.Result.Forfeit != "" {
		p.Note = "the game ended on a penalty (" + rec.Result.Forfeit + ") while no position of the agent was proven lost"
	}
	return p, nil
}

// judgeFor analyses st and turns the verdict to seat's side.
func judgeFor(ctx context.Context, judge Judge, st engine.State, seat int) (housebots.Analysis, error) {
	if st.Terminal() {
		a := housebots.Analysis{Proven: true}
		switch r := st.Result(); {
		case r.Draw || r.Winner == engine.NoSeat:
		case r.Winner == seat:
			a.Value = search.Win
		default:
			a.Value = -search.Win
		}
		return a, nil
	}
	a, err := judge(ctx, st)
	if err != nil {
		return a, err
	}
	if st.ToMove() != seat {
		a.Value, a.Move = -a.Value, "" // the opponent's best move is not the seat's
	}
	return a, nil
}

func lost(a housebots.Analysis) bool { return a.Proven && a.Outcome() < 0 }

// largestDrop is the move after which the seat's estimate fell the most.
func largestDrop(seen []judged) judged {
	best, drop := seen[0], math.Inf(-1)
	for _, j := range seen {
		if d := j.before.Value - j.after.Value; d > drop {
			best, drop = j, d
		}
	}
	return best
}

func pointAt(rec *record.Game, j judged, c Certainty, n int) Point {
	m := rec.Moves[j.i]
	p := Point{Move: j.i + 1, Ply: m.Ply, Played: m.Text, Source: m.Source, Board: j.board, Before: j.before, After: j.after, Certainty: c, Judged: n}
	if j.before.Move != j.played {
		p.Better = j.before.Move
	}
	return p
}
