// Package housebots holds what every per-game house bot shares: options
// from the agent reference ("builtin:strong?time=0.5&threads=2"), the
// search budget they imply, and the bot catalogue entry type. The bots
// themselves live in one subpackage per game.
package housebots

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"arena/plugins/agentapi"
	"arena/plugins/sdk/search"
)

// Options are a bot's key=value settings.
type Options map[string]string

// OptionDoc documents one option.
type OptionDoc struct {
	Key, Default, Doc string
}

// Common are the options every house bot reads.
var Common = []OptionDoc{
	{"time", "0.5", "fraction of each per-move limit to think (whole-game CPU budgets are shared over the moves left)"},
	{"threads", "1", "search goroutines where the profile counts wall time (per-move limits); CPU budgets always use 1"},
}

// Check rejects keys that are not in docs or Common, naming the known ones.
func (o Options) Check(bot string, docs []OptionDoc) error {
	known := map[string]bool{}
	var names []string
	for _, d := range append(append([]OptionDoc{}, Common...), docs...) {
		known[d.Key] = true
		names = append(names, d.Key)
	}
	var bad []string
	for k := range o {
		if !known[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		sort.Strings(names)
		return fmt.Errorf("%s: unknown option(s) %s (known: %s)", bot, strings.Join(bad, ", "), strings.Join(names, ", "))
	}
	return nil
}

// Float reads a number option within [lo, hi].
func (o Options) Float(key string, def, lo, hi float64) (float64, error) {
	v, ok := o[key]
	if !ok || v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < lo || f > hi {
		return 0, fmt.Errorf("option %s=%q: want a number in [%g, %g]", key, v, lo, hi)
	}
	return f, nil
}

// Int reads a whole-number option within [lo, hi].
func (o Options) Int(key string, def, lo, hi int) (int, error) {
	v, ok := o[key]
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("option %s=%q: want a whole number in [%d, %d]", key, v, lo, hi)
	}
	return n, nil
}

// Choice reads an option that must be one of allowed (the first is the
// default).
func (o Options) Choice(key string, allowed ...string) (string, error) {
	v, ok := o[key]
	if !ok || v == "" {
		return allowed[0], nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", fmt.Errorf("option %s=%q: want one of %s", key, v, strings.Join(allowed, ", "))
}

// Clock is how a bot spends the referee's time.
type Clock struct {
	Fraction float64
	Threads  int
}

// Clock checks a bot's options against docs (Check) and reads the common
// ones: what every house bot's constructor does first.
func (o Options) Clock(bot string, docs []OptionDoc) (Clock, error) {
	if err := o.Check(bot, docs); err != nil {
		return Clock{}, err
	}
	return o.ReadClock()
}

// ReadClock reads the common options.
func (o Options) ReadClock() (Clock, error) {
	f, err := o.Float("time", 0.5, 0.01, 0.9)
	if err != nil {
		return Clock{}, err
	}
	th, err := o.Int("threads", 1, 1, 64)
	if err != nil {
		return Clock{}, err
	}
	return Clock{Fraction: f, Threads: th}, nil
}

// Limits are the search limits for this turn; movesLeft estimates the
// bot's own remaining moves for whole-game budgets. A first-move
// allowance (30 s where ordinary moves get 2 s) is used only up to twice
// an ordinary move: the opening position gains little from it.
func (c Clock) Limits(t agentapi.Turn, movesLeft int) search.Limits {
	l := c.FullLimits(t, movesLeft)
	if ml := t.Game.Clock.MoveLimit; t.Game.Clock.Model == "per-move" && ml > 0 && t.TimeLeft > 2*ml {
		l = Cap(l, time.Duration(float64(2*ml)*c.Fraction))
	}
	return l
}

// FullLimits are Limits without the first-move cap.
func (c Clock) FullLimits(t agentapi.Turn, movesLeft int) search.Limits {
	return search.ForTurn(t, search.Budget{Fraction: c.Fraction, MovesLeft: movesLeft})
}

// ThreadsFor is the goroutine count for this game: one where the referee
// measures CPU time, where extra goroutines would only burn the budget.
func (c Clock) ThreadsFor(g agentapi.Game) int {
	if g.Clock.Model == "cpu-budget" {
		return 1
	}
	return c.Threads
}

// Rand is a bot's generator for one game.
func Rand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x243f6a8885a308d3))
}

// Format writes a move chosen on st, or an error naming the ply.
func Format(t agentapi.Turn, r search.Result) (string, error) {
	if !r.OK {
		return "", fmt.Errorf("no legal move at ply %d", t.Ply)
	}
	return t.State.FormatMove(r.Move), nil
}

// Cap shortens limits to at most d from now.
func Cap(l search.Limits, d time.Duration) search.Limits {
	if end := time.Now().Add(d); l.Deadline.IsZero() || l.Deadline.After(end) {
		l.Deadline = end
		if l.Soft.After(end) {
			l.Soft = time.Time{}
		}
	}
	return l
}

// Opt is shorthand for an OptionDoc.
func Opt(key, def, doc string) OptionDoc { return OptionDoc{Key: key, Default: def, Doc: doc} }
