// Command arena referees course board games between agent programs.
//
// Run `arena --help` for the commands. The binary also hosts its built-in
// and Lua agents: the arena re-executes itself with a hidden first argument
// to serve one agent as a plugin subprocess. It is each agent sandbox's
// init too: plugins/sandbox takes over before main when the first argument
// is __sandbox-init.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"arena/agents"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == agents.BuildIDArg {
		fmt.Println(agents.BuildID())
		return
	}
	if len(os.Args) > 1 && os.Args[1] == agents.HostArg {
		if len(os.Args) < 3 {
			fmt.Fprintln(os.Stderr, "arena: agent host: missing agent reference")
			os.Exit(2)
		}
		if err := agents.Serve(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "arena: agent host:", err)
			os.Exit(1)
		}
		return
	}
	// SIGINT/SIGTERM cancel the context: running games stop, their agent
	// process groups are killed, and finished results are kept.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot(defaultEnv())
	if err := root.ExecuteContext(ctx); err != nil {
		reportError(os.Stderr, err)
		code := exitStatus(ctx, err)
		stop()
		os.Exit(code)
	}
}
