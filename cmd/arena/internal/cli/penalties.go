package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"arena/arena/record"
	"arena/arena/referee"
)

// penaltyLinesShown is how many penalties of one kind per agent are printed
// in full; the rest are counted and summed up at the end, since an agent
// that fails once usually fails the same way at every move.
const penaltyLinesShown = 3

// penaltyLog prints every penalty of a run on the console as the referee
// records it: agent, game, ply, kind, the referee's detail and, for an
// agent that died, the last line of its stderr once its game is over (the
// tail is complete only then). Games run at once, so it locks.
type penaltyLog struct {
	mu    sync.Mutex
	w     io.Writer
	quiet bool
	// replay is the records file a game can be replayed from ("" when the
	// run keeps no records).
	replay string
	counts map[penaltyKey]*penaltyCount
	order  []penaltyKey
	// deaths are the seats per game whose death was printed, for the
	// stderr line at the game's end.
	deaths map[string][]int
}

type penaltyKey struct{ agent, kind string }

type penaltyCount struct {
	shown, more int
	moreGame    string // the first game with a penalty not shown
}

func newPenaltyLog(w io.Writer, quiet bool, replay string) *penaltyLog {
	return &penaltyLog{w: w, quiet: quiet, replay: replay, counts: map[penaltyKey]*penaltyCount{}, deaths: map[string][]int{}}
}

// isPenalty tells penalty events from the referee's other notes.
func isPenalty(e record.Event) bool { return e.Kind != "launch" && e.Kind != "restart" }

// onEvent is the referee's event hook: it prints a penalty as it happens.
func (p *penaltyLog) onEvent(m *referee.Match, ev record.Event) {
	if !isPenalty(ev) || ev.Seat < 0 || ev.Seat > 1 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := penaltyKey{m.Players[ev.Seat].Name, ev.Kind}
	c := p.counts[k]
	if c == nil {
		c = &penaltyCount{}
		p.counts[k] = c
		p.order = append(p.order, k)
	}
	if c.shown >= penaltyLinesShown {
		if c.more == 0 {
			c.moreGame = m.ID
		}
		c.more++
		return
	}
	c.shown++
	if p.quiet {
		return
	}
	what := ev.Kind
	if ev.Penalty != "" {
		what += " (" + ev.Penalty + ")"
	}
	line := fmt.Sprintf("penalty: %s, game %s, ply %d: %s", k.agent, m.ID, ev.Ply, what)
	if d := oneLineText(ev.Detail); d != "" {
		line += ": " + d
	}
	fmt.Fprintln(p.w, line)
	if ev.Kind == "dead" || ev.Kind == "memory" {
		p.deaths[m.ID] = append(p.deaths[m.ID], ev.Seat)
	}
}

// gameOver prints, for each agent whose death in this game was shown, the
// last line of its stderr, and says so when the machine caused a verdict
// (the evidence is attached once the move is judged, after its event was
// printed).
func (p *penaltyLog) gameOver(rec *record.Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if why := rec.MachineCaused(); why != "" && !p.quiet {
		fmt.Fprintf(p.w, "  game %s: %s\n", rec.ID, why)
	}
	seats := p.deaths[rec.ID]
	delete(p.deaths, rec.ID)
	seen := [2]bool{}
	for _, seat := range seats {
		if seen[seat] {
			continue
		}
		seen[seat] = true
		if tail := lastLine(rec.Stderr[seat]); tail != "" {
			fmt.Fprintf(p.w, "  last stderr line of %s in game %s: %s\n", rec.Agents[seat].Name, rec.ID, tail)
		}
	}
}

// finish prints one line per agent and kind whose penalties were not all
// shown, pointing to where the rest can be read.
func (p *penaltyLog) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quiet {
		return
	}
	for _, k := range p.order {
		c := p.counts[k]
		if c.more == 0 {
			continue
		}
		where := " (run with --records FILE to keep every game for arena replay)"
		if p.replay != "" {
			where = fmt.Sprintf(": see `arena replay %s --game %s`", p.replay, c.moreGame)
		}
		fmt.Fprintf(p.w, "penalty: %s: %s … and %d more like it%s\n", k.agent, k.kind, c.more, where)
	}
}

// any reports whether the run had a penalty.
func (p *penaltyLog) any() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.order) > 0
}

// oneLineText puts a detail on one line, without the gRPC wrapping an
// agent's own message arrives in.
func oneLineText(s string) string {
	s = strings.ReplaceAll(s, "rpc error: code = Unknown desc = ", "")
	return strings.Join(strings.Fields(s), " ")
}

// brokenTally finds agents that were broken in every game they played: a
// penalty, and not one move of their own. Such a run did not measure
// them, and the exit status says so.
type brokenTally struct {
	games, broken map[string]int
	refused       []string // agents entered despite a failed pre-flight check
}

func newBrokenTally() *brokenTally {
	return &brokenTally{games: map[string]int{}, broken: map[string]int{}}
}

func (b *brokenTally) add(rec *record.Game) {
	for seat := range 2 {
		name := rec.Agents[seat].Name
		b.games[name]++
		moved, penalised := false, false
		for _, m := range rec.Moves {
			moved = moved || (m.Seat == seat && m.Source == record.SourceAgent)
		}
		for _, e := range rec.Events {
			penalised = penalised || (e.Seat == seat && isPenalty(e))
		}
		if penalised && !moved {
			b.broken[name]++
		}
	}
}

// err is nil when every agent played; otherwise an error with exit status
// ExitBroken naming the agents.
func (b *brokenTally) err() error {
	var names []string
	for n, g := range b.games {
		if g > 0 && b.broken[n] == g {
			names = append(names, fmt.Sprintf("%s (%d of %d games)", n, g, g))
		}
	}
	sort.Strings(names)
	var parts []string
	if len(b.refused) > 0 {
		parts = append(parts, "entered despite a failed pre-flight check: "+strings.Join(b.refused, ", "))
	}
	if len(names) > 0 {
		parts = append(parts, "failed in every game they played without making a move of their own: "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return nil
	}
	return &exitError{code: ExitBroken, msg: "the run finished, but some agents did not play: " + strings.Join(parts, "; ")}
}
