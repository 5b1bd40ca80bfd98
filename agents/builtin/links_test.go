package builtin

import (
	"testing"

	"arena/internal/linkcheck"
)

// The built-in agents are written against plugins/agentapi's types, so
// neither they nor their tests link the plugin transport (gRPC and
// go-plugin, about a CPU second and a half of every link that carries
// them); the agents package serves them.
func TestBuiltinsLinkNoPluginTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	linkcheck.Refuse(t, true, "google.golang.org/grpc", "github.com/hashicorp/go-plugin")
}
