package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"arena/agents/course"
	"arena/arena/check"
	"arena/arena/league/gobuild"
	"arena/engine"
)

type checkOpts struct {
	game      string
	params    []string
	sets      []string
	games     int
	opponents []string
	seed      string
	json      bool
	isolate   string
}

func newCheckCmd(e *Env) *cobra.Command {
	var o checkOpts
	cmd := &cobra.Command{
		Use:   "check AGENT --game GAME",
		Short: "Check an agent the way a course would before accepting it: PASS or FAIL",
		Long: `Check an agent before submitting it. The agent (the path of a binary built with
the arena SDK, a Go agent's package directory, which is built first,
lua:PATH.lua, course:PATH for an agent written for the game's course and run
unmodified (docs/course-agents.md), or a built-in) is started under the
game's real course profile and the arena's sandbox, exactly as in a league
(play and league files accept the same references):

  - the handshake and the agent protocol version;
  - the start-up time against the profile's start-up limit;
  - --games short games against random and the course baseline (which thinks
    a tenth of each move's limit, to keep the check short), the agent taking
    both seats;
  - the slowest move against the move limit and how far it stayed from the
    cushion; the memory peak against the limit; under Cachex's CPU budget,
    the CPU time of a game against the budget;
  - every illegal, late, slow, unparseable or failed move and every crash,
    grouped by cause: the first of each cause with the board where it
    happened and the agent's stderr at that moment, then how many more
    times and in which games and plies (--json lists each in full);
  - stdout noise (stdout belongs to the plugin protocol).

The verdict comes first and again at the end: PASS (exit status 0) or FAIL
naming the causes (exit status 3).
--json prints the same report as one JSON document for a submission system.

` + exitTable,
		Example: `  arena check ./mybot --game bohnenspiel
  arena check lua:bot.lua --game cachex --param n=5 --games 2
  arena check course:comp424-agent --game pentago-twist
  arena check ./mybot --game pentago-twist --json > report.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd.Context(), e, cmd.OutOrStdout(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.game, "game", "g", "", "the game to check the agent on (arena games lists them)")
	f.StringArrayVarP(&o.params, "param", "p", nil, "game parameter NAME=VALUE (repeatable), e.g. n=5")
	f.StringArrayVar(&o.sets, "set", nil, "override a profile setting NAME=VALUE (repeatable; the report says so): "+strings.Join(engine.ProfileSettings(), ", "))
	f.IntVarP(&o.games, "games", "n", 4, "games to play, seats and opponents alternating")
	f.StringSliceVar(&o.opponents, "opponents", check.DefaultOpponents(), "opponent agents, taken in turn")
	f.StringVar(&o.seed, "seed", "1", "seed of the games")
	f.BoolVar(&o.json, "json", false, "print the report as JSON")
	f.StringVar(&o.isolate, "isolation", "auto", "agent sandboxes: auto, required or off (docs/security.md)")
	_ = cmd.MarkFlagRequired("game")
	return cmd
}

// buildAgentDir builds the Go agent package in dir into the arena's agent
// cache, as a league does, and returns the binary.
func buildAgentDir(ctx context.Context, dir string, log io.Writer) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return gobuild.Package(ctx, abs, filepath.Join(base, "arena", "agents"), log)
}

// launchRef is what the launcher starts for an agent reference: a Go
// package directory (as in league files) is built first, into the agent
// cache; any other reference is started as written. A package that does
// not build, or is not a program, is a refused agent.
func (e *Env) launchRef(ctx context.Context, ref string) (string, error) {
	fi, err := os.Stat(ref)
	if err != nil || !fi.IsDir() {
		return ref, nil
	}
	bin, err := buildAgentDir(ctx, ref, e.Stderr)
	if err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", &agentRefusedError{fmt.Errorf("agent %s: %w", ref, err)}
	}
	return bin, nil
}

func runCheck(ctx context.Context, e *Env, out io.Writer, agent string, o checkOpts) error {
	g, seed, params, prof, overrides, err := e.matchSetup(o.game, o.games, o.seed, o.params, o.sets)
	if err != nil {
		return err
	}
	e.Launcher.Isolation = o.isolate
	if err := e.Launcher.Check(); err != nil {
		return fmt.Errorf("--isolation: %w", err)
	}
	// The opponents must exist; the checked agent's own problems (a
	// missing file, a Lua syntax error) belong in the report.
	for _, opp := range o.opponents {
		if err := e.checkAgent(opp, g.Info().Name); err != nil {
			return fmt.Errorf("--opponents: %w", err)
		}
	}
	cfg := check.Config{
		Agent: agent, Game: g, Params: params, Profile: prof, Overrides: overrides,
		Games: o.games, Opponents: o.opponents, Seed: seed, Launcher: e.Launcher, Runtime: course.Runtime,
	}
	if !o.json {
		// Start-up alone may take the profile's start-up limit.
		fmt.Fprintf(e.Stderr, "checking %s on %s: starting it (handshake, start-up time)...\n", agent, g.Info().Name)
		cfg.Progress = func(n, of int, opp string) {
			fmt.Fprintf(e.Stderr, "game %d/%d against %s...\n", n, of, opp)
		}
	}
	launchRef, err := e.launchRef(ctx, agent)
	if err != nil {
		return err
	}
	cfg.Agent = launchRef
	var rep *check.Report
	if err := e.checkAgent(launchRef, g.Info().Name); err != nil {
		// Reported like any other start failure, so --json still gives a
		// report.
		rep = check.StartFailure(cfg, e.Launcher.Sandboxed(), err)
	} else if rep, err = check.Run(ctx, cfg); err != nil {
		return err
	}
	rep.Agent = agent
	if o.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(out)
	}
	if !rep.Pass {
		return &exitError{code: ExitBroken, msg: fmt.Sprintf("%s: %s", agent, rep.Verdict)}
	}
	return nil
}
