package authoring

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/check"
	"arena/cmd/arena/internal/cli"
	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
	"arena/plugins/protocol"
)

// checkReport runs arena check with --json and decodes the report.
func checkReport(t *testing.T, args ...string) (*check.Report, error) {
	t.Helper()
	e, out, errb := inproc.Env(t)
	err := inproc.Run(t, e, append(append([]string{"check"}, args...), "--json")...)
	var r check.Report
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("check %v: no JSON report (%v): err %v\nstdout:\n%s\nstderr:\n%s", args, jerr, err, out, errb)
	}
	return &r, err
}

// TestCheckNamesEachFailure checks one fixture agent per failure mode: each
// fails the check with exit status 3 naming its cause; the well-behaved
// ones pass.
func TestCheckNamesEachFailure(t *testing.T) {
	clitest.LongRunning(t)
	t.Parallel() // its own processes and directories; mostly waiting on them
	dir := t.TempDir()
	bin := filepath.Join(dir, "ok")
	clitest.BuiltCopy(t, clitest.CheckFixturePkg, bin)
	cases := []struct {
		mode  string
		args  []string
		cause string // "" for a pass
	}{
		{"ok", []string{"--game", "bohnenspiel"}, ""},
		// Stdout after the handshake is discarded: a warning, not a failure.
		{"chatty", []string{"--game", "bohnenspiel"}, ""},
		{"slow", []string{"--game", "bohnenspiel"}, check.CauseSlow},
		// A wide cushion keeps the late reply inside it on a loaded machine.
		{"late", []string{"--game", "bohnenspiel", "--set", "cushion=5s"}, check.CauseLate},
		{"illegal", []string{"--game", "bohnenspiel"}, check.CauseIllegal},
		{"unparseable", []string{"--game", "bohnenspiel"}, check.CauseUnparseable},
		{"crash", []string{"--game", "bohnenspiel"}, check.CauseCrash},
		{"noise", []string{"--game", "bohnenspiel"}, check.CauseStdoutNoise},
		// A long limit: on a loaded machine filling 64 MiB can take longer
		// than the course's, and only the memory rule may end the move.
		{"memory", []string{"--game", "bohnenspiel", "--set", "memory-mb=64", "--set", "move-limit=60s"}, check.CauseMemory},
		{"cpu", []string{"--game", "cachex", "--param", "n=5", "--set", "budget=500ms"}, check.CauseCPU},
		{"version", []string{"--game", "bohnenspiel"}, check.CauseProtocol},
		{"error", []string{"--game", "bohnenspiel"}, check.CauseError},
		{"open", []string{"--game", "bohnenspiel"}, check.CauseOpen},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			agent := filepath.Join(dir, c.mode)
			if c.mode != "ok" {
				if err := os.Link(bin, agent); err != nil {
					t.Fatal(err)
				}
			}
			r, err := checkReport(t, append([]string{agent, "--games", "1"}, c.args...)...)
			if c.cause == "" {
				if err != nil || !r.Pass || r.Verdict != "PASS" {
					t.Fatalf("want PASS, got %v (%s): %+v", err, r.Verdict, r.Problems)
				}
				if c.mode == "chatty" && (!strings.Contains(r.Stdout, "thinking about") || len(r.Warnings) == 0) {
					t.Errorf("stdout noise not reported: stdout %q, warnings %q", r.Stdout, r.Warnings)
				}
				if r.Time.Moves == 0 || r.Startup.Value <= 0 || len(r.Games) != 1 {
					t.Errorf("report lacks measurements: %+v", r)
				}
				return
			}
			if err == nil || cli.ExitCode(err) != cli.ExitBroken || r.Pass {
				t.Fatalf("want FAIL with exit status 3, got %v, pass %v", err, r.Pass)
			}
			if causes := r.Causes(); len(causes) != 1 || causes[0] != c.cause {
				t.Fatalf("causes %v, want [%s]; verdict %q; problems %+v", causes, c.cause, r.Verdict, r.Problems)
			}
			p := r.Problems[0]
			// The slowest move is the failing one: a discarded late reply
			// past its limit, or no reply at all.
			if c.mode == "late" && (r.Time.SpareMS >= 0 || r.Time.NoReply || r.Time.Ply != p.Ply) {
				t.Errorf("late reply not the slowest move: %+v", r.Time)
			}
			if c.mode == "slow" && (!r.Time.NoReply || r.Time.Ply != p.Ply) {
				t.Errorf("unanswered request not the slowest move: %+v", r.Time)
			}
			if c.mode == "version" && !strings.Contains(p.Detail, fmt.Sprintf("needs the SDK of protocol version %d", protocol.Version)) {
				t.Errorf("the refusal should name the SDK version needed: %s", p.Detail)
			}
			if p.Game > 0 {
				// Mid-game failures carry the position and the stderr the
				// fixture wrote before misbehaving.
				if p.Board == "" || !strings.Contains(p.Stderr, "fixture "+c.mode+": misbehaving at ply 2") {
					t.Errorf("problem lacks the board or the stderr there: %+v", p)
				}
			}
		})
	}
}

// TestCheckText is the plain-words report of an illegal move: the cause,
// the reply, the board drawing and the agent's stderr, then FAIL.
func TestCheckText(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "illegal")
	clitest.BuiltCopy(t, clitest.CheckFixturePkg, bin)
	e, out, _ := inproc.Env(t)
	err := inproc.Run(t, e, "check", bin, "--game", "bohnenspiel", "--games", "1")
	if err == nil || cli.ExitCode(err) != cli.ExitBroken {
		t.Fatalf("want exit status 3: %v", err)
	}
	s := out.String()
	for _, want := range []string{fmt.Sprintf("handshake:      ok, protocol version %d", protocol.Version), "start-up:", "memory peak:", "FAIL illegal (game 1, ply 2)",
		`the reply:     "NOTHING 0"`, "+----+----+", "| fixture illegal: misbehaving at ply 2", "\nFAIL: illegal\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
}

// TestCheckMissingAgent reports a start failure as a report, not a crash.
func TestCheckMissingAgent(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	r, err := checkReport(t, filepath.Join(t.TempDir(), "nosuch"), "--game", "pentago-twist")
	if err == nil || r.Pass || r.Causes()[0] != check.CauseStart || r.Protocol.OK {
		t.Fatalf("want a start failure: %v %+v", err, r)
	}
}

// TestCheckUnreadableBinary: in a sandbox the agent runs as another user,
// so a binary only its owner can read fails with a message saying so.
func TestCheckUnreadableBinary(t *testing.T) {
	t.Parallel() // its own copy of the fixture; nothing timed
	clitest.LongRunning(t)
	e, _, _ := inproc.Env(t)
	if !e.Launcher.Sandboxed() {
		t.Skip("agents are not sandboxed on this machine: the owner's binary is runnable")
	}
	bin := filepath.Join(t.TempDir(), "ok")
	clitest.BuiltCopy(t, clitest.CheckFixturePkg, bin)
	if err := os.Chmod(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	r, err := checkReport(t, bin, "--game", "bohnenspiel", "--games", "1")
	if err == nil || r.Pass || r.Causes()[0] != check.CauseStart {
		t.Fatalf("want a start failure: %v %+v", err, r)
	}
	if d := r.Problems[0].Detail; !strings.Contains(d, "chmod") || !strings.Contains(d, "readable by all users") {
		t.Errorf("the message should say how to fix it: %s", d)
	}
}

// TestCheckReportOfAnAgentFailingEveryMove: an agent that fails every move
// from ply 6 gets a short report, verdict first, one failure in full.
func TestCheckReportOfAnAgentFailingEveryMove(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	e, out, _ := inproc.Env(t)
	// A substitute move instead of the course's loss keeps the games going.
	err := inproc.Run(t, e, "check", "lua:testdata/fails-from-ply6.lua", "--game", "bohnenspiel", "--games", "4", "--set", "penalty.unparseable=random-move")
	if err == nil || cli.ExitCode(err) != cli.ExitBroken {
		t.Fatalf("want FAIL with exit status 3: %v\n%s", err, out)
	}
	s := out.String()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) >= 60 {
		t.Fatalf("%d lines, want under 60:\n%s", len(lines), s)
	}
	if !strings.HasPrefix(lines[1], "verdict: FAIL: ") {
		t.Errorf("verdict not at the top:\n%s", s)
	}
	if n := strings.Count(s, "\nFAIL "); n != 1 {
		t.Errorf("%d failures in full, want one:\n%s", n, s)
	}
	for _, want := range []string{"(game 1, ply 6)", "giving up at ply 6", "again,", "more in 4 games", "game 4: plies "} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
}
