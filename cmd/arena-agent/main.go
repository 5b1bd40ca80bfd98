// Command arena-agent is the lean agent host: it serves one built-in, Lua
// or course agent as a plugin (arena-agent __agent REF) and is each agent
// sandbox's init (plugins/sandbox takes over before main when the first
// argument is __sandbox-init). It links the agents and the protocol only —
// not the results store, the CLI or the configuration libraries of the
// arena command — so an agent process starts and stays small. The arena
// uses it when it sits beside the arena binary and is of the same build
// (cmd/arena/internal/cli/agenthost.go); otherwise the arena re-executes itself.
package main

import (
	"fmt"
	"os"

	"arena/agents"
	_ "arena/plugins/sandbox" // the sandbox init, dispatched at package initialisation
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == agents.BuildIDArg {
		fmt.Println(agents.BuildID())
		return
	}
	if len(os.Args) < 2 || os.Args[1] != agents.HostArg {
		fmt.Fprintf(os.Stderr, "arena-agent serves agents for the arena command and is started by it (arena-agent %s REF); run arena --help\n", agents.HostArg)
		os.Exit(2)
	}
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "arena-agent: missing agent reference")
		os.Exit(2)
	}
	if err := agents.Serve(os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "arena-agent:", err)
		os.Exit(1)
	}
}
