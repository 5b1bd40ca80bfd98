package builtin

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"arena/agents/housebots"
	"arena/agents/housebots/bohnenspiel"
	"arena/agents/housebots/cachex"
	"arena/agents/housebots/dotsboxes"
	"arena/agents/housebots/hexcrossout"
	"arena/agents/housebots/pentagotwist"
	"arena/plugins/agentapi"
)

// HouseBot is one per-game implementation of a house bot.
type HouseBot struct {
	Doc     string // what it does and where the idea comes from
	Options []housebots.OptionDoc
	New     func(o housebots.Options, seed uint64) (agentapi.Agent, error)
}

// House lists the house bots that have a method per game: bot name, then
// game name.
func House() map[string]map[string]HouseBot {
	return map[string]map[string]HouseBot{
		"baseline": {
			"bohnenspiel":    {bohnenspiel.BaselineDoc, bohnenspiel.BaselineOptions, bohnenspiel.Baseline},
			"cachex":         {cachex.BaselineDoc, cachex.BaselineOptions, cachex.Baseline},
			"dots-and-boxes": {dotsboxes.BaselineDoc, dotsboxes.BaselineOptions, dotsboxes.Baseline},
			"hex-crossout":   {hexcrossout.BaselineDoc, hexcrossout.BaselineOptions, hexcrossout.Baseline},
			"pentago-twist":  {pentagotwist.BaselineDoc, pentagotwist.BaselineOptions, pentagotwist.Baseline},
		},
		"strong": {
			"bohnenspiel":    {bohnenspiel.StrongDoc, bohnenspiel.StrongOptions, bohnenspiel.Strong},
			"cachex":         {cachex.StrongDoc, cachex.StrongOptions, cachex.Strong},
			"dots-and-boxes": {dotsboxes.StrongDoc, dotsboxes.StrongOptions, dotsboxes.Strong},
			"hex-crossout":   {hexcrossout.StrongDoc, hexcrossout.StrongOptions, hexcrossout.Strong},
			"pentago-twist":  {pentagotwist.StrongDoc, pentagotwist.StrongOptions, pentagotwist.Strong},
		},
	}
}

// HouseSummary is the one-line description of each house bot.
var HouseSummary = map[string]string{
	"baseline": "the course report's own agent for the game, rebuilt",
	"strong":   "the strongest house bot: search plus game knowledge",
}

// splitRef separates "NAME?k=v&k2=v2" into the name and its options.
func splitRef(ref string) (string, housebots.Options, error) {
	name, query, _ := strings.Cut(ref, "?")
	opts := housebots.Options{}
	if query == "" {
		return name, opts, nil
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return "", nil, fmt.Errorf("agent builtin:%s: options: %w", ref, err)
	}
	for k, vs := range q {
		if k == "" {
			return "", nil, fmt.Errorf("agent builtin:%s: an option with an empty name", ref)
		}
		opts[k] = vs[len(vs)-1]
	}
	return name, opts, nil
}

// house is a house bot before it knows its game: Start picks the game's
// implementation.
type house struct {
	name string
	opts housebots.Options
	impl agentapi.Agent
}

// newHouse checks the options against every game's implementation, so a
// misspelt option fails before any game starts.
func newHouse(name string, opts housebots.Options) (*house, error) {
	impls := House()[name]
	var known []housebots.OptionDoc
	for _, hb := range impls {
		known = append(known, hb.Options...)
	}
	if err := opts.Check("builtin:"+name, known); err != nil {
		return nil, err
	}
	return &house{name: name, opts: opts}, nil
}

func (h *house) Describe() agentapi.Description {
	var games []string
	for g := range House()[h.name] {
		games = append(games, g)
	}
	sort.Strings(games)
	return agentapi.Description{Name: h.name, Description: HouseSummary[h.name], Games: games}
}

// Start builds the game's implementation with the reference's options,
// overridden by the league's.
func (h *house) Start(ctx context.Context, g agentapi.Game) error {
	hb, ok := House()[h.name][g.Game]
	if !ok {
		return fmt.Errorf("builtin:%s has no method for game %s", h.name, g.Game)
	}
	opts := housebots.Options{}
	for k, v := range h.opts {
		opts[k] = v
	}
	for k, v := range g.Options {
		opts[k] = v
	}
	a, err := hb.New(opts, g.Seed)
	if err != nil {
		return fmt.Errorf("builtin:%s for %s: %w", h.name, g.Game, err)
	}
	h.impl = a
	if s, ok := a.(agentapi.Starter); ok {
		return s.Start(ctx, g)
	}
	return nil
}

func (h *house) Move(ctx context.Context, t agentapi.Turn) (string, error) {
	if h.impl == nil {
		return "", fmt.Errorf("builtin:%s: move requested before the game started", h.name)
	}
	return h.impl.Move(ctx, t)
}

func (h *house) Observe(ctx context.Context, seat int, move string, ply int) error {
	if o, ok := h.impl.(agentapi.Observer); ok {
		return o.Observe(ctx, seat, move, ply)
	}
	return nil
}

// CheckRef is the arena's preflight for built-in references with options:
// an unknown option or a bad value fails before any game starts. Other
// references pass.
func CheckRef(ref string) error {
	rest, ok := strings.CutPrefix(ref, "builtin:")
	if !ok || !strings.Contains(rest, "?") {
		return nil
	}
	name, opts, err := splitRef(rest)
	if err != nil {
		return err
	}
	impls, ok := House()[name]
	if !ok {
		return fmt.Errorf("built-in agent %q takes no options", name)
	}
	if _, err := newHouse(name, opts); err != nil {
		return err
	}
	// Values are checked by building every game's implementation.
	for game, hb := range impls {
		if _, err := hb.New(opts, 0); err != nil && !strings.Contains(err.Error(), "unknown option") {
			return fmt.Errorf("%s: %w", game, err)
		}
	}
	return nil
}
