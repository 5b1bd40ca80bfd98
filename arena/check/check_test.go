package check

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/host"
)

func TestCauseOf(t *testing.T) {
	cases := []struct {
		kind  string
		model engine.TimeModel
		want  string
	}{
		{"timeout", engine.PerMove, CauseSlow},
		{"timeout", engine.CPUBudget, CauseCPU},
		{"late", engine.PerMove, CauseLate},
		{"illegal", engine.PerMove, CauseIllegal},
		{"unparseable", engine.PerMove, CauseUnparseable},
		{"error", engine.PerMove, CauseError},
		{"dead", engine.PerMove, CauseCrash},
		{"memory", engine.PerMove, CauseMemory},
		{"restart", engine.PerMove, ""},
	}
	for _, c := range cases {
		if got := causeOf(c.kind, c.model); got != c.want {
			t.Errorf("causeOf(%s, %s) = %q, want %q", c.kind, c.model, got, c.want)
		}
	}
}

func TestStartProblem(t *testing.T) {
	cases := []struct {
		err  error
		want string
		says string
	}{
		{fmt.Errorf("agent x was refused: %w: details", host.ErrVersion), CauseProtocol, "refused"},
		{errors.New("agent x failed to start: it did not complete the plugin handshake (...): Unrecognized remote plugin message: hi"), CauseStdoutNoise, "before the plugin handshake"},
		{errors.New("agent file /a/b (mode 0700) is not readable and executable by other users"), CauseStart, "readable by all users"},
		{errors.New("agent x: no such file"), CauseStart, "no such file"},
	}
	for _, c := range cases {
		p := startProblem(c.err, 0)
		if p.Cause != c.want || !strings.Contains(p.Detail, c.says) {
			t.Errorf("%v: got %s %q, want %s mentioning %q", c.err, p.Cause, p.Detail, c.want, c.says)
		}
	}
}

// boardAt draws the position the agent was asked about: after the moves
// before the event's ply.
func TestBoardAt(t *testing.T) {
	g := bohnenspiel.Game{}
	rec := &record.Game{Moves: []record.Move{{Ply: 0, Seat: 0, Text: "PIT 0 0"}, {Ply: 1, Seat: 1, Text: "PIT 1 3"}, {Ply: 2, Seat: 0, Text: "PIT 0 1"}}}
	c := Config{Game: g}
	st, _ := g.NewState(nil)
	if err := engine.Replay(st, []string{"PIT 0 0", "PIT 1 3"}); err != nil {
		t.Fatal(err)
	}
	want := st.(engine.Drawer).Draw()
	if got := boardAt(c, rec, record.Event{Ply: 2, Seat: 0}); got != want {
		t.Errorf("board at ply 2:\n%s\nwant:\n%s", got, want)
	}
	start, _ := g.NewState(nil)
	if got := boardAt(c, rec, record.Event{Ply: 0, Seat: 0}); got != start.(engine.Drawer).Draw() {
		t.Errorf("board at ply 0:\n%s", got)
	}
}

// finish: the verdict names each cause once, in order; the numbers near
// their limits become warnings.
func TestFinish(t *testing.T) {
	r := &Report{
		Time:     TimeCheck{Model: "per-move", SlowestMS: 650, LimitMS: 700, Game: 1},
		Memory:   Measure{Value: 500, Limit: 520},
		Problems: []Problem{{Cause: CauseLate}, {Cause: CauseIllegal}, {Cause: CauseLate}},
	}
	r.finish()
	if r.Pass || r.Verdict != "FAIL: late, illegal" {
		t.Errorf("verdict %q", r.Verdict)
	}
	if r.Time.SpareMS != 50 {
		t.Errorf("spare %v", r.Time.SpareMS)
	}
	w := strings.Join(r.Warnings, "\n")
	if !strings.Contains(w, "93% of its 700ms limit") || !strings.Contains(w, "500 MiB of the 520 MiB") {
		t.Errorf("warnings:\n%s", w)
	}
	ok := &Report{Time: TimeCheck{Model: "per-move", SlowestMS: 10, LimitMS: 700, Game: 1}}
	ok.finish()
	if !ok.Pass || ok.Verdict != "PASS" || len(ok.Warnings) != 0 {
		t.Errorf("clean report: %+v", ok)
	}
}
