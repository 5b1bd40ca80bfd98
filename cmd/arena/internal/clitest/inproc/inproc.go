// Package inproc runs the arena's commands in a test's own process, for
// the command test packages under cmd/arena/internal/clitest: each run
// gets its own output buffers, and its agents are served by the lean
// agent host and sandboxed by the init alone, as beside an installed
// arena. (cmd/arena/internal/cli's own tests have the same helpers
// inside the package: they cannot import this one.)
package inproc

import (
	"bytes"
	"context"
	"testing"

	"arena/cmd/arena/internal/cli"
	"arena/cmd/arena/internal/clitest"
)

// Env is an environment for one command run, with its output captured.
func Env(t *testing.T) (*cli.Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	agentHost, init := clitest.LeanPrograms(t)
	var out, errb bytes.Buffer
	return cli.NewEnv(&out, &errb, agentHost, init), &out, &errb
}

// Run runs the arena command line args in e.
func Run(t *testing.T, e *cli.Env, args ...string) error {
	t.Helper()
	return e.Run(context.Background(), args...)
}
