// Command arena-init is the sandbox's init alone: the first process of
// every sandboxed agent, which builds the agent's root and starts it
// (plugins/sandbox). The arena starts it; it does nothing by hand.
//
// Built beside the arena (go build -o DIR ./cmd/...), it replaces the
// agent host in that role. It links the sandbox package and nothing
// else, so it starts in a fraction of the agent host's time: the agent
// host first initialises the gRPC, protobuf and Lua packages it links
// (docs/performance.md).
package main

import (
	"fmt"
	"os"

	_ "arena/plugins/sandbox" // its init hook is this program's work
)

func main() {
	fmt.Fprintln(os.Stderr, "arena-init: the sandbox init of arena's agents, started by the arena; there is nothing to run by hand")
	os.Exit(2)
}
