package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
	"arena/plugins/sdk/search"
)

// served is the agent as the arena sees it: the SDK's adapter from
// ServeConfig, called directly instead of over the plugin channel.
func served(a sdk.Agent, opts ...sdk.Option) protocol.Agent {
	return sdk.ServeConfig(a, opts...).Plugins[protocol.PluginName].(*protocol.Plugin).Impl
}

// start opens a Bohnenspiel game for the agent in seat, as the arena would.
func start(p protocol.Agent, seat int) error {
	return p.Start(context.Background(), protocol.StartInfo{
		Game: "bohnenspiel", Seat: seat, Profile: "comp424-2017",
		Clock: protocol.Clock{Model: "per-move", MoveLimit: 700 * time.Millisecond, FirstMoveLimit: 30 * time.Second, Cushion: time.Second},
	})
}

// ask sends one move request after history.
func ask(p protocol.Agent, seat int, history ...string) (string, error) {
	return p.Move(context.Background(), protocol.MoveRequest{
		History: history, Seat: seat, Ply: len(history),
		TimeLeft: 700 * time.Millisecond, Deadline: time.Now().Add(700 * time.Millisecond),
	})
}

// first plays the first legal move.
type first struct{}

func (first) Move(ctx context.Context, t sdk.Turn) (string, error) { return t.Legal[0], nil }

// A complete agent: one Move method, and main calls sdk.Serve. Here the
// agent is asked for a move the way the arena asks it.
func Example() {
	p := served(first{})
	if err := start(p, 0); err != nil {
		panic(err)
	}
	move, err := ask(p, 0)
	fmt.Println(move, err)
	// In a real agent: func main() { sdk.Serve(first{}) }
	// Output: PIT 0 0 <nil>
}

// scorer plays the move that gains the most seeds now, looking at the
// engine's own state.
type scorer struct{}

func (scorer) Move(ctx context.Context, t sdk.Turn) (string, error) {
	var best engine.Move
	bestGain := -1
	for _, m := range t.State.LegalMoves(nil) {
		next := t.State.Clone()
		next.Apply(m)
		if gain := next.Scores()[t.Seat] - t.State.Scores()[t.Seat]; gain > bestGain {
			best, bestGain = m, gain
		}
	}
	if bestGain < 0 {
		return "", errors.New("no legal move")
	}
	return t.State.FormatMove(best), nil
}

// An Agent answers each Turn with a move in the course's notation.
func ExampleAgent() {
	p := served(scorer{})
	if err := start(p, 1); err != nil {
		panic(err)
	}
	move, _ := ask(p, 1, "PIT 0 5")
	fmt.Println(move)
	// Output: PIT 1 0
}

// describer prints what it is told about the position.
type describer struct{}

func (describer) Move(ctx context.Context, t sdk.Turn) (string, error) {
	fmt.Println("history:", t.History)
	fmt.Println("seat:", t.Seat, "to move:", t.State.ToMove(), "ply:", t.Ply)
	fmt.Println("legal:", len(t.Legal), "first:", t.Legal[0])
	fmt.Println("clock:", t.Game.Clock.Model, t.TimeLeft)
	fmt.Println("same board text:", t.Board == "" || t.Board == t.State.Text())
	return t.Legal[0], nil
}

// Turn carries the request and the position rebuilt from its history as
// an engine.State.
func ExampleTurn() {
	p := served(describer{})
	if err := start(p, 0); err != nil {
		panic(err)
	}
	if _, err := ask(p, 0, "PIT 0 0", "PIT 1 3"); err != nil {
		panic(err)
	}
	// Output:
	// history: [PIT 0 0 PIT 1 3]
	// seat: 0 to move: 0 ply: 2
	// legal: 7 first: PIT 0 0
	// clock: per-move 700ms
	// same board text: true
}

// searcher uses the search library within the Turn's clock.
type searcher struct{ ab search.AlphaBeta }

func (s *searcher) Move(ctx context.Context, t sdk.Turn) (string, error) {
	lim := search.ForTurn(t, search.Budget{})
	lim.MaxDepth = 4
	r := s.ab.Search(ctx, t.State, lim)
	if !r.OK {
		return "", errors.New("no legal move")
	}
	return t.State.FormatMove(r.Move), nil
}

// Turn.State is what the search library searches.
func ExampleTurn_search() {
	p := served(&searcher{})
	if err := start(p, 0); err != nil {
		panic(err)
	}
	move, err := ask(p, 0)
	st, _ := bohnenspiel.Game{}.NewState(nil)
	_, perr := st.ParseMove(move)
	fmt.Println("legal:", err == nil && perr == nil)
	// Output: legal: true
}

// opener keeps what Start tells it.
type opener struct{ first }

func (opener) Start(ctx context.Context, g sdk.Game) error {
	fmt.Println(g.Game, "seat", g.Seat, "profile", g.Profile, "first move", g.Clock.FirstMoveLimit)
	return nil
}

// A Starter is told about the game (a Game) before the first move.
func ExampleStarter() {
	if err := start(served(opener{}), 1); err != nil {
		panic(err)
	}
	// Output: bohnenspiel seat 1 profile comp424-2017 first move 30s
}

// ExampleGame: Game is the StartInfo a Starter receives.
func ExampleGame() {
	g := sdk.Game{Game: "cachex", Params: map[string]string{"n": "5"}, Seat: 0,
		Clock: protocol.Clock{Model: "cpu-budget", Budget: 25 * time.Second}}
	fmt.Println(g.Game, g.Params["n"], g.Clock.Model, g.Clock.Budget)
	// Output: cachex 5 cpu-budget 25s
}

type watcher struct{ first }

func (watcher) Observe(ctx context.Context, seat int, move string, ply int) error {
	fmt.Printf("ply %d: seat %d played %s\n", ply, seat, move)
	return nil
}

// An Observer is told of every move, where the course profile notifies
// agents of moves (Cachex); the history in each Turn has them too.
func ExampleObserver() {
	p := served(watcher{})
	_ = p.Observe(context.Background(), 0, "PIT 0 3", 0)
	// Output: ply 0: seat 0 played PIT 0 3
}

type loser struct{ first }

func (loser) End(ctx context.Context, r protocol.EndInfo) error {
	fmt.Println("winner:", r.Winner, "scores:", r.Scores, "reason:", r.Reason)
	return nil
}

// An Ender is told how the game ended.
func ExampleEnder() {
	p := served(loser{})
	_ = p.End(context.Background(), protocol.EndInfo{Winner: 1, Scores: []int{30, 42}, Reason: "no seeds left"})
	// Output: winner: 1 scores: [30 42] reason: no seeds left
}

type named struct{ first }

func (named) Describe() protocol.Description {
	return protocol.Description{Name: "pitbot", Description: "first legal move", Games: []string{"bohnenspiel"}}
}

// A Describer names the agent in the arena's reports (arena check prints
// it); without one the arena sees the Go type's name.
func ExampleDescriber() {
	d, _ := served(named{}).Describe(context.Background())
	fmt.Println(d.Name, d.Games)
	d, _ = served(first{}).Describe(context.Background())
	fmt.Println(d.Name)
	// Output:
	// pitbot [bohnenspiel]
	// sdk_test.first
}

// WithRegistry limits the games an agent can rebuild positions for.
func ExampleWithRegistry() {
	reg := engine.NewRegistry(bohnenspiel.Game{})
	p := served(first{}, sdk.WithRegistry(reg))
	err := p.Start(context.Background(), protocol.StartInfo{Game: "cachex"})
	fmt.Println(err != nil)
	fmt.Println(start(p, 0))
	// Output:
	// true
	// <nil>
}

// Options adjust ServeConfig and Serve.
func ExampleOption() {
	opts := []sdk.Option{sdk.WithProtocolVersion(sdk.ProtocolVersion)}
	fmt.Println(sdk.ServeConfig(first{}, opts...).HandshakeConfig.ProtocolVersion)
	// Output: 4
}

// WithProtocolVersion builds an agent of another protocol version, which
// an arena refuses at the handshake naming the SDK version it needs; only
// tests of that refusal use it.
func ExampleWithProtocolVersion() {
	c := sdk.ServeConfig(first{}, sdk.WithProtocolVersion(sdk.ProtocolVersion+1))
	fmt.Println(c.HandshakeConfig.ProtocolVersion)
	// Output: 5
}

// ProtocolVersion is the version this SDK speaks.
func ExampleProtocolVersion() {
	fmt.Println(sdk.ProtocolVersion == protocol.Version)
	// Output: true
}

// ServeConfig is Serve's go-plugin configuration, for a program that
// serves in its own way.
func ExampleServeConfig() {
	c := sdk.ServeConfig(first{})
	_, ok := c.Plugins[protocol.PluginName]
	fmt.Println(c.HandshakeConfig.ProtocolVersion, ok, c.GRPCServer != nil)
	// Output: 4 true true
}

// Serve is the whole of main. It does not return: the process exits when
// the arena is done with it, so this example is not run (started by hand,
// outside the arena, it says so and exits).
func ExampleServe() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		sdk.Serve(first{})
	}
}
