package lua

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/agents/builtin"
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
	"arena/plugins/sdk"
)

// writeScript writes a script into a temporary directory and returns its
// path.
func writeScript(t testing.TB, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// newAgent compiles a script into an agent whose prints go to the test log.
func newAgent(t testing.TB, path string, params map[string]string) *Agent {
	t.Helper()
	mem := DefaultMemoryMB
	if v, ok := params["mem"]; ok {
		fmt.Sscan(v, &mem)
	}
	a, err := New(path, Options{Params: params, MemoryMB: mem, Stderr: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

type logWriter struct{ t testing.TB }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// outcome is how a harness game ended for the Lua side.
type outcome struct {
	winner int   // seat, or engine.NoSeat
	failed error // the seat that failed, as an error naming it
	plies  int
}

// playDirect plays one game straight over the engine, without a referee
// or processes: each side's Move is called as the SDK adapter would call
// it, with the position, the legal moves and a deadline moveLimit away.
// A side that errs or answers with an illegal move loses.
// The cushion is the time past the limit before the Lua host stops a
// script (the hard deadline); scripts budget from the limit alone, so a
// long cushion keeps a slow machine from deciding the outcome.
func playDirect(ctx context.Context, g engine.Game, params engine.Params, players [2]sdk.Agent, seed uint64, moveLimit, cushion time.Duration) (outcome, error) {
	st, err := g.NewState(params)
	if err != nil {
		return outcome{}, err
	}
	var games [2]sdk.Game
	for seat := range 2 {
		games[seat] = sdk.Game{
			GameID: fmt.Sprintf("direct-%d", seed), Game: g.Info().Name, Params: params, Seat: seat,
			Seed: seed*2 + uint64(seat) + 1, Opponent: "opponent",
			Clock: protocol.Clock{Model: string(engine.PerMove), MoveLimit: moveLimit, FirstMoveLimit: moveLimit, Cushion: cushion},
		}
		if s, ok := players[seat].(sdk.Starter); ok {
			if err := s.Start(ctx, games[seat]); err != nil {
				return outcome{winner: 1 - seat, failed: fmt.Errorf("seat %d start: %w", seat, err)}, nil
			}
		}
	}
	defer func() {
		for seat := range 2 {
			if e, ok := players[seat].(sdk.Ender); ok {
				_ = e.End(ctx, protocol.EndInfo{})
			}
		}
	}()
	var history []string
	var buf []engine.Move
	for !st.Terminal() {
		seat := st.ToMove()
		buf = st.LegalMoves(buf[:0])
		legal := make([]string, len(buf))
		for i, m := range buf {
			legal[i] = st.FormatMove(m)
		}
		now := time.Now()
		turn := sdk.Turn{
			MoveRequest: protocol.MoveRequest{
				History: append([]string(nil), history...), Board: st.Text(), Seat: seat, Ply: st.Ply(),
				TimeLeft: moveLimit, Deadline: now.Add(moveLimit),
			},
			Game: games[seat], State: st.Clone(), Legal: legal,
		}
		text, err := players[seat].Move(ctx, turn)
		if err != nil {
			return outcome{winner: 1 - seat, failed: fmt.Errorf("seat %d at ply %d: %w", seat, st.Ply(), err), plies: st.Ply()}, nil
		}
		m, err := st.ParseMove(text)
		if err != nil {
			return outcome{winner: 1 - seat, failed: fmt.Errorf("seat %d at ply %d: %w", seat, st.Ply(), err), plies: st.Ply()}, nil
		}
		history = append(history, text)
		st.Apply(m)
	}
	r := st.Result()
	w := r.Winner
	if r.Draw {
		w = engine.NoSeat
	}
	return outcome{winner: w, plies: st.Ply()}, nil
}

// winRate plays n games of a Lua agent against builtin random, the Lua
// side alternating seats, and returns the Lua side's wins.
func winRate(t *testing.T, g engine.Game, params func(i int) engine.Params, a *Agent, n int, moveLimit, cushion time.Duration) (wins int, failures []error) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		luaSeat := i % 2
		var players [2]sdk.Agent
		players[luaSeat] = a
		players[1-luaSeat] = &builtin.Random{}
		o, err := playDirect(ctx, g, params(i), players, uint64(1000+i), moveLimit, cushion)
		if err != nil {
			t.Fatal(err)
		}
		if o.failed != nil {
			failures = append(failures, o.failed)
		}
		if o.winner == luaSeat {
			wins++
		}
	}
	return wins, failures
}

// testRegistry holds every course game, for the SDK adapter's rebuilding
// of positions.
func testRegistry() *engine.Registry {
	return engine.NewRegistry(bohnenspiel.Game{}, cachex.Game{}, dotsboxes.Game{}, pentagotwist.Game{}, hexcrossout.Game{})
}

// syncBuffer is a goroutine-safe buffer standing in for an agent's stderr.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// inProcess is a referee handle for an agent served in this process
// through the SDK's own adapter (the one sdk.Serve registers), with agent
// errors reported as the protocol reports them. It has no process to kill
// or measure.
type inProcess struct {
	protocol.Agent
	close  func()
	stderr *syncBuffer
	mem    chan struct{}
}

func (h inProcess) Move(ctx context.Context, r protocol.MoveRequest) (string, error) {
	move, err := h.Agent.Move(ctx, r)
	if err != nil {
		return "", &protocol.AgentError{Message: err.Error()}
	}
	return move, nil
}

func (h inProcess) Kill()                           { h.close() }
func (inProcess) CPUTime() (time.Duration, error)   { return 0, nil }
func (h inProcess) MemoryExceeded() <-chan struct{} { return h.mem }
func (h inProcess) Stderr() string                  { return h.stderr.String() }

// inProcessLauncher starts "lua:" and "builtin:" agents in this process.
func inProcessLauncher() referee.Launcher {
	return func(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
		buf := &syncBuffer{}
		var a sdk.Agent
		closeFn := func() {}
		if strings.HasPrefix(p.Ref, Prefix) {
			r, err := ParseRef(p.Ref)
			if err != nil {
				return nil, err
			}
			la, err := New(r.Path, Options{Params: r.Params, MemoryMB: r.MemoryMB, Stderr: buf})
			if err != nil {
				return nil, err
			}
			a, closeFn = la, la.Close
		} else {
			b, err := builtin.New(strings.TrimPrefix(p.Ref, "builtin:"))
			if err != nil {
				return nil, err
			}
			a = b
		}
		cfg := sdk.ServeConfig(a, sdk.WithRegistry(testRegistry()))
		impl := cfg.Plugins[protocol.PluginName].(*protocol.Plugin).Impl
		return inProcess{Agent: impl, close: closeFn, stderr: buf, mem: make(chan struct{})}, nil
	}
}

// playReferee referees one game between two references under prof.
func playReferee(t *testing.T, launch referee.Launcher, g engine.Game, params engine.Params, prof engine.Profile, a, b string) *record.Game {
	t.Helper()
	r := &referee.Referee{Launch: launch}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rec, err := r.Play(ctx, referee.Match{
		ID: t.Name(), Game: g, Params: params, Profile: prof,
		Players: [2]referee.Player{{Name: "A", Ref: a}, {Name: "B", Ref: b}},
		Seed:    7,
	})
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	return rec
}
