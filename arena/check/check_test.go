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

// An agent that fails every move from ply 6 gets one problem in full per
// cause and a count with the games and plies of the rest, not a board per
// move; the verdict comes first.
func TestWriteTextGroupsByCause(t *testing.T) {
	board := strings.Repeat("| . . . . . . |\n", 6)
	stderr := strings.Repeat("trace line\n", 12)
	r := &Report{Agent: "bad", Game: "bohnenspiel", Profile: "comp424-2017", Protocol: ProtocolCheck{OK: true, Arena: 4},
		Time: TimeCheck{Model: "per-move", SlowestMS: 5, LimitMS: 700, Game: 1, Moves: 3}}
	for g := 1; g <= 4; g++ {
		r.Games = append(r.Games, GameSummary{N: g, Opponent: "builtin:random", Outcome: "lost", Result: "0-1", Moves: 60})
		for ply := 6; ply < 60; ply += 2 {
			r.Problems = append(r.Problems, Problem{Cause: CauseIllegal, Game: g, Ply: ply, Detail: fmt.Sprintf("illegal move at ply %d", ply),
				Reply: "NOTHING", Penalty: "random-move", Board: board, Stderr: stderr})
		}
	}
	r.Problems = append(r.Problems, Problem{Cause: CauseSlow, Game: 3, Ply: 9, Detail: "no reply", Board: board})
	r.finish()
	var b strings.Builder
	r.WriteText(&b)
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) >= 60 {
		t.Fatalf("%d lines, want under 60:\n%s", len(lines), out)
	}
	if !strings.HasPrefix(lines[1], "verdict: FAIL: illegal 108 times, slow 1 time") {
		t.Errorf("verdict not at the top: %q", lines[1])
	}
	for _, want := range []string{
		"FAIL illegal (game 1, ply 6)", "the reply:     \"NOTHING\"", "| . . . . . . |", "    | trace line",
		"illegal again, 107 times more in 4 games", "game 1: plies 8, 10, 12, 14, 16, 18, 20, ... 58 (26 in all)",
		"game 4: plies 6, 8,", "FAIL slow (game 3, ply 9)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "| . . . . . . |"); n != 12 {
		t.Errorf("%d board lines, want two boards of 6", n)
	}
	if lines[len(lines)-1] != r.Verdict {
		t.Errorf("last line %q, want the verdict", lines[len(lines)-1])
	}
}
