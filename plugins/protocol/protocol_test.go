package protocol

import (
	"strings"
	"testing"
)

// Refusal names both versions and the SDK version the agent needs.
func TestRefusal(t *testing.T) {
	msg := Refusal("Incompatible API version with plugin. Plugin version: 7, Client versions: [3]", 3)
	for _, want := range []string{"agent protocol version 7", "this arena protocol version 3", "SDK of protocol version 3", "sdk.ProtocolVersion == 3", "rebuild"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	// A message go-plugin words differently still names what is needed.
	if msg := Refusal("something else", 1); !strings.Contains(msg, "another version") || !strings.Contains(msg, "SDK of protocol version 1") {
		t.Errorf("fallback: %q", msg)
	}
}
