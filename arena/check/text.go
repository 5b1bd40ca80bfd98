package check

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// explain says in plain words what a cause means and what to do about it.
var explain = map[string]string{
	CauseStart:       "the agent could not be started",
	CauseProtocol:    "the agent was built against another version of the agent protocol: rebuild it against this arena's SDK",
	CauseStdoutNoise: "the agent printed on stdout before the plugin handshake: stdout belongs to the protocol, print to stderr",
	CauseOpen:        "the agent failed to open a game (its Start method, or a Lua script's top level or init)",
	CauseSlow:        "a reply came after the move limit and the cushion: the course counts it as a timeout",
	CauseLate:        "a reply came after the move limit, inside the cushion: the course discards it",
	CauseIllegal:     "the agent played an illegal move",
	CauseUnparseable: "the agent replied with text that is not a move in the course's notation",
	CauseError:       "the agent reported an error (or panicked) instead of a move",
	CauseCrash:       "the agent process died or hung up during a game",
	CauseMemory:      "the agent went over the profile's memory limit and was killed",
	CauseCPU:         "the agent used up the game's CPU budget",
	CauseMachine:     "the machine was too busy for a fair verdict: the agent waited for a CPU long enough to explain a late reply; run the check again on a quieter machine",
}

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "check of %s on %s, profile %s", r.Agent, r.Game, r.Profile)
	if len(r.Params) > 0 {
		var kv []string
		for k, v := range r.Params {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		fmt.Fprintf(w, ", params %s", strings.Join(kv, " "))
	}
	fmt.Fprintln(w)
	// The verdict first, so it is seen whatever the length of the rest;
	// it closes the report too, for readers of its last line.
	fmt.Fprintf(w, "verdict: %s\n", r.summary())
	for _, o := range r.Overrides {
		fmt.Fprintf(w, "override %s (not the course's setting)\n", o)
	}
	sandbox := "sandboxed (namespaces, read-only file system, no network, an unprivileged user)"
	if !r.Sandboxed {
		sandbox = "NOT sandboxed on this machine (process group only)"
	}
	fmt.Fprintf(w, "  agent runs:     %s\n", sandbox)
	if r.Protocol.OK {
		name := ""
		if r.Name != "" {
			name = fmt.Sprintf(", calls itself %q", r.Name)
		}
		fmt.Fprintf(w, "  handshake:      ok, protocol version %d%s\n", r.Protocol.Arena, name)
	} else {
		fmt.Fprintf(w, "  handshake:      FAILED (this arena speaks protocol version %d)\n", r.Protocol.Arena)
	}
	if r.Startup.Value > 0 {
		fmt.Fprintf(w, "  start-up:       %s (limit %s)\n", fmtMS(r.Startup.Value), limitText(r.Startup.Limit, fmtMS))
	}
	if len(r.Games) > 0 {
		switch {
		case r.Time.Moves == 0:
			fmt.Fprintf(w, "  slowest move:   none played by the agent itself\n")
		case r.Time.Model == "cpu-budget":
			fmt.Fprintf(w, "  slowest move:   %s wall clock (game %d, ply %d; the profile counts CPU time)\n", fmtMS(r.Time.SlowestMS), r.Time.Game, r.Time.Ply)
		default:
			after := "before the limit (this profile has no cushion: a later reply is a timeout)"
			if r.Time.CushionMS > 0 {
				after = fmt.Sprintf("before the %s cushion", fmtMS(r.Time.CushionMS))
			}
			if r.Time.NoReply {
				fmt.Fprintf(w, "  slowest move:   no reply within %s for its %s limit (game %d, ply %d): past the cushion, a timeout\n",
					fmtMS(r.Time.SlowestMS), fmtMS(r.Time.LimitMS), r.Time.Game, r.Time.Ply)
				break
			}
			if r.Time.SpareMS < 0 {
				where := "past the cushion: a timeout"
				if -r.Time.SpareMS <= r.Time.CushionMS {
					where = fmt.Sprintf("inside the %s cushion: discarded", fmtMS(r.Time.CushionMS))
				}
				fmt.Fprintf(w, "  slowest move:   %s for its %s limit (game %d, ply %d): %s over, %s\n",
					fmtMS(r.Time.SlowestMS), fmtMS(r.Time.LimitMS), r.Time.Game, r.Time.Ply, fmtMS(-r.Time.SpareMS), where)
				break
			}
			fmt.Fprintf(w, "  slowest move:   %s of its %s limit (game %d, ply %d): %s to spare %s\n",
				fmtMS(r.Time.SlowestMS), fmtMS(r.Time.LimitMS), r.Time.Game, r.Time.Ply, fmtMS(r.Time.SpareMS), after)
		}
		if r.CPU != nil {
			fmt.Fprintf(w, "  CPU per game:   at most %s of the %s budget\n", fmtMS(r.CPU.Value), fmtMS(r.CPU.Limit))
		}
		peak := fmt.Sprintf("%.1f MiB", r.Memory.Value)
		if r.Memory.Value == 0 {
			peak = "not measured (the agent's processes ended before a sample)"
		}
		fmt.Fprintf(w, "  memory peak:    %s (limit %s)\n", peak, limitText(r.Memory.Limit, func(v float64) string { return fmt.Sprintf("%.0f MiB", v) }))
		stdout := "none"
		if r.Stdout != "" {
			stdout = fmt.Sprintf("%d bytes, discarded: %q", len(r.Stdout), firstLine(r.Stdout))
		}
		fmt.Fprintf(w, "  stdout noise:   %s\n", stdout)
		fmt.Fprintln(w, "  games:")
		for _, g := range r.Games {
			fmt.Fprintf(w, "    %d. vs %s, agent in seat %d: %s (%s, %d plies)\n", g.N, g.Opponent, g.Seat, g.Outcome, g.Result, g.Moves)
		}
	}
	for _, g := range groupProblems(r.Problems) {
		writeGroup(w, g)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	fmt.Fprintln(w, r.Verdict)
}

// summary is the verdict with the number of problems of each cause.
func (r *Report) summary() string {
	if r.Pass {
		return r.Verdict
	}
	var parts []string
	for _, g := range groupProblems(r.Problems) {
		parts = append(parts, fmt.Sprintf("%s %s", g.cause, times(len(g.problems), "time")))
	}
	return "FAIL: " + strings.Join(parts, ", ")
}

// problemGroup is the problems of one cause, in the report's order.
type problemGroup struct {
	cause    string
	problems []Problem
}

func groupProblems(ps []Problem) []problemGroup {
	var out []problemGroup
	at := map[string]int{}
	for _, p := range ps {
		i, ok := at[p.Cause]
		if !ok {
			i = len(out)
			at[p.Cause] = i
			out = append(out, problemGroup{cause: p.Cause})
		}
		out[i].problems = append(out[i].problems, p)
	}
	return out
}

// writeGroup prints the first problem of a cause in full (board, reply,
// stderr) and the others as a count with their games and plies: an agent
// that fails every move would otherwise print hundreds of boards.
func writeGroup(w io.Writer, g problemGroup) {
	p := g.problems[0]
	fmt.Fprintln(w)
	where := "before any game"
	if p.Game > 0 {
		where = fmt.Sprintf("game %d, ply %d", p.Game, p.Ply)
	}
	fmt.Fprintf(w, "FAIL %s (%s): %s\n", p.Cause, where, explain[p.Cause])
	fmt.Fprintf(w, "  what happened: %s\n", p.Detail)
	if p.Reply != "" {
		fmt.Fprintf(w, "  the reply:     %q\n", p.Reply)
	}
	if p.Penalty != "" {
		fmt.Fprintf(w, "  the course's penalty: %s\n", p.Penalty)
	}
	if p.Board != "" {
		fmt.Fprintf(w, "  the position:\n%s\n", indent(p.Board, "    "))
	}
	if p.Stderr != "" {
		fmt.Fprintf(w, "  the agent's stderr there:\n%s\n", indent(p.Stderr, "    | "))
	}
	rest := g.problems[1:]
	if len(rest) == 0 {
		return
	}
	games := pliesByGame(rest)
	fmt.Fprintf(w, "  %s again, %s more in %s (--json lists each in full):\n", g.cause, times(len(rest), "time"), times(len(games), "game"))
	for i, gp := range games {
		if i == maxGameLines {
			fmt.Fprintf(w, "    and %s more\n", times(len(games)-i, "game"))
			break
		}
		if gp.game == 0 {
			fmt.Fprintf(w, "    before any game: %s\n", times(len(gp.plies), "time"))
			continue
		}
		fmt.Fprintf(w, "    game %d: %s %s\n", gp.game, plural(len(gp.plies), "ply", "plies"), plyList(gp.plies))
	}
}

// maxGameLines and maxPlies bound the summary of a cause's repeats.
const (
	maxGameLines = 6
	maxPlies     = 8
)

type gamePlies struct {
	game  int
	plies []int
}

func pliesByGame(ps []Problem) []gamePlies {
	var out []gamePlies
	for _, p := range ps {
		if n := len(out); n > 0 && out[n-1].game == p.Game {
			out[n-1].plies = append(out[n-1].plies, p.Ply)
			continue
		}
		out = append(out, gamePlies{game: p.Game, plies: []int{p.Ply}})
	}
	return out
}

// plyList writes plies as "6, 8, 10", shortening a long list to its first
// plies, the last and the count.
func plyList(plies []int) string {
	var parts []string
	for i, p := range plies {
		if i == maxPlies-1 && len(plies) > maxPlies {
			return fmt.Sprintf("%s, ... %d (%d in all)", strings.Join(parts, ", "), plies[len(plies)-1], len(plies))
		}
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ", ")
}

func times(n int, what string) string { return fmt.Sprintf("%d %s", n, plural(n, what, what+"s")) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func limitText(v float64, f func(float64) string) string {
	if v <= 0 {
		return "none in this profile"
	}
	return f(v)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
