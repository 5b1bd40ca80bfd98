// Package cli is the arena command: its commands (cobra), the environment
// they run in (Env), and what the arena binary does before them (print
// its build ID, serve an agent). cmd/arena is its main package. The
// commands' tests that build agents or play leagues are in the packages
// under cmd/arena/internal/clitest, which run the commands through Env.
package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"arena/agents"
)

// Main runs the arena command with os.Args and exits with its status.
func Main() {
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
	if err := DefaultEnv().Run(ctx, os.Args[1:]...); err != nil {
		reportError(os.Stderr, err)
		code := exitStatus(ctx, err)
		stop()
		os.Exit(code)
	}
}
