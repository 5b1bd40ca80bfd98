package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"arena/agents"
	"arena/agents/builtin"
	"arena/agents/course"
	"arena/agents/lua"
	"arena/arena/buildinfo"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
)

// Env is what the commands need from the outside world, so tests can run
// them in-process with their own output and agent host (NewRoot).
type Env struct {
	Stdout, Stderr io.Writer
	Registry       *engine.Registry
	Launcher       *host.Launcher
	IsTerminal     func() bool
	// Preflight checks run on every agent reference before games start
	// (e.g. compiling Lua scripts); each returns nil for references it
	// does not handle.
	Preflight []func(ref string) error
	// PreflightTimeout bounds the pre-flight check of one agent (0: the
	// default).
	PreflightTimeout time.Duration
	// PhaseAfter is how long a phase runs before the command says what it
	// is doing (0: slowPhaseAfter; negative: at once).
	PhaseAfter time.Duration
}

// NewEnv is the environment of a command whose output goes to stdout and
// stderr, never a terminal, with every game, its agents served by
// agentHost (the arena or the lean agent host) and their sandboxes
// started by init (none: the agent host is the init).
func NewEnv(stdout, stderr io.Writer, agentHost, init string) *Env {
	e := &Env{
		Stdout:   stdout,
		Stderr:   stderr,
		Registry: all.Registry(),
		Launcher: &host.Launcher{
			Self:     []string{agentHost, agents.HostArg},
			Builtins: builtin.Names(),
			Init:     init,
		},
		IsTerminal: func() bool { return false },
		// Lua scripts are compiled before any game, so a syntax error is
		// reported as file:line at once.
		Preflight: []func(ref string) error{lua.CheckRef, builtin.CheckRef},
	}
	// Course agents' folders are shown inside their sandboxes, COMP424
	// repositories compiled by the arena first, the compile told where
	// the command's progress goes.
	e.Launcher.Prepare = course.Preparer{Progress: e.Stderr}.Prepare
	// The one notice that agents run unsandboxed goes wherever the
	// command's errors go.
	e.Launcher.Notify = func(msg string) { fmt.Fprintln(e.Stderr, msg) }
	return e
}

// DefaultEnv is the environment of the arena binary: the process's own
// output, agents served by the lean agent host beside the binary (else
// the binary itself), sandboxes started by the init beside it (else the
// agent host).
func DefaultEnv() *Env {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	// Built-in, Lua and course agents are served by the lean agent host
	// when one of the same build sits beside this binary.
	agentBin, hostNote := agentHost(self, os.Getenv)
	if hostNote != "" {
		fmt.Fprintln(os.Stderr, hostNote)
	}
	e := NewEnv(os.Stdout, os.Stderr, agentBin, sandboxInit(self))
	e.IsTerminal = func() bool { return isTerminal(os.Stderr) }
	return e
}

// Run runs the arena command line args (without the program's name) in e.
func (e *Env) Run(ctx context.Context, args ...string) error {
	root := NewRoot(e)
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
}

// NewRoot is the arena command with every subcommand, run in e.
func NewRoot(e *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "arena",
		Short: "Referee course board games between agent programs",
		Long: `arena referees two-player course board games between agent programs, with the
course referees' rules, time limits and penalties, and runs leagues of them.

Agents run as plugin subprocesses: built-in agents (builtin:random,
builtin:greedy, and the house bots builtin:baseline and builtin:strong, which
take options as builtin:strong?time=0.4), Lua scripts (lua:path/to/bot.lua),
agents written for the game's course and run unmodified (course:PATH, see
docs/course-agents.md), or agent binaries built with the arena SDK (a path).

` + exitTable,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	root.AddCommand(newPlayCmd(e), newCheckCmd(e), newNewAgentCmd(e), newGamesCmd(e), newRulesCmd(e), newLeagueCmd(e), newReplayCmd(e), newServeCmd(e), newDoctorCmd(e), newWorkerCmd(e), newVersionCmd())
	// --version prints what the version command prints.
	root.Version = buildinfo.Current().String()
	root.SetVersionTemplate("{{.Version}}")
	strictCommands(root)
	return root
}
