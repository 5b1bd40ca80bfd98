package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit statuses, one table for every command (docs/leagues.md, "Exit
// status"; the README). Scripts tell a broken agent from a broken command
// line by them.
const (
	// ExitOK: the command did what it was asked (games played, check PASS).
	ExitOK = 0
	// ExitSetup: a usage or setup error: an unknown command or flag, a
	// wrong argument, a league file's error, a missing file or store.
	ExitSetup = 1
	// ExitVerdict: a verification ran and found faults: recorded games that
	// do not replay (rules verify, replay).
	ExitVerdict = 2
	// ExitBroken: an agent was refused: it failed the pre-flight check (a
	// Lua syntax error, a missing Python module, a failed handshake),
	// check said FAIL, or it played every game without one move of its own.
	ExitBroken = 3
	// ExitInterrupted: SIGINT or SIGTERM stopped the command (128 + 2, as
	// shells report Ctrl-C); finished games are kept.
	ExitInterrupted = 130
)

// exitTable is the exit statuses as the help texts show them.
const exitTable = `Exit status (every command):
  0    done: games played, check PASS, records replay
  1    usage or setup error: unknown command or flag, wrong arguments, a
       league file's error, a missing file or store
  2    a verification found faults: recorded games that do not replay
  3    an agent was refused: it failed the pre-flight check (a Lua syntax
       error, a missing Python module, no handshake), check said FAIL, or
       it played every game without one move of its own
  130  interrupted by SIGINT or SIGTERM (finished games are kept)`

// exitError carries an exit status for failures that are verdicts, not
// errors (e.g. a vector file that does not replay).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// agentRefusedError is an agent that exists but cannot play: its reference
// resolved, and a check before any game rejected it.
type agentRefusedError struct{ err error }

func (e *agentRefusedError) Error() string { return e.err.Error() }
func (e *agentRefusedError) Unwrap() error { return e.err }

// usageError is a command line the command cannot run: the usage line is
// printed after the message.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(cmd *cobra.Command, format string, a ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, a...)}
}

// ExitCode maps a command's error to its exit status, ignoring
// interruption (see exitStatus).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var re *agentRefusedError
	if errors.As(err, &re) {
		return ExitBroken
	}
	return ExitSetup
}

// exitStatus is the process's exit status for a command that returned err
// under ctx, the context SIGINT and SIGTERM cancel: an interrupted command
// exits 130 whatever error the interruption caused.
func exitStatus(ctx context.Context, err error) int {
	if err != nil && ctx.Err() != nil {
		return ExitInterrupted
	}
	return ExitCode(err)
}

// reportError prints a failed command's error and, for a usage error, the
// usage line of the command it concerns.
func reportError(w io.Writer, err error) {
	fmt.Fprintln(w, "arena:", err)
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd != nil {
		fmt.Fprintf(w, "Usage: %s\nRun '%s --help' for more.\n", ue.cmd.UseLine(), ue.cmd.CommandPath())
	}
}

// strictCommands makes the command tree's mistakes usage errors: wrong
// arguments, unknown or malformed flags, a missing required flag, and an
// unknown or missing subcommand (cobra would print the group's help and
// exit 0, so a script could not tell).
func strictCommands(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{cmd: cmd, err: err}
	})
	if c.HasSubCommands() && c.RunE == nil && c.Run == nil {
		c.Use = c.Name() + " COMMAND"
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf(cmd, "%s needs a command: %s", cmd.CommandPath(), subcommandNames(cmd))
			}
			hint := ""
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				hint = "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return usageErrorf(cmd, "unknown command %q for %s (commands: %s)%s", args[0], cmd.CommandPath(), subcommandNames(cmd), hint)
		}
	}
	validate := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		if validate != nil {
			if err := validate(cmd, args); err != nil {
				return &usageError{cmd: cmd, err: err}
			}
		}
		return requiredFlags(cmd)
	}
	for _, sub := range c.Commands() {
		strictCommands(sub)
	}
}

// requiredFlags checks the flags marked required, before cobra does, so a
// missing one is a usage error.
func requiredFlags(cmd *cobra.Command) error {
	var missing []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) > 0 && req[0] == "true" && !f.Changed {
			missing = append(missing, "--"+f.Name)
		}
	})
	if len(missing) > 0 {
		return usageErrorf(cmd, "required flag %s not set", strings.Join(missing, ", "))
	}
	return nil
}

func subcommandNames(cmd *cobra.Command) string {
	var names []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return strings.Join(names, ", ")
}
