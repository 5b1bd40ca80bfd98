package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// tally is what one side judged for one agent over its games.
type tally struct {
	games, moves int
	// substituted counts the agent's turns played by a random move
	// instead of its own reply: a reply past the limit, or no reply.
	substituted int
	died        int // games in which the agent's process died
	memory      int // games with a memory failure (the course's or the arena's)
	time        int // games lost on time
	lost        int // games lost by a failure (time, space, disconnection)
	contention  int // arena only: verdicts marked possibly caused by the machine
}

func (t *tally) add(u tally) {
	t.games += u.games
	t.moves += u.moves
	t.substituted += u.substituted
	t.died += u.died
	t.memory += u.memory
	t.time += u.time
	t.lost += u.lost
	t.contention += u.contention
}

func (t tally) String() string {
	return fmt.Sprintf("%d moves, %d random, died %d, memory %d, lost on time %d, lost by failure %d", t.moves, t.substituted, t.died, t.memory, t.time, t.lost)
}

type row struct {
	agent         string
	course, arena tally
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

// perMille formats k of n per 1,000 with its 95% interval.
func perMille(k, n int) string {
	lo, hi := wilson(k, n)
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f [%.1f, %.1f]", 1000*float64(k)/float64(n), 1000*lo, 1000*hi)
}

func printTable(w io.Writer, rows []row) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\tside\tgames\tmoves\trandom moves per 1,000 [95%]\tdied\tmemory failures\tlost on time\tlost by failure\tmarked contention")
	for _, r := range rows {
		for _, s := range []struct {
			name string
			t    tally
			cont string
		}{{"course", r.course, "-"}, {"arena", r.arena, fmt.Sprint(r.arena.contention)}} {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%s\n", r.agent, s.name, s.t.games, s.t.moves,
				perMille(s.t.substituted, s.t.moves), s.t.died, s.t.memory, s.t.time, s.t.lost, s.cont)
		}
	}
	tw.Flush()
}
