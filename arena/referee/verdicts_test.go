package referee_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// Replies that are no move text at all are judged as unparseable moves,
// with the course's penalty, never as a dead agent; the record keeps only
// a bounded prefix.
func TestBadReplyTextIsUnparseable(t *testing.T) {
	huge := "PIT 0 2" + strings.Repeat(" ", engine.DefaultMaxReplyBytes)
	cases := []struct {
		name, text string
		err        error
		why        string
	}{
		{"over the size limit", huge, nil, "over the 65536-byte limit"},
		{"refused by the transport", "", &protocol.BadReplyError{Size: 100 << 20, Limit: engine.DefaultMaxReplyBytes}, "not received"},
		{"invalid UTF-8", "PIT 0 \xff\xfe", nil, "not valid UTF-8"},
		{"NUL byte", "PIT 0 2\x00", nil, "NUL byte at offset 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _, _ := fakeMatch(t, comp424(t), []step{{text: c.text, err: c.err}}, nil)
			// comp424-2017: unparseable is a timeout, a loss.
			if rec.Result.Winner != 1 || rec.Result.Reason != "TIMEOUT" || rec.Result.Forfeit != string(engine.FailTimeout) {
				t.Fatalf("result %+v events %+v", rec.Result, rec.Events)
			}
			if !strings.Contains(rec.Result.Detail, c.why) {
				t.Fatalf("result detail %q does not say %q", rec.Result.Detail, c.why)
			}
			if len(rec.Events) != 1 || rec.Events[0].Kind != string(engine.FailUnparseable) || !strings.Contains(rec.Events[0].Detail, c.why) {
				t.Fatalf("events %+v, want one unparseable event saying %q", rec.Events, c.why)
			}
			if n := len(rec.Events[0].Reply); n > 300 {
				t.Fatalf("record keeps %d bytes of the reply", n)
			}
			if strings.ContainsRune(rec.Events[0].Reply, 0) {
				t.Fatalf("record keeps a NUL: %q", rec.Events[0].Reply)
			}
		})
	}
}

// A course reason that quotes the reply (hex cross-out's) keeps only a
// bounded prefix of a long one.
func TestLongReplyInReasonIsBounded(t *testing.T) {
	prof, err := hexcrossout.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	clk := newReplyClock(time.Unix(0, 0))
	long := "1,1,1," + strings.Repeat("9", 60000)
	r := &referee.Referee{Clock: clk, Launch: func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
		return &fakeAgent{clk: clk, mem: make(chan struct{}), steps: []step{{text: long}}}, nil
	}}
	rec, err := r.Play(context.Background(), referee.Match{ID: "hex", Game: hexcrossout.Game{}, Params: engine.Params{"free": "20"}, Profile: prof,
		Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result.Winner != 1 || rec.Result.Forfeit != string(engine.FailIllegal) || !strings.HasPrefix(rec.Result.Reason, "ILLEGAL MOVE: player 1 played") {
		t.Fatalf("result %+v", rec.Result)
	}
	line, _ := rec.MarshalLine()
	if len(rec.Result.Reason) > 2000 || len(line) > 8000 {
		t.Fatalf("reason of %d bytes, record of %d, for a %d-byte reply", len(rec.Result.Reason), len(line), len(long))
	}
}

// The size limit is the profile's: raised, a long reply reaches the game's
// parser, which judges its text (not its size).
func TestReplyLimitIsTheProfiles(t *testing.T) {
	p := comp424(t)
	if _, err := p.Apply("max-reply-bytes", "200000"); err != nil {
		t.Fatal(err)
	}
	text := "PIT 0 2" + strings.Repeat("x", 100000)
	rec, _, _ := fakeMatch(t, p, []step{{text: text}}, nil)
	if len(rec.Events) != 1 || strings.Contains(rec.Events[0].Detail, "limit") {
		t.Fatalf("a reply under the raised limit was judged by its size: %+v", rec.Events)
	}
	if _, err := p.Apply("max-reply-bytes", "0"); err == nil {
		t.Fatal("a zero reply limit was accepted")
	}
}

// noShowLauncher fails to launch the refs in bad, and serves fakes for the
// others.
func noShowMatch(t *testing.T, g engine.Game, params engine.Params, prof engine.Profile, bad ...string) *record.Game {
	t.Helper()
	clk := newReplyClock(time.Unix(1000, 0))
	r := &referee.Referee{Clock: clk, Launch: func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
		for _, b := range bad {
			if p.Ref == b {
				return nil, errors.New("agent " + b + " failed to start: it did not complete the plugin handshake")
			}
		}
		return &fakeAgent{clk: clk, mem: make(chan struct{}), steps: []step{{err: &protocol.AgentError{Message: "no idea"}}}}, nil
	}}
	rec, err := r.Play(context.Background(), referee.Match{ID: t.Name(), Game: g, Params: params, Profile: prof, Seed: 1,
		Players: [2]referee.Player{{Name: "a", Ref: "0"}, {Name: "b", Ref: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// An agent that never completes its handshake forfeits under every
// profile, even where a dead agent only gets random moves or skipped
// turns, and even against an opponent that errs on its first move; two
// no-shows leave no result.
func TestNoShowForfeitsUnderEveryProfile(t *testing.T) {
	for _, c := range courseGames(t) {
		t.Run(c.name, func(t *testing.T) {
			for seat := range 2 {
				rec := noShowMatch(t, c.g, c.params, c.prof, []string{"0", "1"}[seat])
				if rec.Result.Winner != 1-seat || rec.Result.Forfeit != string(engine.FailNoShow) || len(rec.Moves) != 0 {
					t.Fatalf("seat %d no-show: result %+v moves %d", seat, rec.Result, len(rec.Moves))
				}
				if !strings.Contains(rec.Result.Detail, "handshake") || len(rec.Events) != 1 || rec.Events[0].Kind != "no-show" || rec.Events[0].Seat != seat {
					t.Fatalf("seat %d no-show: the record does not say so: %+v %+v", seat, rec.Result, rec.Events)
				}
			}
			rec := noShowMatch(t, c.g, c.params, c.prof, "0", "1")
			if rec.Result.Winner != engine.NoSeat || rec.Result.Draw || rec.Result.Forfeit != string(engine.FailNoShow) || len(rec.Events) != 2 {
				t.Fatalf("both no-shows: result %+v events %+v", rec.Result, rec.Events)
			}
		})
	}
}

type courseGame struct {
	name   string
	g      engine.Game
	params engine.Params
	prof   engine.Profile
}

// courseGames is every game with its course profile.
func courseGames(t *testing.T) []courseGame {
	t.Helper()
	var out []courseGame
	for _, c := range []struct {
		g      engine.Game
		params engine.Params
	}{
		{bohnenspiel.Game{}, nil},
		{pentagotwist.Game{}, nil},
		{cachex.Game{}, engine.Params{"n": "5"}},
		{hexcrossout.Game{}, engine.Params{"free": "12", "seed": "5"}},
		{dotsboxes.Game{}, nil},
	} {
		p, err := c.g.Profile(c.params)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, courseGame{c.g.Info().Name, c.g, c.params, p})
	}
	return out
}

// A memory breach is one event, whatever the profile makes of it.
func TestMemoryBreachCountedOnce(t *testing.T) {
	p := comp424(t) // memory: as dead; dead: random moves to the end
	clk := newReplyClock(time.Unix(0, 0))
	hog := &fakeAgent{clk: clk, mem: make(chan struct{}), steps: []step{{}, {oom: true}}}
	other := &fakeAgent{clk: clk, mem: make(chan struct{})}
	r := &referee.Referee{Clock: clk, Launch: func(_ context.Context, pl referee.Player, _ host.Options) (referee.Handle, error) {
		if pl.Ref == "hog" {
			return hog, nil
		}
		return other, nil
	}}
	// The hog is killed for its memory while thinking about its second
	// move; every later turn of it finds a dead process.
	rec, err := r.Play(context.Background(), referee.Match{ID: "m", Game: bohnenspiel.Game{}, Profile: p,
		Players: [2]referee.Player{{Name: "hog", Ref: "hog"}, {Name: "o", Ref: "o"}}})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, e := range rec.Events {
		counts[e.Kind]++
	}
	if counts["memory"] != 1 || counts["dead"] != 0 || counts["timeout"] != 0 {
		t.Fatalf("events %+v, want exactly one memory event", rec.Events)
	}
}

// An agent the kernel killed for its memory, whose death the referee saw
// before the host's watcher saw the breach, is judged for its memory, not
// as dead: the kill the referee gives a dead agent settles it.
func TestOOMKillSeenFirstAsADeathIsMemory(t *testing.T) {
	p := comp424(t)
	rec, _, _ := fakeMatch(t, p, []step{{}, {unseenOOM: true}}, nil)
	counts := map[string]int{}
	for _, e := range rec.Events {
		counts[e.Kind]++
	}
	if counts["memory"] != 1 || counts["dead"] != 0 {
		t.Fatalf("events %+v, want one memory event and no death", rec.Events)
	}
}

// An agent killed for its memory is judged for its memory even when the
// failed call comes back past the move's limit (inside the cushion): the
// breach ended the move, not the clock.
func TestMemoryBreachPastTheLimitIsMemory(t *testing.T) {
	p := comp424(t) // 700 ms a move and a 1 s cushion; the first move 30 s
	rec, _, _ := fakeMatch(t, p, []step{{}, {breach: true, think: 1200 * time.Millisecond}}, nil)
	var kinds []string
	for _, e := range rec.Events {
		if e.Seat == 0 {
			kinds = append(kinds, e.Kind)
		}
	}
	if fmt.Sprint(kinds) != "[memory]" {
		t.Fatalf("seat 0's events %v, want [memory] and no late reply", kinds)
	}
}

// releasingFake is a fake a league would keep: the referee releases it at
// the game's end instead of killing it.
type releasingFake struct {
	*fakeAgent
	released bool
}

func (r *releasingFake) Release() { r.released = true }

// The record keeps each agent's stderr: a killed agent's as it stands after
// the kill (its last words included), a released one's at the game's end.
func TestStderrOfKilledAndReleasedAgents(t *testing.T) {
	clk := newReplyClock(time.Unix(1000, 0))
	killed := &fakeAgent{clk: clk, mem: make(chan struct{}), stderr: "thinking\n", lastWords: "killed\n"}
	kept := &releasingFake{fakeAgent: &fakeAgent{clk: clk, mem: make(chan struct{}), stderr: "kept\n", lastWords: "never\n"}}
	r := &referee.Referee{Clock: clk, Launch: seatLauncher(killed, kept)}
	rec, err := r.Play(context.Background(), referee.Match{ID: t.Name(), Game: bohnenspiel.Game{}, Profile: comp424(t), Seed: 3, Players: fakeSeats})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Stderr[0] != "thinking\nkilled\n" {
		t.Errorf("killed agent's stderr %q, want its last words too", rec.Stderr[0])
	}
	if rec.Stderr[1] != "kept\n" || !kept.released || kept.killed {
		t.Errorf("released agent: stderr %q, released %v, killed %v; want %q, released, not killed", rec.Stderr[1], kept.released, kept.killed, "kept\n")
	}
}

// A reply of exactly the profile's size limit is judged as text (here
// unparseable by the game); one byte more is judged by its size.
func TestReplyAtTheSizeLimit(t *testing.T) {
	for _, c := range []struct {
		limit  int
		bySize bool
	}{{1000, false}, {999, true}} {
		p := comp424(t)
		if _, err := p.Apply("max-reply-bytes", strconv.Itoa(c.limit)); err != nil {
			t.Fatal(err)
		}
		text := "PIT 0 2" + strings.Repeat("x", 1000-len("PIT 0 2"))
		rec, _, _ := fakeMatch(t, p, []step{{text: text}}, nil)
		if len(rec.Events) == 0 {
			t.Fatalf("limit %d: no event for %q", c.limit, text[:10])
		}
		if got := strings.Contains(rec.Events[0].Detail, "-byte limit"); got != c.bySize {
			t.Errorf("limit %d, 1000-byte reply: judged by size %v, want %v (%s)", c.limit, got, c.bySize, rec.Events[0].Detail)
		}
	}
}

// A reply the transport refused for its size was never received: the
// record shows what happened in its place.
func TestReplyNeverReceivedIsDescribed(t *testing.T) {
	bad := &protocol.BadReplyError{Size: 99999, Limit: 65536}
	rec, _, _ := fakeMatch(t, comp424(t), []step{{err: bad}}, nil)
	if len(rec.Events) == 0 {
		t.Fatal("no event")
	}
	if e := rec.Events[0]; e.Reply != "<"+bad.Error()+">" || e.Kind != string(engine.FailUnparseable) {
		t.Errorf("event %+v: want an unparseable reply shown as %q", e, "<"+bad.Error()+">")
	}
}

// Both agents are told how the game ended, each within the default
// goodbye time (EndTimeout unset: one second); a dead one is not.
func TestAgentsAreToldTheEnd(t *testing.T) {
	_, agents, _ := fakeMatch(t, comp424(t), nil, nil)
	for i, a := range agents {
		if a.ended != 1 || a.endLeft < 500*time.Millisecond || a.endLeft > time.Second {
			t.Errorf("agent %d: told the end %d times, with %v left; want once, with about 1s", i, a.ended, a.endLeft)
		}
	}
	oom := step{oom: true}
	_, agents, _ = fakeMatch(t, comp424(t), []step{oom}, nil)
	if agents[0].ended != 0 || agents[1].ended != 1 {
		t.Errorf("dead agent told the end %d times, its opponent %d; want 0 and 1", agents[0].ended, agents[1].ended)
	}
}

// A failure with no reason in the profile ends the game with the generic
// one, naming the player as the course did (seat + 1).
func TestGenericReasonNamesThePlayer(t *testing.T) {
	p := comp424(t)
	p.Reasons = nil
	rec, _, _ := fakeMatch(t, p, nil, []step{{hang: true}})
	if rec.Result.Reason != "TIMEOUT: player 2" || rec.Result.Winner != 0 {
		t.Errorf("result %+v, want player 2 losing with %q", rec.Result, "TIMEOUT: player 2")
	}
}

// A reply never received is judged as its game judges bad text: hex
// cross-out's parser calls it illegal, with the course's reason.
func TestReplyNeverReceivedTakesTheGamesVerdict(t *testing.T) {
	g := hexcrossout.Game{}
	params := engine.Params{"free": "33", "seed": "5"}
	prof, err := g.Profile(params)
	if err != nil {
		t.Fatal(err)
	}
	bad := &protocol.BadReplyError{Size: 99999, Limit: 65536}
	rec := playFakes(t, g, params, prof, &fakeAgent{steps: []step{{err: bad}}}, &fakeAgent{})
	if len(rec.Events) == 0 || rec.Events[0].Kind != string(engine.FailIllegal) {
		t.Fatalf("events %+v, want an illegal move first", rec.Events)
	}
}

// Under a profile that notifies moves (Cachex), both agents are told of
// every move played, their own and their opponent's.
func TestNotifiedProfileTellsBothAgentsEveryMove(t *testing.T) {
	params := engine.Params{"n": "5"}
	agents := [2]*fakeAgent{{}, {}}
	rec := playFakes(t, cachex.Game{}, params, cachexProfile(t, params), agents[0], agents[1])
	if len(rec.Moves) < 10 || len(rec.Events) != 0 {
		t.Fatalf("%d moves, events %+v", len(rec.Moves), rec.Events)
	}
	for i, a := range agents {
		if a.observed != len(rec.Moves) {
			t.Errorf("agent %d told of %d moves of %d", i, a.observed, len(rec.Moves))
		}
	}
}

// Under a CPU budget the time an agent spends on a move notification is
// charged too: one that burns its budget there loses on time, before its
// next move is asked for.
func TestNotificationCPUIsCharged(t *testing.T) {
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params)
	agents := [2]*fakeAgent{{}, {observeCPU: prof.Budget + time.Second}}
	rec := playFakes(t, cachex.Game{}, params, prof, agents[0], agents[1])
	if rec.Result.Winner != 0 || len(rec.Events) == 0 || rec.Events[0].Seat != 1 || rec.Events[0].Kind != string(engine.FailTimeout) {
		t.Fatalf("result %+v, events %+v: want seat 1 out of time", rec.Result, rec.Events)
	}
	if agents[1].n != 0 {
		t.Errorf("seat 1 was asked for %d moves after its budget was gone", agents[1].n)
	}
}

// Under a CPU budget a move's CPU ends at its reply: what the agent then
// spends on the notification of that same move is charged to its budget,
// not recorded as the move's.
func TestOwnNotificationIsNotTheMovesCPU(t *testing.T) {
	params := engine.Params{"n": "5"}
	prof := cachexProfile(t, params)
	ms := time.Millisecond
	var agents [2]*fakeAgent
	for s := range agents {
		agents[s] = &fakeAgent{observeCPU: 4 * ms}
		for range 20 {
			agents[s].steps = append(agents[s].steps, step{cpu: 30 * ms})
		}
	}
	rec := playFakes(t, cachex.Game{}, params, prof, agents[0], agents[1])
	if len(rec.Moves) < 10 || len(rec.Events) != 0 {
		t.Fatalf("%d moves, events %+v", len(rec.Moves), rec.Events)
	}
	for _, m := range rec.Moves {
		if m.MoveCPUMS == nil || *m.MoveCPUMS != 30 {
			got := "none"
			if m.MoveCPUMS != nil {
				got = fmt.Sprint(*m.MoveCPUMS)
			}
			t.Fatalf("move %d (seat %d): move_cpu_ms %s, want 30 (its notifications are not the move)", m.Ply, m.Seat, got)
		}
	}
	// The last mover's budget at its last move: its own moves, and every
	// earlier move's notification.
	last := rec.Moves[len(rec.Moves)-1]
	own := 0
	for _, m := range rec.Moves {
		if m.Seat == last.Seat {
			own++
		}
	}
	if want := float64(30*own + 4*(len(rec.Moves)-1)); last.CPUMS != want {
		t.Errorf("the last mover's budget used %v ms, want %v (%d moves of 30 ms, %d notifications of 4 ms)", last.CPUMS, want, own, len(rec.Moves)-1)
	}
}
