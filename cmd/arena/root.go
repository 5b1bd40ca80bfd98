package main

import (
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

// env is what the commands need from the outside world, so tests can run
// them in-process with their own output and agent host.
type env struct {
	stdout, stderr io.Writer
	registry       *engine.Registry
	launcher       *host.Launcher
	isTerminal     func() bool
	// preflight checks run on every agent reference before games start
	// (e.g. compiling Lua scripts); each returns nil for references it
	// does not handle.
	preflight []func(ref string) error
	// preflightTimeout bounds the pre-flight check of one agent (0: the
	// default).
	preflightTimeout time.Duration
	// phaseAfter is how long a phase runs before the command says what it
	// is doing (0: slowPhaseAfter; negative: at once).
	phaseAfter time.Duration
}

func defaultEnv() *env {
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
	e := &env{
		stdout:   os.Stdout,
		stderr:   os.Stderr,
		registry: all.Registry(),
		launcher: &host.Launcher{
			Self:     []string{agentBin, agents.HostArg},
			Builtins: builtin.Names(),
			// The init alone where it was built beside this binary; else
			// the agent host is the init.
			Init: sandboxInit(self),
		},
		isTerminal: func() bool { return isTerminal(os.Stderr) },
		// Lua scripts are compiled before any game, so a syntax error is
		// reported as file:line at once.
		preflight: []func(ref string) error{lua.CheckRef, builtin.CheckRef},
	}
	// Course agents' folders are shown inside their sandboxes, COMP424
	// repositories compiled by the arena first, the compile told where
	// the command's progress goes.
	e.launcher.Prepare = course.Preparer{Progress: e.stderr}.Prepare
	// The one notice that agents run unsandboxed goes wherever the
	// command's errors go.
	e.launcher.Notify = func(msg string) { fmt.Fprintln(e.stderr, msg) }
	return e
}

func newRoot(e *env) *cobra.Command {
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
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.AddCommand(newPlayCmd(e), newCheckCmd(e), newNewAgentCmd(e), newGamesCmd(e), newRulesCmd(e), newLeagueCmd(e), newReplayCmd(e), newServeCmd(e), newDoctorCmd(e), newWorkerCmd(e), newVersionCmd())
	// --version prints what the version command prints.
	root.Version = buildinfo.Current().String()
	root.SetVersionTemplate("{{.Version}}")
	strictCommands(root)
	return root
}
