package cli

import (
	"bytes"
	"strings"
	"testing"

	"arena/arena/record"
)

// play says plainly, once a game is over, that the machine was too busy
// for a fair verdict when the record's evidence says so, and nothing of
// the kind for a late move the agent slept through.
func TestGameOverSaysTheMachineWasTooBusy(t *testing.T) {
	waited, slept := 900.0, 0.0
	late := func(rq *float64) *record.Game {
		ev := &record.Evidence{WallMS: 1200, LimitMS: 700, RunQueueMS: rq}
		ev.PossiblyContention = ev.Contended()
		return &record.Game{ID: "g1", Agents: [2]record.Agent{{Name: "java"}, {Name: "random"}},
			Events: []record.Event{{Ply: 3, Seat: 0, Kind: "late", Evidence: ev}}}
	}
	var out bytes.Buffer
	plog := newPenaltyLog(&out, false, "")
	plog.gameOver(late(&waited))
	if s := out.String(); !strings.Contains(s, "game g1") || !strings.Contains(s, "java") || !strings.Contains(s, "the machine was too busy for a fair verdict") {
		t.Fatalf("game over printed %q", s)
	}
	out.Reset()
	plog.gameOver(late(&slept))
	if out.Len() != 0 {
		t.Fatalf("a sleeping agent's late move printed %q", out.String())
	}
}
