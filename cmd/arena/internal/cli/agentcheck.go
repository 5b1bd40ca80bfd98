package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"arena/agents/course"
	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/engine"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// defaultPreflightTimeout bounds the pre-flight check of one agent: start,
// handshake, opening a game, goodbye; the profile's start-up timeout when
// that is shorter. Short, so a hanging agent costs seconds once instead
// of a start-up timeout in every game; --allow-broken enters an agent that
// needs longer.
const defaultPreflightTimeout = 10 * time.Second

// checkAgent fails early, before any game starts, on an agent reference
// that cannot be started: an unknown name, a missing file, a script that
// does not compile, a course agent whose runtime or modules are missing.
// A reference that names no agent is a setup error; an agent found but
// unable to play is refused (agentRefusedError, exit status 3).
func (e *Env) checkAgent(ref, game string) error {
	if _, err := e.Launcher.Resolve(ref); err != nil {
		return err
	}
	for _, check := range e.Preflight {
		if err := check(ref); err != nil {
			return &agentRefusedError{fmt.Errorf("agent %s: %w", ref, err)}
		}
	}
	if err := (course.Preparer{Progress: e.Stderr}).CheckRef(context.Background(), ref, game); err != nil {
		return &agentRefusedError{fmt.Errorf("agent %s: %w", ref, err)}
	}
	return nil
}

// checkItem is one agent to check on one game.
type checkItem struct {
	label   string         // "agent NAME (REF)" for messages
	player  referee.Player // Ref is the reference the launcher starts
	game    engine.Game
	params  engine.Params
	profile engine.Profile
	hash    string // the agent's content hash; "" for a built-in
}

// checkFailure is an agent that failed its pre-flight check.
type checkFailure struct {
	item checkItem
	err  error
}

// preflightCheck starts every item's agent as a game would — process,
// handshake, StartGame on the game's start position (for a Lua script: its
// top level and init) — then says goodbye and stops it. The items run in
// parallel, each within the pre-flight deadline. It returns the failures
// in the items' order.
func (e *Env) preflightCheck(ctx context.Context, launch referee.Launcher, items []checkItem) []checkFailure {
	if len(items) == 0 {
		return nil
	}
	longest := time.Duration(0)
	for _, it := range items {
		longest = max(longest, e.preflightLimit(it))
	}
	// Starting agents takes a second or more each (a JVM, a Python
	// interpreter): say so up front, since nothing else is printed meanwhile.
	fmt.Fprintf(e.Stderr, "pre-flight check: starting %d agent(s) once each (handshake, opening a game; at most %v each)\n", len(items), longest)
	errs := make([]error, len(items))
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = checkOne(ctx, launch, it, e.preflightLimit(it))
		}()
	}
	wg.Wait()
	var out []checkFailure
	for i, err := range errs {
		if err != nil {
			out = append(out, checkFailure{items[i], err})
		}
	}
	return out
}

// preflightLimit is how long an item's agent may take to start and open a
// game: the game's own start-up allowance where its profile has one (a
// shorter limit would refuse, on a busy machine, an agent the game would
// let play; a longer one would pass an agent the game then fails), else
// the default; a limit set on the Env wins.
func (e *Env) preflightLimit(it checkItem) time.Duration {
	switch {
	case e.PreflightTimeout > 0:
		return e.PreflightTimeout
	case it.profile.StartupTimeout > 0:
		return it.profile.StartupTimeout
	}
	return defaultPreflightTimeout
}

func checkOne(ctx context.Context, launch referee.Launcher, it checkItem, timeout time.Duration) error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The memory rule the game would apply to this agent's runtime: a
	// course JVM or Python agent is held to its course's rule, not to the
	// resident limit of native agents (which refused a Cachex package
	// whose table its course allowed).
	mem := it.profile.MemoryFor(courseRuntime(it.player))
	h, err := launch(cctx, it.player, host.Options{StartTimeout: timeout, MemoryMB: mem.TreeMB})
	if err != nil {
		if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("did not complete the plugin handshake within %v (does it hang at start-up?): %w", timeout, err)
		}
		return err
	}
	defer h.Kill()
	p := it.profile
	err = h.Start(cctx, protocol.StartInfo{
		GameID:   "preflight-" + it.game.Info().Name,
		Game:     it.game.Info().Name,
		Params:   map[string]string(it.params),
		Seat:     0,
		Profile:  p.Name,
		Opponent: "preflight",
		Options:  startOptions(it.player.Options, mem.Options()),
		Seed:     1,
		Clock: protocol.Clock{
			Model: string(p.Time), MoveLimit: p.MoveLimit, FirstMoveLimit: p.FirstMoveLimit,
			Cushion: p.Cushion, Budget: p.Budget,
		},
	})
	if err != nil {
		msg := agentMessage(err)
		if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("did not open a game within %v (does its start, or its Lua init, hang?)", timeout)
		}
		if tail := lastLine(h.Stderr()); tail != "" && !strings.Contains(msg, tail) {
			msg += " (last stderr line: " + tail + ")"
		}
		return fmt.Errorf("failed to open a %s game: %s", it.game.Info().Name, msg)
	}
	ectx, ecancel := context.WithTimeout(ctx, time.Second)
	defer ecancel()
	_ = h.End(ectx, protocol.EndInfo{Winner: -1, Reason: "pre-flight check"})
	return nil
}

// agentMessage strips the gRPC wrapping from an error an agent returned.
func agentMessage(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "desc = "); ok {
		msg = rest
	}
	return msg
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// refusal turns pre-flight failures into the command's outcome: an error
// with exit status ExitBroken, or, with --allow-broken, a warning per
// agent on stderr and the labels of the agents entered anyway.
func (e *Env) refusal(ctx context.Context, fails []checkFailure, allowBroken bool) ([]string, error) {
	if err := ctx.Err(); err != nil {
		// Interrupted: the failures are the interruption's, not the agents'.
		return nil, fmt.Errorf("interrupted during the pre-flight check, before any game: %w", err)
	}
	if len(fails) == 0 {
		return nil, nil
	}
	var lines, labels []string
	for _, f := range fails {
		lines = append(lines, fmt.Sprintf("%s: %v", f.item.label, f.err))
		labels = append(labels, f.item.label)
	}
	if allowBroken {
		for _, l := range lines {
			fmt.Fprintf(e.Stderr, "warning: %s; entered anyway (--allow-broken)\n", l)
		}
		return labels, nil
	}
	return nil, &exitError{code: ExitBroken, msg: fmt.Sprintf("%d agent(s) failed the pre-flight check; no game was played:\n  %s\nfix them, or enter them anyway with --allow-broken (their games are then recorded as the course's penalties)",
		len(fails), strings.Join(lines, "\n  "))}
}

// leagueCheckItems lists every distinct agent of a league file, per game:
// the same launch reference with the same options on the same game is
// checked once.
func leagueCheckItems(s *leaguefile.Spec) []checkItem {
	seen := map[string]bool{}
	var out []checkItem
	for _, l := range s.Leagues {
		for _, a := range l.Agents {
			opts := make([]string, 0, len(a.Options))
			for k, v := range a.Options {
				opts = append(opts, k+"="+v)
			}
			sort.Strings(opts)
			key := l.Game.Info().Name + "|" + l.Params.String() + "|" + a.Launch + "|" + strings.Join(opts, "&")
			if seen[key] {
				continue
			}
			seen[key] = true
			label := fmt.Sprintf("agent %s (%s)", a.Name, a.Ref)
			if len(s.Leagues) > 1 {
				label = fmt.Sprintf("agent %s (%s) on %s", a.Name, a.Ref, l.Game.Info().Name)
			}
			out = append(out, checkItem{
				label:  label,
				player: referee.Player{Name: a.Name, Ref: a.Launch, Options: a.Options},
				game:   l.Game, params: l.Params, profile: l.Profile,
				hash: a.Hash,
			})
		}
	}
	return out
}

// startOptions are an agent's own options with the memory rule's added,
// as the referee opens a game with them.
func startOptions(own, rule map[string]string) map[string]string {
	if len(rule) == 0 {
		return own
	}
	out := maps.Clone(own)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, rule)
	return out
}
