package course

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// adapter plays one game for a course agent of one course.
type adapter interface {
	// start opens the game: the agent's runtime is started and the agent
	// loaded as its framework loaded it.
	start(ctx context.Context, g sdk.Game) error
	move(ctx context.Context, t sdk.Turn) (string, error)
	observe(ctx context.Context, seat int, move string, ply int) error
	// close ends the agent's runtime; the result is passed when known.
	close(ctx context.Context, r *protocol.EndInfo)
}

// Agent is a course agent served as an arena plugin: the game named at the
// start picks the course adapter.
type Agent struct {
	ref    Ref
	stderr *os.File
	a      adapter
}

// New returns the agent for r. stderr is the log the agent's own output
// goes to (the process's stderr, which the arena keeps).
func New(r Ref, stderr *os.File) *Agent { return &Agent{ref: r, stderr: stderr} }

// Serve serves the course agent named by ref as a plugin in this process.
// It does not return on success.
func Serve(ref string) error {
	r, err := ParseRef(ref)
	if err != nil {
		return err
	}
	// The process's own stderr, taken before the plugin server replaces
	// os.Stderr: the course runtime's output goes there directly.
	sdk.Serve(New(r, os.Stderr))
	return nil
}

// Games lists the games a course reference can play, with the course
// each adapter reproduces.
var Games = map[string]string{
	"dots-and-boxes": "AI Gaming CS4386 calculate_move bot module",
	"cachex":         "COMP30024 2022 Player package",
	"hex-crossout":   "NYCU AI Capstone 2023 TA-protocol script",
	"pentago-twist":  "COMP424 2021 course repository",
	"bohnenspiel":    "COMP424 2017 course repository",
}

func newAdapter(game string, r Ref, stderr *os.File) (adapter, error) {
	switch game {
	case "dots-and-boxes":
		return &dotsAdapter{ref: r, log: stderr}, nil
	case "cachex":
		return &cachexAdapter{ref: r, log: stderr}, nil
	case "hex-crossout":
		return &hexAdapter{ref: r, log: stderr}, nil
	case "pentago-twist", "bohnenspiel":
		return &comp424Adapter{ref: r, log: stderr}, nil
	}
	return nil, fmt.Errorf("course agents cannot play %s (course adapters exist for dots-and-boxes, cachex, hex-crossout, pentago-twist, bohnenspiel)", game)
}

// Describe names the agent after its path.
func (a *Agent) Describe() protocol.Description {
	return protocol.Description{
		Name:        Prefix + filepath.Base(a.ref.Path),
		Description: "a course agent run unmodified through its course's calling convention",
	}
}

// Start picks the adapter for the game and starts the agent.
func (a *Agent) Start(ctx context.Context, g sdk.Game) error {
	if a.a != nil {
		a.a.close(ctx, nil)
	}
	ad, err := newAdapter(g.Game, a.ref, a.stderr)
	if err != nil {
		return err
	}
	a.a = ad
	return ad.start(ctx, g)
}

// Move asks the agent for its move.
func (a *Agent) Move(ctx context.Context, t sdk.Turn) (string, error) {
	if a.a == nil {
		return "", fmt.Errorf("move requested before the game started")
	}
	return a.a.move(ctx, t)
}

// Observe passes a played move on to adapters whose course told agents of
// every move.
func (a *Agent) Observe(ctx context.Context, seat int, move string, ply int) error {
	if a.a == nil {
		return nil
	}
	return a.a.observe(ctx, seat, move, ply)
}

// End closes the game and the agent's runtime.
func (a *Agent) End(ctx context.Context, r protocol.EndInfo) error {
	if a.a != nil {
		a.a.close(ctx, &r)
		a.a = nil
	}
	return nil
}
