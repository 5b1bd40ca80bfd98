package engine_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/hexcrossout"
)

func TestParams(t *testing.T) {
	p := engine.Params{"n": "7", "bad": "x"}
	if n, err := p.Int("n", 9); err != nil || n != 7 {
		t.Fatalf("Int(n) = %d, %v", n, err)
	}
	if n, err := p.Int("missing", 9); err != nil || n != 9 {
		t.Fatalf("default: %d, %v", n, err)
	}
	if _, err := p.Int("bad", 0); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("non-integer accepted: %v", err)
	}
	err := p.Check("cachex", "n")
	if err == nil || !strings.Contains(err.Error(), "bad") || !strings.Contains(err.Error(), "cachex") {
		t.Fatalf("Check: %v", err)
	}
	if s := p.String(); s != "bad=x,n=7" {
		t.Fatalf("String = %q", s)
	}
	c := p.Clone()
	c["n"] = "8"
	if p["n"] != "7" {
		t.Fatal("Clone shares the map")
	}
}

func TestProfileOverrides(t *testing.T) {
	p, _ := bohnenspiel.Game{}.Profile(nil)
	c := p.Clone()
	o, err := c.Apply("move-limit", "1s")
	if err != nil || c.MoveLimit != time.Second || o.From != "700ms" || o.To != "1s" {
		t.Fatalf("Apply: %+v %v", o, err)
	}
	if p.MoveLimit != 700*time.Millisecond {
		t.Fatal("override leaked into the shared default")
	}
	c.Penalties[engine.FailLate] = engine.Loss
	if p.PenaltyFor(engine.FailLate) != engine.RandomMove {
		t.Fatal("Clone shares penalties")
	}
	for _, bad := range [][2]string{{"budget", "10s"}, {"move-limit", "fast"}, {"memory-mb", "-1"}, {"colour", "red"}} {
		if _, err := c.Apply(bad[0], bad[1]); err == nil {
			t.Errorf("Apply(%s=%s) accepted", bad[0], bad[1])
		}
	}
	if _, err := c.Apply("memory-mb", "256"); err != nil || c.MemoryMB != 256 {
		t.Fatalf("memory-mb: %v", err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Penalties[engine.FailTimeout] = engine.AsTimeout
	if err := c.Validate(); err == nil {
		t.Fatal("timeout-as-timeout validated")
	}
}

func TestReasonFor(t *testing.T) {
	p := engine.Profile{Reasons: map[engine.Failure]string{engine.FailTimeout: "player {player} exceeded available time (seat {seat})"}}
	if got := p.ReasonFor(engine.FailTimeout, 1); got != "player 2 exceeded available time (seat 1)" {
		t.Fatalf("ReasonFor = %q", got)
	}
	if got := p.ReasonFor(engine.FailIllegal, 0); got != "" {
		t.Fatalf("no template gives %q", got)
	}
	if p.PenaltyFor(engine.FailDead) != engine.Loss {
		t.Fatal("unset penalty is not a loss")
	}
}

func TestRegistry(t *testing.T) {
	r := engine.NewRegistry(bohnenspiel.Game{}, hexcrossout.Game{})
	if _, err := r.Lookup("bohnenspiel"); err != nil {
		t.Fatal(err)
	}
	_, err := r.Lookup("chess")
	if err == nil || !strings.Contains(err.Error(), "bohnenspiel, hex-crossout") {
		t.Fatalf("unknown game error must list the games: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("duplicate registration did not panic")
		}
	}()
	engine.NewRegistry(bohnenspiel.Game{}, bohnenspiel.Game{})
}

func TestReplay(t *testing.T) {
	st, _ := bohnenspiel.Game{}.NewState(nil)
	if err := engine.Replay(st, []string{"PIT 0 0", "PIT 1 3"}); err != nil {
		t.Fatal(err)
	}
	if st.Ply() != 2 {
		t.Fatalf("ply %d", st.Ply())
	}
	err := engine.Replay(st, []string{"PIT 0 9"})
	if err == nil || !strings.Contains(err.Error(), "ply 0") {
		t.Fatalf("bad history: %v", err)
	}
	if err := engine.Replay(st, []string{""}); err == nil {
		t.Fatal("a skipped turn was accepted by a game without skips")
	}
	hx, _ := hexcrossout.Game{}.NewState(nil)
	if err := engine.Replay(hx, []string{""}); err != nil || hx.ToMove() != 1 {
		t.Fatalf("hex skip: %v, to move %d", err, hx.ToMove())
	}
}

// listingOnly hides every optional interface of the state it wraps.
type listingOnly struct{ engine.State }

func TestPlayoutMove(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := bohnenspiel.New()
	buf := make([]engine.Move, 0, 8)
	legal := s.LegalMoves(nil)
	isLegal := func(m engine.Move) bool {
		for _, l := range legal {
			if l == m {
				return true
			}
		}
		return false
	}
	// Through the shortcut: the buffer is left alone.
	m, out, ok := engine.PlayoutMove(s, r, buf)
	if !ok || !isLegal(m) || len(out) != 0 {
		t.Fatalf("shortcut: %v %v %d", m, ok, len(out))
	}
	// Without it: listing into the buffer.
	m, out, ok = engine.PlayoutMove(listingOnly{s}, r, buf)
	if !ok || !isLegal(m) || len(out) != len(legal) {
		t.Fatalf("listing: %v %v %d", m, ok, len(out))
	}
	// A finished game has no move either way.
	for !s.Terminal() {
		m, _, _ := engine.PlayoutMove(s, r, buf)
		s.Apply(m)
	}
	if _, _, ok := engine.PlayoutMove(s, r, buf); ok {
		t.Error("shortcut found a move in a finished game")
	}
	if _, _, ok := engine.PlayoutMove(listingOnly{s}, r, buf); ok {
		t.Error("listing found a move in a finished game")
	}
}
