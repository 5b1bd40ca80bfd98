package cli

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"arena/agents/builtin"
	"arena/agents/housebots"
	"arena/engine"
)

func newGamesCmd(e *Env) *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games and their course profiles",
		Long: `List every course game with its course, its referee profile and its
parameters. With --verbose, also print what this machine supports for
containing agents (as arena doctor does), each profile's limits and
penalties, and the built-in agents with their per-game methods and options
(builtin:NAME?key=value). Each game's rules, move notation and course
profile are written out in docs/games/GAME.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "GAME\tPROFILE\tCOURSE\tPARAMETERS")
			for _, g := range e.Registry.Games() {
				info := g.Info()
				var ps []string
				for _, p := range info.Params {
					ps = append(ps, p.Name+"="+p.Default)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", info.Name, info.Profile, info.Course, strings.Join(ps, " "))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if !verbose {
				return nil
			}
			fmt.Fprintln(cmd.OutOrStdout(), "\nagent containment on this machine (arena doctor):")
			printSupport(cmd.OutOrStdout(), e)
			for _, g := range e.Registry.Games() {
				p, err := g.Profile(engine.Params{})
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "\n%s (%s)\n", p.Name, g.Info().Name)
				describeProfile(cmd.OutOrStdout(), p, budgetRule(g, p))
				fmt.Fprintf(cmd.OutOrStdout(), "  rules: docs/games/%s.md\n", g.Info().Name)
				for _, pi := range g.Info().Params {
					fmt.Fprintf(cmd.OutOrStdout(), "  param %s%s: %s\n", pi.Name, defaultText(pi.Default), pi.Doc)
				}
			}
			describeBuiltins(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also print each profile's limits and penalties, and the built-in agents")
	return cmd
}

// defaultText is " (default V)", or nothing for an empty default.
func defaultText(v string) string {
	if v == "" {
		return ""
	}
	return " (default " + v + ")"
}

// budgetRule says how a CPU budget follows a game parameter, as "n² seconds
// (n=9)", when it is the square of an integer parameter in seconds at its
// default and at the value below; "" otherwise.
func budgetRule(g engine.Game, p engine.Profile) string {
	if p.Time != engine.CPUBudget {
		return ""
	}
	for _, pi := range g.Info().Params {
		n, err := strconv.Atoi(pi.Default)
		if err != nil || n < 2 || p.Budget != time.Duration(n*n)*time.Second {
			continue
		}
		smaller, err := g.Profile(engine.Params{pi.Name: strconv.Itoa(n - 1)})
		if err == nil && smaller.Budget == time.Duration((n-1)*(n-1))*time.Second {
			return fmt.Sprintf("%s² seconds (%s=%d: %ds)", pi.Name, pi.Name, n, n*n)
		}
	}
	return ""
}

func describeProfile(w io.Writer, p engine.Profile, budgetRule string) {
	switch p.Time {
	case engine.PerMove:
		fmt.Fprintf(w, "  time: per move, wall clock: first move %v, then %v, cushion %v\n", p.FirstMoveLimit, p.MoveLimit, p.Cushion)
	case engine.CPUBudget:
		budget := fmt.Sprintf("%gs", p.Budget.Seconds())
		if budgetRule != "" {
			budget = budgetRule
		}
		fmt.Fprintf(w, "  time: CPU budget per player per game %s, kill after remaining budget + %v\n", budget, p.BudgetGrace)
	}
	if p.MemoryMB > 0 {
		fmt.Fprintf(w, "  memory: %d MiB resident per agent process\n", p.MemoryMB)
	} else {
		fmt.Fprintf(w, "  memory: no limit\n")
	}
	if p.JVMHeapMB > 0 {
		fmt.Fprintf(w, "  memory of a course Java agent: its JVM's heap (-Xmx%dm), tree ceiling %d MiB resident\n", p.JVMHeapMB, p.JVMHeapMB+p.JVMHeadroomMB)
	}
	if p.PythonPeakMB > 0 {
		fmt.Fprintf(w, "  memory of a course Python agent: peak %d MiB above its size after imports, tree ceiling %d MiB resident\n", p.PythonPeakMB, p.PythonCeilingMB)
	}
	var pens []string
	for _, f := range engine.Failures() {
		pens = append(pens, fmt.Sprintf("%s=%s", f, p.PenaltyFor(f)))
	}
	sort.Strings(pens)
	fmt.Fprintf(w, "  penalties: %s\n", strings.Join(pens, " "))
}

// describeBuiltins lists the built-in agents, the house bots' method for
// each game and their options.
func describeBuiltins(w io.Writer) {
	fmt.Fprintf(w, "\nbuilt-in agents (builtin:NAME, options as builtin:NAME?key=value&key=value)\n")
	fmt.Fprintf(w, "  random: uniformly random legal moves (seeded)\n")
	fmt.Fprintf(w, "  greedy: best immediate gain; seeded tie-breaks\n")
	house := builtin.House()
	names := make([]string, 0, len(house))
	for n := range house {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %s: %s\n", n, builtin.HouseSummary[n])
		for _, d := range housebots.Common {
			fmt.Fprintf(w, "    option %s%s: %s\n", d.Key, defaultText(d.Default), d.Doc)
		}
		games := make([]string, 0, len(house[n]))
		for g := range house[n] {
			games = append(games, g)
		}
		sort.Strings(games)
		for _, g := range games {
			hb := house[n][g]
			fmt.Fprintf(w, "    %s: %s\n", g, hb.Doc)
			for _, d := range hb.Options {
				fmt.Fprintf(w, "      option %s%s: %s\n", d.Key, defaultText(d.Default), d.Doc)
			}
		}
	}
}
