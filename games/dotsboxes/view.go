package dotsboxes

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// AgentView is the platform-style gamestate for the agent in seat, who is
// always "player 0" in it: owners are 0 for that agent, 1 for its opponent,
// -1 for none. ResponseDeadline is the reply's deadline as RFC 3339 UTC with
// milliseconds (e.g. "2026-03-01T12:00:05.000Z"), "" when unknown; the
// platform's own format is not known. IsMover is true (only the mover is
// asked), InvalidMove false and GameStatus "RUNNING".
func (s *State) AgentView(seat int, opponent string, deadline time.Time) ([]byte, error) {
	if seat != 0 && seat != 1 {
		return nil, fmt.Errorf("dots-and-boxes: agent view for seat %d", seat)
	}
	opp, err := json.Marshal(opponent)
	if err != nil {
		return nil, err
	}
	g := s.g
	rel := func(owner int) int {
		switch {
		case owner < 0:
			return -1
		case owner == seat:
			return 0
		}
		return 1
	}
	b := make([]byte, 0, 256+24*g.nLines+100*g.nBoxes)
	b = append(b, `{"Dimensions":[`...)
	b = strconv.AppendInt(b, int64(g.rows), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(g.cols), 10)
	b = append(b, `],"IsMover":true,"ResponseDeadline":"`...)
	if !deadline.IsZero() {
		b = deadline.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	}
	b = append(b, `","MyScore":`...)
	b = strconv.AppendInt(b, int64(s.scores[seat]), 10)
	b = append(b, `,"OppScore":`...)
	b = strconv.AppendInt(b, int64(s.scores[seat^1]), 10)
	b = append(b, `,"InvalidMove":false,"OpponentId":`...)
	b = append(b, opp...)
	b = append(b, `,"GameStatus":"RUNNING","Grid":[`...)
	for i := 0; i < g.nLines; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = s.appendLine(b, i)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(rel(s.drawer(i))), 10)
		b = append(b, ']')
	}
	b = append(b, `],"Squares":[`...)
	for k := 0; k < g.nBoxes; k++ {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, "[["...)
		for j, l := range g.boxSides[k] {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = s.appendLine(b, int(l))
			b = append(b, ',')
			b = strconv.AppendBool(b, s.drawer(int(l)) >= 0)
			b = append(b, ']')
		}
		b = append(b, "],"...)
		b = strconv.AppendInt(b, int64(rel(s.owner(k))), 10)
		b = append(b, ']')
	}
	b = append(b, "]}"...)
	return b, nil
}

// appendLine writes line i's dots as `[a,b],[c,d]`.
func (s *State) appendLine(b []byte, i int) []byte {
	e := s.g.ends[i]
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(e[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(e[1]), 10)
	b = append(b, "],["...)
	b = strconv.AppendInt(b, int64(e[2]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(e[3]), 10)
	return append(b, ']')
}
