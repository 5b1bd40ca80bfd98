package search_test

import (
	"testing"

	"arena/internal/linkcheck"
)

// The search library and its tests and examples use plugins/agentapi's
// types, not the SDK's server: none of them links the plugin transport
// (gRPC and go-plugin, about a CPU second and a half of a link).
func TestSearchLinksNoPluginTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	linkcheck.Refuse(t, true, "google.golang.org/grpc", "github.com/hashicorp/go-plugin")
}
