package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The init's worth is its start: it must link the sandbox and what the
// sandbox needs, never the plugin, gRPC, protobuf or Lua packages whose
// initialisation makes the agent host slow to start.
func TestInitLinksOnlyTheSandbox(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	sandbox := false
	for _, dep := range deps {
		sandbox = sandbox || dep == "arena/plugins/sandbox"
		for _, heavy := range []string{"google.golang.org/", "github.com/hashicorp/", "github.com/yuin/gopher-lua", "arena/plugins/host", "arena/agents", "arena/engine"} {
			if strings.HasPrefix(dep, heavy) {
				t.Errorf("arena-init links %s", dep)
			}
		}
	}
	if !sandbox {
		t.Errorf("arena-init does not link arena/plugins/sandbox:\n%s", out)
	}
}

// Run by hand, it says what it is and does nothing.
func TestInitByHandSaysWhatItIs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the init")
	}
	out, err := exec.Command("go", "run", ".").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "started by the arena") {
		t.Errorf("by hand: %v\n%s", err, out)
	}
}
