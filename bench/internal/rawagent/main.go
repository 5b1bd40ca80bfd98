// Command rawagent is the benchmarks' agent without the SDK's work: it
// implements the protocol's Agent itself and answers every move request
// with the last move of its history, so a move's time is the transport's
// and the protocol binding's alone (the SDK agent also rebuilds the
// position and lists its legal moves).
package main

import (
	"context"

	"github.com/hashicorp/go-plugin"

	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

type agent struct{}

func (agent) Describe(context.Context) (protocol.Description, error) {
	return protocol.Description{Name: "raw"}, nil
}
func (agent) Start(context.Context, protocol.StartInfo) error { return nil }
func (agent) Move(_ context.Context, r protocol.MoveRequest) (string, error) {
	if len(r.History) == 0 {
		return "", nil
	}
	return r.History[len(r.History)-1], nil
}
func (agent) Observe(context.Context, int, string, int) error { return nil }
func (agent) End(context.Context, protocol.EndInfo) error     { return nil }

func main() {
	cfg := sdk.ServeConfig(nil)
	cfg.Plugins = protocol.Plugins(agent{})
	plugin.Serve(cfg)
}
