package referee_test

import (
	"context"
	"testing"
	"time"

	"arena/arena/referee"
	"arena/games/bohnenspiel"
	"arena/plugins/protocol"
)

// startRecorder is a fake agent that keeps what its Start call received.
type startRecorder struct {
	*fakeAgent
	info     protocol.StartInfo
	deadline time.Duration // left on Start's context when it was called
	hasDL    bool
}

func (s *startRecorder) Start(ctx context.Context, info protocol.StartInfo) error {
	s.info = info
	if dl, ok := ctx.Deadline(); ok {
		s.deadline, s.hasDL = time.Until(dl), true
	}
	return s.fakeAgent.Start(ctx, info)
}

func startGame(t *testing.T, startup time.Duration) [2]*startRecorder {
	t.Helper()
	prof := comp424(t)
	prof.StartupTimeout = startup
	clk := newReplyClock(time.Unix(1000, 0))
	var agents [2]*startRecorder
	for i := range agents {
		agents[i] = &startRecorder{fakeAgent: &fakeAgent{clk: clk, mem: make(chan struct{})}}
	}
	r := &referee.Referee{Clock: clk, Launch: seatLauncher(agents[0], agents[1])}
	_, err := r.Play(context.Background(), referee.Match{
		ID: "start", Game: bohnenspiel.Game{}, Profile: prof, Seed: 21,
		Players: [2]referee.Player{{Name: "a", Ref: "0", Options: map[string]string{"depth": "2"}}, {Name: "b", Ref: "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return agents
}

// Each agent learns its seat, its opponent, the clock and its own seed
// (distinct per seat, derived from the match seed) at Start, which must
// finish within the profile's start-up timeout — and has no deadline when
// the profile sets none.
func TestStartTellsEachSeatAndBoundsStartup(t *testing.T) {
	agents := startGame(t, 5*time.Second)
	for seat, a := range agents {
		in := a.info
		opp := []string{"b", "a"}[seat]
		if in.Seat != seat || in.Opponent != opp || in.GameID != "start" || in.Game != "bohnenspiel" || in.Profile != "comp424-2017" {
			t.Errorf("seat %d: start info %+v", seat, in)
		}
		if in.Seed != 21*2+uint64(seat)+1 {
			t.Errorf("seat %d: seed %d, want %d (2×match seed + seat + 1)", seat, in.Seed, 21*2+seat+1)
		}
		if in.Clock.Model != "per-move" || in.Clock.MoveLimit != 700*time.Millisecond || in.Clock.Cushion != time.Second {
			t.Errorf("seat %d: clock %+v", seat, in.Clock)
		}
		if !a.hasDL || a.deadline > 5*time.Second || a.deadline < time.Second {
			t.Errorf("seat %d: Start had deadline %v (set %v), want the 5 s start-up timeout", seat, a.deadline, a.hasDL)
		}
	}
	if agents[0].info.Options["depth"] != "2" || len(agents[1].info.Options) != 0 {
		t.Errorf("options %v / %v: each agent gets its own", agents[0].info.Options, agents[1].info.Options)
	}
	for seat, a := range startGame(t, 0) {
		if a.hasDL {
			t.Errorf("seat %d: Start had a %v deadline under a profile with no start-up timeout", seat, a.deadline)
		}
	}
}
