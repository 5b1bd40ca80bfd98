package referee_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/engine"
	"arena/internal/forksafe"
)

// The hostile zoo: agents that misbehave on purpose, each played as seat 0
// against builtin random under the course profile of every game, with
// limits shortened so the suite stays quick. Each game must end with the
// profile's verdict for the misbehaviour, the opponent's game untouched
// (no penalty, every one of its moves its own) and no process left.

// hostileProfile shortens a course profile's limits without changing its
// rules: per-move limits of 2 s (60 s for a first move) with a 4 s cushion
// where the course had one, a 3 s CPU budget with a 5 s grace (the
// wall-clock wait past the budget), a 10 s start-up. The games run on a
// clock that stands still (timing), so these limits are met by every reply
// however busy the machine, and missed only on cue, by the behaviours that
// are a matter of time; the CPU budget is the agent's real CPU time, which
// building and sending 100 MB is far inside. The start-up limit is real
// time, raised but where it is the subject.
func hostileProfile(p engine.Profile) engine.Profile {
	p = p.Clone()
	switch p.Time {
	case engine.PerMove:
		p.FirstMoveLimit, p.MoveLimit = time.Minute, 2*time.Second
		if p.Cushion > 0 {
			p.Cushion = 4 * time.Second
		}
	case engine.CPUBudget:
		p.Budget, p.BudgetGrace = 3*time.Second, 5*time.Second
	}
	p.StartupTimeout = 10 * time.Second
	return p
}

// resolve follows "as-timeout" and "as-dead" to the penalty applied and
// the failure a loss is recorded under.
func resolve(p engine.Profile, f engine.Failure) (engine.Failure, engine.Penalty) {
	for range 4 {
		switch p.PenaltyFor(f) {
		case engine.AsTimeout:
			f = engine.FailTimeout
		case engine.AsDead:
			f = engine.FailDead
		default:
			return f, p.PenaltyFor(f)
		}
	}
	return f, engine.Loss
}

// badTextKind is how the game's own parser classes text that is no move
// (hex cross-out calls it illegal, the others unparseable).
func badTextKind(t *testing.T, c courseGame) engine.Failure {
	st, err := c.g.NewState(c.params)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.ParseMove("\uFFFD")
	var me *engine.MoveError
	if errors.As(err, &me) && me.Kind == engine.Illegal {
		return engine.FailIllegal
	}
	return engine.FailUnparseable
}

type hostile struct {
	name string
	ref  func(t *testing.T) string
	// want is the failure the referee must record for seat 0 under c's
	// profile, "" for none.
	want func(t *testing.T, c courseGame) engine.Failure
	// alt, if set, is another verdict the profile allows (the failure
	// that may come first).
	alt func(c courseGame) engine.Failure
	// games, if set, are the only games played: a behaviour whose verdict
	// does not depend on the game's rules (a start-up that never ends, a
	// Lua VM to interrupt, a reply too big to read) is played where its
	// profiles differ, a per-move limit (Bohnenspiel) and a CPU budget
	// with a memory limit (Cachex), not five times over; the mapping of
	// each verdict to each course's penalty is covered by the cheap cases,
	// which play every game. Of two behaviours with one verdict (a NUL
	// byte and invalid UTF-8 are bad text, a panic in a goroutine and an
	// exit mid-game are deaths) one plays every game and the other the
	// two profiles: a second pass over the five courses maps the same
	// verdict again.
	games []string
	// tm is how the game keeps time: on a clock that stands still but for
	// the cue of a behaviour that is a matter of time.
	tm timing
}

// perMoveAndBudget are the two kinds of profile: Bohnenspiel's per-move
// limit and Cachex's CPU budget with its memory limit.
var perMoveAndBudget = []string{"bohnenspiel", "cachex"}

// bigReplyAlt: building a 100 MB reply breaks a memory limit below it
// (Cachex's 100 MiB); the host may catch that before the reply is sent.
func bigReplyAlt(c courseGame) engine.Failure {
	if c.prof.MemoryMB > 0 && int64(c.prof.MemoryMB)<<20 < 3*floodBytes {
		return engine.FailMemory
	}
	return ""
}

func fixed(f engine.Failure) func(*testing.T, courseGame) engine.Failure {
	return func(*testing.T, courseGame) engine.Failure { return f }
}

func builtinRef(name string) func(*testing.T) string {
	return func(*testing.T) string { return "builtin:" + name }
}

func luaRef(src string) func(*testing.T) string {
	return func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "hostile.lua")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return "lua:" + p
	}
}

// rawBinary writes a program that ignores the plugin protocol.
func rawBinary(body string) func(*testing.T) string {
	return func(t *testing.T) string {
		p := filepath.Join(t.TempDir(), "raw-agent")
		if err := forksafe.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n")); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// luaOnSecondMove plays a random legal move, except on its second move
// request, where it runs body.
func luaOnSecondMove(body string) string {
	return `
local n = 0
function choose_move(state, clock)
  n = n + 1
  if n == 2 then
    ` + body + `
  end
  local m = state:legal_moves()
  return m[math.random(#m)]
end`
}

func hostiles() []hostile {
	timeoutOrLate := func(t *testing.T, c courseGame) engine.Failure {
		switch {
		case c.prof.Time == engine.CPUBudget:
			return "" // sleeping costs no CPU time
		case c.prof.Cushion > 0:
			return engine.FailLate
		}
		return engine.FailTimeout
	}
	// still: nothing in the behaviour takes time. hangs: the reply never
	// comes, and the clock moves past any deadline once the request has
	// left. cushioned: the reply comes cushionedBy after its request.
	// startup: the start-up limit (real time on the host) is the subject.
	still := timing{}
	hangs := timing{cueAt: 2, cueBy: time.Hour}
	cushioned := timing{cueAt: 2, cueBy: cushionedBy}
	startup := timing{startupSubject: true}
	return []hostile{
		{"never answers", builtinRef("silent"), fixed(engine.FailTimeout), nil, nil, hangs},
		{"answers in the cushion", builtinRef("cushioned"), timeoutOrLate, nil, nil, cushioned},
		{"invalid UTF-8", builtinRef("badutf8"), badTextKind, nil, nil, still},
		{"NUL byte", builtinRef("nul"), badTextKind, nil, perMoveAndBudget, still},
		{"100 MB reply through the SDK", builtinRef("flood"), badTextKind, bigReplyAlt, perMoveAndBudget, still},
		{"100 MB reply past the SDK", builtinRef("flood-raw"), badTextKind, bigReplyAlt, perMoveAndBudget, still},
		{"exits 0 mid-game", builtinRef("exit0"), fixed(engine.FailDead), nil, nil, still},
		{"panics in its move", builtinRef("panicker"), fixed(engine.FailError), nil, nil, still},
		{"panics in a goroutine", builtinRef("crasher"), fixed(engine.FailDead), nil, perMoveAndBudget, still},
		{"lies about the protocol version", builtinRef("oldproto"), fixed(engine.FailNoShow), nil, nil, still},
		{"Lua infinite loop", luaRef(luaOnSecondMove(`while true do end`)), fixed(engine.FailTimeout), nil, perMoveAndBudget, hangs},
		{"Lua stuck in a library call", luaRef(luaOnSecondMove(`string.find(string.rep("a", 300), "a*a*a*a*a*a*b")`)), fixed(engine.FailTimeout), nil, perMoveAndBudget, hangs},
		{"raw binary printing text", rawBinary(`echo "hello referee"; exec sleep 600`), fixed(engine.FailNoShow), nil, perMoveAndBudget, still},
		{"raw binary saying nothing", rawBinary(`exec sleep 600`), fixed(engine.FailNoShow), nil, perMoveAndBudget, startup},
	}
}

func TestHostileAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 50 games with real processes")
	}
	for _, h := range hostiles() {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			ref := h.ref(t)
			for _, c := range courseGames(t) {
				if h.games != nil && !slices.Contains(h.games, c.name) {
					continue
				}
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					prof := hostileProfile(c.prof)
					want := h.want(t, c)
					rec, _ := playGameProcs(t, h.tm, c.g, c.params, prof, ref, "builtin:random")
					if h.alt != nil && len(rec.Events) > 0 && rec.Events[0].Kind == string(h.alt(c)) {
						want = h.alt(c)
					}
					checkVerdict(t, rec, prof, want)
				})
			}
		})
	}
}

// checkVerdict asserts that seat 0's first penalty is want with the
// profile's penalty, that a loss ended the game and anything else let it
// go on, and that seat 1 played every move of its own without a penalty.
func checkVerdict(t *testing.T, rec *record.Game, prof engine.Profile, want engine.Failure) {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("result %+v", rec.Result)
			for _, e := range rec.Events {
				t.Logf("event %+v", e)
				if e.Evidence != nil {
					t.Logf("  evidence %+v", *e.Evidence)
				}
			}
			t.Logf("stderr %q", rec.Stderr)
		}
	}()
	for _, e := range rec.Events {
		if e.Seat != 0 {
			t.Errorf("the opponent was penalised: %+v", e)
		}
	}
	for _, m := range rec.Moves {
		if m.Seat == 1 && m.Source != record.SourceAgent {
			t.Errorf("the opponent's move %+v was not its own", m)
		}
	}
	if line, err := rec.MarshalLine(); err != nil || len(line) > 256<<10 {
		t.Errorf("record of %d bytes (%v); a bad reply must not fill it", len(line), err)
	}
	if want == "" {
		if len(rec.Events) != 0 || rec.Result.Forfeit != "" {
			t.Errorf("want no penalty")
		}
		return
	}
	if len(rec.Events) == 0 || rec.Events[0].Kind != string(want) {
		t.Fatalf("want a %s event first", want)
	}
	lossAs, pen := resolve(prof, want)
	if want == engine.FailNoShow {
		lossAs, pen = engine.FailNoShow, engine.Loss
	}
	if got := engine.Penalty(rec.Events[0].Penalty); got != pen {
		t.Errorf("penalty %s, want %s", got, pen)
	}
	if pen == engine.Loss {
		if rec.Result.Winner != 1 || rec.Result.Forfeit != string(lossAs) {
			t.Errorf("want a loss for seat 0 recorded as %s", lossAs)
		}
		return
	}
	if rec.Result.Forfeit != "" && rec.Result.Winner != 1 {
		t.Errorf("a %s penalty ended the game against the opponent", pen)
	}
	// The penalty was applied in the game: a substitute, or a skipped
	// turn, for seat 0.
	source := map[engine.Penalty]string{engine.RandomMove: record.SourceRandom, engine.SkipTurn: record.SourceSkip}[pen]
	found := false
	for _, m := range rec.Moves {
		found = found || (m.Seat == 0 && m.Source == source)
	}
	if !found {
		t.Errorf("no %s move for seat 0", source)
	}
}

// Two agents that never complete their handshake leave no result, under
// every profile.
func TestBothNoShows(t *testing.T) {
	t.Parallel() // its own processes; nothing timed
	longRunning(t)
	raw := rawBinary(`echo "not a plugin"; exit 1`)(t)
	for _, c := range courseGames(t) {
		rec := playGame(t, c.g, c.params, hostileProfile(c.prof), raw, "builtin:oldproto")
		if rec.Result.Winner != engine.NoSeat || rec.Result.Draw || rec.Result.Forfeit != string(engine.FailNoShow) || len(rec.Moves) != 0 {
			t.Errorf("%s: result %+v", c.name, rec.Result)
		}
		if len(rec.Events) != 2 || rec.Events[0].Kind != string(engine.FailNoShow) || rec.Events[1].Kind != string(engine.FailNoShow) {
			t.Errorf("%s: events %+v", c.name, rec.Events)
		}
	}
}

// resetPeakRSS resets this process's peak resident set (VmHWM).
func resetPeakRSS(t *testing.T) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak resident set here: %v", err)
	}
}

// peakRSS reads this process's peak resident set.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/self/status")
	return 0
}

// A 100 MB reply, from an agent that bypasses the SDK's send limit, never
// reaches the arena's memory: the arena's peak resident set grows by far
// less than the reply (bound: 48 MiB, against 100 MiB to hold it once).
func TestEnormousReplyLeavesArenaMemoryFlat(t *testing.T) {
	longRunning(t)
	c := courseGames(t)[0] // bohnenspiel
	// A clean game first, so the peak below is not the first game's.
	playGame(t, c.g, c.params, hostileProfile(c.prof), "builtin:random", "builtin:random")
	resetPeakRSS(t)
	before := peakRSS(t)
	rec := playGame(t, c.g, c.params, hostileProfile(c.prof), "builtin:flood-raw", "builtin:random")
	growth := peakRSS(t) - before
	t.Logf("peak RSS %d MiB before, grew by %d KiB during the game", before>>20, growth>>10)
	if growth > 48<<20 {
		t.Errorf("the arena's peak resident set grew by %d MiB for a %d MiB reply", growth>>20, floodBytes>>20)
	}
	checkVerdict(t, rec, hostileProfile(c.prof), engine.FailUnparseable)
	// The size gRPC announced: the text plus a few bytes of framing.
	if d := rec.Events[0].Detail; !strings.Contains(d, fmt.Sprintf("reply of %d", floodBytes/10)) || !strings.Contains(d, "not received") {
		t.Errorf("detail %q does not give the reply's size", d)
	}
}
