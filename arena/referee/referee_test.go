package referee_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/host"
	"arena/plugins/host/proctree"
	"arena/plugins/protocol"
)

// procs remembers every agent process a test launched, and every process
// in their trees while the game ran, to check that none outlives its game.
type procs struct {
	mu    sync.Mutex
	list  []*host.Process
	watch *proctree.Watch
}

// gameLauncher starts the agents of every real-process game of the test
// binary's run: one launcher, as an arena has one for a whole league, so
// the machine's sandbox probe (a sandboxed start of its own) and the
// cgroup discovery run once, not once per game.
var gameLauncher = sync.OnceValue(func() *host.Launcher {
	return &host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: testAgents, StderrBytes: 4096}
})

func (p *procs) launcher(t *testing.T) referee.Launcher {
	l := gameLauncher()
	if err := proctree.Available(); err != nil {
		t.Skip(err)
	}
	p.watch = proctree.NewWatch(10 * time.Millisecond)
	return func(ctx context.Context, pl referee.Player, opt host.Options) (referee.Handle, error) {
		proc, err := l.Launch(ctx, pl.Ref, opt)
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.list = append(p.list, proc)
		p.mu.Unlock()
		p.watch.Add(proc.Pid())
		return referee.Wrap(proc), nil
	}
}

// assertGone checks that every process seen in any agent's tree — the
// agents and whatever they started — is gone, by its pid, and returns them.
func (p *procs) assertGone(t *testing.T) []proctree.Proc {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	seen, err := p.watch.Stop()
	if err != nil {
		t.Fatalf("reading the agents' process trees: %v", err)
	}
	alive, err := proctree.WaitGone(seen, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range alive {
		t.Errorf("agent process %v still alive after the game", pr)
		_ = syscall.Kill(pr.Pid, syscall.SIGKILL) // leave no leak behind
	}
	for _, proc := range p.list {
		if !proc.WaitGone(10 * time.Second) {
			t.Errorf("agent %s (pgid %d): process group still alive after the game", proc.Cmd.Ref, proc.Pid())
		}
	}
	return seen
}

// latencyProfile is comp424-2017 with short limits and generous margins:
// the late agent's 4 s is 2 s past the limit and 4 s before the end of the
// 6 s cushion. Its games run on a clock that stands still but for cues
// (timing), except the sleeper's, on the real clock, where an honest
// opponent's prompt reply (microseconds) is far inside 2 s.
func latencyProfile(t *testing.T) engine.Profile {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.FirstMoveLimit = 20 * time.Second // first requests include process warm-up
	p.MoveLimit = 2 * time.Second
	p.Cushion = 6 * time.Second
	return p
}

func play(t *testing.T, a, b string) *record.Game {
	t.Helper()
	return playGame(t, bohnenspiel.Game{}, nil, latencyProfile(t), a, b)
}

func events(rec *record.Game, kind string) []record.Event {
	var out []record.Event
	for _, e := range rec.Events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func TestNormalGame(t *testing.T) {
	t.Parallel() // on the clock that stands still: nothing timed
	rec := play(t, "builtin:random", "builtin:greedy")
	if rec.Result.Forfeit != "" || len(rec.Events) != 0 {
		t.Fatalf("clean game has penalties: %+v %+v", rec.Result, rec.Events)
	}
	if len(rec.Moves) == 0 || rec.Final == "" {
		t.Fatalf("no moves recorded: %+v", rec)
	}
	for _, m := range rec.Moves {
		if m.Source != record.SourceAgent {
			t.Fatalf("move %d substituted in a clean game: %+v", m.Ply, m)
		}
	}
	// The record replays to the same final position.
	st, _ := bohnenspiel.Game{}.NewState(nil)
	if err := engine.Replay(st, rec.History()); err != nil {
		t.Fatal(err)
	}
	if st.Text() != rec.Final || !st.Terminal() {
		t.Fatalf("replayed record ends at %q (terminal %v), record says %q", st.Text(), st.Terminal(), rec.Final)
	}
	if rec.Result.Draw == (rec.Result.Winner >= 0) {
		t.Fatalf("inconsistent result %+v", rec.Result)
	}
}

// Serial: the referee's real wait is bounded from above, so the test
// keeps the machine to itself; and not under -short, which it would keep
// waiting 8 s.
func TestSleeperLosesOnTimeoutAndIsKilled(t *testing.T) {
	longRunning(t)
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skipf("the sleeper agent starts a child with the sleep command: %v", err)
	}
	// The real clock: how long the referee waits is the subject.
	rec, seen := playGameProcs(t, timing{real: true}, bohnenspiel.Game{}, nil, latencyProfile(t), "builtin:sleeper", "builtin:random")
	if rec.Result.Winner != 1 || rec.Result.Reason != "TIMEOUT" || rec.Result.Forfeit != "timeout" {
		t.Fatalf("result %+v, want seat 1 to win by TIMEOUT", rec.Result)
	}
	if len(rec.Moves) != 2 {
		t.Fatalf("sleeper's second move should be the timeout, got moves %+v", rec.Moves)
	}
	// The referee stops waiting at limit + cushion (2 s + 6 s), not before
	// and not much later: it measures its wait on the real clock.
	ev := events(rec, "timeout")
	if len(ev) != 1 {
		t.Fatalf("events %+v", rec.Events)
	}
	m := regexp.MustCompile(`^no reply within (\S+) \(waited (\S+)\)$`).FindStringSubmatch(ev[0].Detail)
	if m == nil {
		t.Fatalf("timeout detail %q", ev[0].Detail)
	}
	hard, err1 := time.ParseDuration(m[1])
	waited, err2 := time.ParseDuration(m[2])
	if err1 != nil || err2 != nil {
		t.Fatalf("timeout detail %q: %v %v", ev[0].Detail, err1, err2)
	}
	if hard != 8*time.Second || waited < 8*time.Second || waited > 8*time.Second+3*time.Second {
		t.Fatalf("referee waited %v for an %v deadline (want the 8 s of 2 s limit + 6 s cushion, give or take a loaded machine)", waited, hard)
	}
	if !strings.Contains(rec.Stderr[0], "child pid") {
		t.Fatalf("sleeper stderr not captured: %q", rec.Stderr[0])
	}
	// The sleeper's child was seen in its tree while it ran (and
	// assertGone has checked it is gone since).
	child := false
	for _, p := range seen {
		child = child || strings.Contains(p.Name, "sleep") && !strings.Contains(p.Name, "referee")
	}
	if !child {
		t.Fatalf("the sleeper's child never showed in its process tree: %v", seen)
	}
}

// The late agent's second reply comes lateBy after its request on the
// game's clock, on cue: a busy machine can make neither it nor its
// opponent later than that.
func TestLateReplyInCushionGetsRandomMove(t *testing.T) {
	t.Parallel()
	rec, _ := playGameProcs(t, timing{cueAt: 2, cueBy: lateBy}, bohnenspiel.Game{}, nil, latencyProfile(t), "builtin:late", "builtin:random")
	late := events(rec, "late")
	if len(late) != 1 || late[0].Seat != 0 || late[0].Penalty != string(engine.RandomMove) {
		t.Fatalf("late events %+v", rec.Events)
	}
	if late[0].Reply != "SKIP 0" {
		t.Fatalf("discarded reply not recorded: %+v", late[0])
	}
	// Its second move (ply 2) was a substitute, and the game went on.
	var sub *record.Move
	for i := range rec.Moves {
		if rec.Moves[i].Seat == 0 && rec.Moves[i].Source == record.SourceRandom {
			sub = &rec.Moves[i]
		}
	}
	if sub == nil || sub.Ply != 2 {
		t.Fatalf("no substitute at ply 2: %+v", rec.Moves)
	}
	if sub.Text == "SKIP 0" {
		t.Logf("substitute happened to be SKIP 0 too")
	}
	if rec.Result.Forfeit != "" || len(rec.Moves) < 10 {
		t.Fatalf("game did not go on normally: %+v, %d moves", rec.Result, len(rec.Moves))
	}
}

func TestGarbageLosesOnTimeout(t *testing.T) {
	t.Parallel() // its own agent processes; the verdict is the bad reply's, which no clock decides
	rec := play(t, "builtin:random", "builtin:garbage")
	if rec.Result.Winner != 0 || rec.Result.Reason != "TIMEOUT" {
		t.Fatalf("result %+v, want seat 0 to win by TIMEOUT", rec.Result)
	}
	ev := events(rec, "unparseable")
	if len(ev) != 1 || ev[0].Reply != "hello referee" || ev[0].Penalty != string(engine.Loss) {
		t.Fatalf("events %+v", rec.Events)
	}
}

func TestIllegalMoveLosesWithCourseReason(t *testing.T) {
	t.Parallel() // its own agent processes; the verdict is the bad reply's, which no clock decides
	rec := play(t, "builtin:illegal", "builtin:random")
	if rec.Result.Winner != 1 || rec.Result.Reason != "ILLEGAL MOVE: Player 0 plays pit 9" {
		t.Fatalf("result %+v", rec.Result)
	}
	if len(rec.Result.Scores) != 2 {
		t.Fatalf("scores not kept on a forfeit: %+v", rec.Result)
	}
}

func TestAgentErrorGetsRandomMove(t *testing.T) {
	t.Parallel() // its own agent processes; the verdict is the bad reply's, which no clock decides
	rec := play(t, "builtin:random", "builtin:erring")
	ev := events(rec, "error")
	if len(ev) != 1 || ev[0].Seat != 1 || ev[0].Penalty != string(engine.RandomMove) {
		t.Fatalf("events %+v", rec.Events)
	}
	if rec.Moves[1].Source != record.SourceRandom || rec.Result.Forfeit != "" {
		t.Fatalf("move 1 %+v, result %+v", rec.Moves[1], rec.Result)
	}
}

func TestDeadAgentGetsRandomMovesToTheEnd(t *testing.T) {
	t.Parallel() // on the clock that stands still: nothing timed
	rec := play(t, "builtin:quitter", "builtin:random")
	dead := events(rec, "dead")
	if len(dead) != 1 || dead[0].Seat != 0 {
		t.Fatalf("dead events %+v", rec.Events)
	}
	if rec.Result.Forfeit != "" {
		t.Fatalf("a dead agent must not forfeit under comp424-2017: %+v", rec.Result)
	}
	// Its first two moves were its own; every later one a substitute.
	n := 0
	for _, m := range rec.Moves {
		if m.Seat != 0 {
			continue
		}
		n++
		want := record.SourceAgent
		if n >= 3 {
			want = record.SourceRandom
		}
		if m.Source != want {
			t.Fatalf("seat 0 move %d (ply %d): source %s, want %s", n, m.Ply, m.Source, want)
		}
	}
	if n < 4 {
		t.Fatalf("game too short to show substitutes: %d moves by seat 0", n)
	}
}

func TestStderrFloodIsCapped(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a whole game of an agent writing megabytes to stderr: runs without -short")
	}
	rec := play(t, "builtin:noisy", "builtin:random")
	if len(rec.Stderr[0]) > 4096+100 {
		t.Fatalf("stderr tail is %d bytes, cap 4096", len(rec.Stderr[0]))
	}
	if !strings.Contains(rec.Stderr[0], "LAST LINE") {
		t.Fatalf("tail lost the last line: %q", rec.Stderr[0][max(0, len(rec.Stderr[0])-200):])
	}
	if ev := events(rec, "error"); len(ev) != 1 {
		t.Fatalf("events %+v", rec.Events)
	}
}

func TestVersionMismatchIsRefused(t *testing.T) {
	t.Parallel() // its own agent process; nothing timed
	l := &host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: testAgents}
	_, err := l.Launch(context.Background(), "builtin:oldproto", host.Options{StartTimeout: 30 * time.Second})
	if err == nil {
		t.Fatal("an agent speaking another protocol version was accepted")
	}
	if !errors.Is(err, host.ErrVersion) {
		t.Fatalf("error does not say version mismatch: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"builtin:oldproto", fmt.Sprintf("protocol version %d", protocol.Version), fmt.Sprintf("version: %d", protocol.Version-1), "rebuild it"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not mention %q", msg, want)
		}
	}
}
