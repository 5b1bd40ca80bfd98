// Package inproc launches built-in agents inside the calling process: no
// subprocess, sandbox or socket, so a league of them costs only the
// arena's own work. Benches use it for their ceiling and for instant
// games, and tests for leagues of many games; it is never a way to run
// agents in a real league, where every agent is a process of its own.
package inproc

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/agents/builtin"
	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// agent is a built-in agent called directly.
type agent struct{ protocol.Agent }

func (agent) Kill()                           {}
func (agent) CPUTime() (time.Duration, error) { return 0, nil }
func (agent) MemoryExceeded() <-chan struct{} { return nil }
func (agent) Stderr() string                  { return "" }

// Launch starts the built-in agent p.Ref names ("builtin:random") in
// process.
func Launch(_ context.Context, p referee.Player, _ host.Options) (referee.Handle, error) {
	name, ok := strings.CutPrefix(p.Ref, "builtin:")
	if !ok {
		return nil, fmt.Errorf("agent %s: %q is not a built-in agent", p.Name, p.Ref)
	}
	a, err := builtin.New(name)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", p.Name, err)
	}
	impl := sdk.ServeConfig(a).Plugins[protocol.PluginName].(*protocol.Plugin).Impl
	return agent{impl}, nil
}
