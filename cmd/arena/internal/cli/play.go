package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"arena/agents/course"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/openings"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/engine"
)

type playOpts struct {
	games    int
	seed     string
	quiet    bool
	broken   bool
	params   []string
	sets     []string
	show     bool
	parallel int
	records  string
	isolate  string
	openings string
}

func newPlayCmd(e *Env) *cobra.Command {
	var o playOpts
	cmd := &cobra.Command{
		Use:   "play GAME AGENT1 AGENT2",
		Short: "Play a series of games between two agents and print the results",
		Long: `Play --games games of GAME between two agents under the game's course profile,
alternating who moves first, and print a result table: wins, draws and losses
per agent, average score, and penalties by kind.

Agents: builtin:NAME (or a bare built-in name), lua:PATH.lua, course:PATH (an
agent written for the game's course, run unmodified: docs/course-agents.md),
the path of an agent binary built with the arena SDK, or a Go agent's package
directory (built first), as for arena check and league files. Run "arena
games" for the games.

Before the first game every agent is started once, completes the handshake
and opens a game (a Lua script runs its top level and init); an agent that
fails is refused with the reason and nothing is played (exit status 3),
unless --allow-broken. Each penalty is printed when it happens.

` + exitTable,
		Example: `  arena play bohnenspiel random greedy --games 50 --seed 1
  arena play cachex random greedy --param n=7
  arena play pentago-twist random greedy --set move-limit=500ms --show
  arena play dots-and-boxes course:bots/bot.py greedy
  arena play pentago-twist random greedy --games 20 --openings openings.txt`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlay(cmd.Context(), e, cmd.OutOrStdout(), args[0], args[1], args[2], o)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.games, "games", "n", 10, "number of games (colours alternate)")
	f.StringVar(&o.seed, "seed", "1", "seed for the referee's random choices and the agents' seeds (a whole number from 0 to 2^64-1)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not print each penalty as it happens")
	f.BoolVar(&o.broken, "allow-broken", false, "enter agents that fail the pre-flight check anyway (their games record the course's penalties)")
	f.StringArrayVarP(&o.params, "param", "p", nil, "game parameter NAME=VALUE (repeatable), e.g. n=7")
	f.StringArrayVar(&o.sets, "set", nil, "override a profile setting NAME=VALUE (repeatable): "+strings.Join(engine.ProfileSettings(), ", "))
	f.BoolVar(&o.show, "show", false, "print the final board of each game")
	f.IntVar(&o.parallel, "parallel", 0, "games played at once (default: half the cores, at least 1)")
	f.StringVar(&o.records, "records", "", "append each game's full record as a JSON line to this file")
	f.StringVar(&o.isolate, "isolation", "auto", "agent sandboxes: auto, required or off (docs/security.md)")
	f.StringVar(&o.openings, "openings", "", "a file of openings, one per line, moves separated by \";\" (docs/leagues.md, Opening suites): games 1 and 2 start from the first, with colours swapped, games 3 and 4 from the second, and so on round the suite")
	return cmd
}

func parseKV(items []string, what string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", what, it)
		}
		out[k] = v
	}
	return out, nil
}

// playerNames gives each side a display name, telling apart two copies of
// the same agent.
func playerNames(a, b string) [2]string {
	n := [2]string{displayName(a), displayName(b)}
	if n[0] == n[1] {
		n[0] += "#1"
		n[1] += "#2"
	}
	return n
}

// courseRuntime tells a course agent's runtime, for the profile's memory
// rule.
func courseRuntime(p referee.Player) engine.Runtime { return course.Runtime(p.Ref) }

// displayName is an agent reference shortened for people: the last
// element of its path, without the options of a reference that has one
// ("course:/x/c424b?class=a.B" is "c424b"). A built-in's options stay, as
// they are what tells two built-ins apart ("baseline?depth=3").
func displayName(ref string) string {
	if name, ok := strings.CutPrefix(ref, "builtin:"); ok {
		return name
	}
	ref, _, _ = strings.Cut(ref, "?")
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		ref = ref[i+1:]
	}
	return ref
}

// matchSetup checks what play and check share: the game, the number of
// games, the seed, the game's parameters and the profile with the --set
// overrides applied (printed by the caller, never silent).
func (e *Env) matchSetup(game string, games int, seedText string, paramArgs, sets []string) (engine.Game, uint64, engine.Params, engine.Profile, []engine.Override, error) {
	g, err := e.Registry.Lookup(game)
	if err != nil {
		return nil, 0, nil, engine.Profile{}, nil, err
	}
	if games < 1 {
		return nil, 0, nil, engine.Profile{}, nil, fmt.Errorf("--games must be at least 1")
	}
	seed, err := leaguefile.ParseSeed(seedText)
	if err != nil {
		return nil, 0, nil, engine.Profile{}, nil, fmt.Errorf("--%w", err)
	}
	kv, err := parseKV(paramArgs, "--param")
	if err != nil {
		return nil, 0, nil, engine.Profile{}, nil, err
	}
	params := engine.Params(kv)
	if _, err := g.NewState(params); err != nil {
		return nil, 0, nil, engine.Profile{}, nil, err
	}
	prof, err := g.Profile(params)
	if err != nil {
		return nil, 0, nil, engine.Profile{}, nil, err
	}
	var overrides []engine.Override
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return nil, 0, nil, engine.Profile{}, nil, fmt.Errorf("--set %q: want NAME=VALUE", s)
		}
		ov, err := prof.Apply(k, v)
		if err == nil {
			err = leaguefile.CheckDuration(ov)
		}
		if err != nil {
			return nil, 0, nil, engine.Profile{}, nil, err
		}
		overrides = append(overrides, ov)
	}
	return g, seed, params, prof, overrides, nil
}

// playAgents readies play's two agents before the first game: a Go
// package directory is built, every reference checked, and each agent
// started once (the pre-flight check), so one that cannot play is refused
// with its reason instead of forfeiting every game. It returns the
// references to launch and, with --allow-broken, the agents refused.
func (e *Env) playAgents(ctx context.Context, launch referee.Launcher, g engine.Game, params engine.Params, prof engine.Profile,
	names, given [2]string, allowBroken bool) ([2]string, []string, error) {
	var refs [2]string
	distinct := 2
	if given[1] == given[0] {
		distinct = 1
	}
	var items []checkItem
	for i := range distinct {
		var err error
		if refs[i], err = e.launchRef(ctx, given[i]); err != nil {
			return refs, nil, err
		}
		if err := e.checkAgent(refs[i], g.Info().Name); err != nil {
			return refs, nil, err
		}
		items = append(items, checkItem{label: fmt.Sprintf("agent %s (%s)", names[i], given[i]), player: referee.Player{Name: names[i], Ref: refs[i]},
			game: g, params: params, profile: prof})
	}
	if distinct == 1 {
		refs[1] = refs[0]
	}
	refused, err := e.refusal(ctx, e.preflightCheck(ctx, launch, items), allowBroken)
	return refs, refused, err
}

func runPlay(ctx context.Context, e *Env, out io.Writer, gameName, refA, refB string, o playOpts) error {
	g, seed, params, prof, overrides, err := e.matchSetup(gameName, o.games, o.seed, o.params, o.sets)
	if err != nil {
		return err
	}
	if err := prof.Validate(); err != nil {
		return err
	}
	e.Launcher.Isolation = o.isolate
	if err := e.Launcher.Check(); err != nil {
		return fmt.Errorf("--isolation: %w", err)
	}
	// A bad suite is refused before any agent is started.
	var suite *openings.Suite
	if o.openings != "" {
		if suite, err = openings.ReadFile(o.openings, g, params); err != nil {
			return fmt.Errorf("--openings: %w", err)
		}
	}
	names := playerNames(refA, refB)
	launch := referee.HostLauncher(e.Launcher)
	refs, refused, err := e.playAgents(ctx, launch, g, params, prof, names, [2]string{refA, refB}, o.broken)
	if err != nil {
		return err
	}
	printPlayHeader(out, g, prof, params, o.games, seed, overrides)
	if line := suite.Line(); line != "" {
		fmt.Fprintln(out, line)
	}

	var recFile *os.File
	if o.records != "" {
		recFile, err = os.OpenFile(o.records, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("open records file: %w", err)
		}
		defer recFile.Close()
	}

	prog := newLeagueProgress(e.Stderr, e.IsTerminal())
	notes := prog.wrap(out)
	plog := newPenaltyLog(notes, o.quiet, o.records)
	ref := &referee.Referee{Launch: launch, OnEvent: plog.onEvent, Runtime: courseRuntime}
	parallel := o.parallel
	if parallel <= 0 {
		parallel = max(1, runtime.NumCPU()/2)
	}
	results := playSeries(ctx, ref, parallel, o.games, playMatches(g, params, prof, overrides, names, refs, seed, suite))

	tally := newTally(names, g.Info().HasScores)
	prog.start(o.games, 0)
	broken := newBrokenTally()
	broken.refused = refused
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		tally.add(r.rec)
		plog.gameOver(r.rec)
		broken.add(r.rec)
		if recFile != nil {
			line, err := r.rec.MarshalLine()
			if err == nil {
				_, err = recFile.Write(line)
			}
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("write record: %w", err)
			}
		}
		prog.game(league.Progress{League: g.Info().Name, Done: tally.games, Total: o.games, Leader: tally.leader()})
		if o.show {
			fmt.Fprintf(notes, "game %d: %s vs %s: %s\n%s\n", r.i+1, r.rec.Agents[0].Name, r.rec.Agents[1].Name, r.rec.Summary(), showBoard(g, params, r.rec))
		}
	}
	prog.finish()
	plog.finish()
	if err := ctx.Err(); err != nil {
		tally.print(out)
		return fmt.Errorf("interrupted after %d games: %w", tally.games, err)
	}
	if firstErr != nil {
		return firstErr
	}
	tally.print(out)
	switch {
	case o.records != "":
		fmt.Fprintf(out, "full records in %s: `arena replay %s --game ID` shows a game's moves, penalties and the agents' stderr\n", o.records, o.records)
	case plog.any():
		fmt.Fprintln(out, "penalties are listed above; --records FILE keeps every game's full record (moves, penalties, agents' stderr) for arena replay")
	}
	return broken.err()
}

// playMatches makes play's i-th game: colours alternate, agent B moving
// first in odd games; with a suite, each pair of games starts from the
// suite's next opening.
func playMatches(g engine.Game, params engine.Params, prof engine.Profile, overrides []engine.Override, names, refs [2]string, seed uint64, suite *openings.Suite) func(int) referee.Match {
	return func(i int) referee.Match {
		a, b := i%2, 1-i%2
		var opening *record.Opening
		if n := suite.Len(); n > 0 {
			k := (i / 2) % n
			opening = &record.Opening{Index: k, Moves: suite.Openings[k].Moves}
		}
		return referee.Match{
			Opening:   opening,
			ID:        fmt.Sprintf("play-%s-s%d-g%d", g.Info().Name, seed, i),
			Game:      g,
			Params:    params,
			Profile:   prof.Clone(),
			Overrides: overrides,
			Players: [2]referee.Player{
				{Name: names[a], Ref: refs[a]},
				{Name: names[b], Ref: refs[b]},
			},
			Seed: seed*1_000_003 + uint64(i),
		}
	}
}

// printPlayHeader says what play is about to play, overrides included.
func printPlayHeader(out io.Writer, g engine.Game, prof engine.Profile, params engine.Params, games int, seed uint64, overrides []engine.Override) {
	fmt.Fprintf(out, "%s, profile %s", g.Info().Name, prof.Name)
	if len(params) > 0 {
		fmt.Fprintf(out, ", params %s", params)
	}
	fmt.Fprintf(out, ", %d games, seed %d\n", games, seed)
	for _, ov := range overrides {
		fmt.Fprintf(out, "override %s\n", ov)
	}
}

// playedGame is one finished game of a series: its index, its record or
// why it could not be played.
type playedGame struct {
	i   int
	rec *record.Game
	err error
}

// playSeries plays games 0..n-1, match(i) each, parallel at a time, and
// delivers them as they finish; the channel closes when all are done or
// ctx is cancelled.
func playSeries(ctx context.Context, ref *referee.Referee, parallel, n int, match func(i int) referee.Match) <-chan playedGame {
	jobs := make(chan int)
	results := make(chan playedGame)
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, err := ref.Play(ctx, match(i))
				results <- playedGame{i, rec, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// tally accumulates results per agent.
type tally struct {
	names     [2]string
	hasScores bool
	games     int
	rows      map[string]*row
}

type row struct {
	games, w, d, l int
	score          int
	penalties      map[string]int
}

func newTally(names [2]string, hasScores bool) *tally {
	t := &tally{names: names, hasScores: hasScores, rows: map[string]*row{}}
	for _, n := range names {
		t.rows[n] = &row{penalties: map[string]int{}}
	}
	return t
}

func (t *tally) add(g *record.Game) {
	t.games++
	for seat := range 2 {
		r := t.rows[g.Agents[seat].Name]
		r.games++
		switch {
		case g.Result.Draw:
			r.d++
		case g.Result.Winner == seat:
			r.w++
		default:
			r.l++
		}
		if len(g.Result.Scores) == 2 {
			r.score += g.Result.Scores[seat]
		}
		for k, v := range g.Penalties(seat) {
			r.penalties[k] += v
		}
	}
}

// leader names the agent with the most points, as "name points/games".
func (t *tally) leader() string {
	best, bestPts := t.names[0], -1.0
	for _, n := range t.names {
		r := t.rows[n]
		if pts := float64(r.w) + 0.5*float64(r.d); pts > bestPts {
			best, bestPts = n, pts
		}
	}
	return fmt.Sprintf("%s %g/%d", best, bestPts, t.rows[best].games)
}

func (t *tally) print(out io.Writer) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	hdr := "AGENT\tGAMES\tW\tD\tL\tPOINTS"
	if t.hasScores {
		hdr += "\tAVG SCORE"
	}
	fmt.Fprintln(w, hdr+"\tPENALTIES")
	for _, n := range t.names {
		r := t.rows[n]
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.1f", n, r.games, r.w, r.d, r.l, float64(r.w)+0.5*float64(r.d))
		if t.hasScores {
			avg := 0.0
			if r.games > 0 {
				avg = float64(r.score) / float64(r.games)
			}
			fmt.Fprintf(w, "\t%.2f", avg)
		}
		fmt.Fprintf(w, "\t%s\n", penaltyText(r.penalties))
	}
	w.Flush()
}

func penaltyText(p map[string]int) string {
	if len(p) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, p[k]))
	}
	return strings.Join(parts, " ")
}

// showBoard draws a game's final position: the game's own drawing where it
// has one, else its canonical text laid out on lines.
func showBoard(g engine.Game, params engine.Params, rec *record.Game) string {
	if st, err := g.NewState(params); err == nil && engine.Replay(st, rec.History()) == nil {
		if d, ok := st.(engine.Drawer); ok {
			return d.Draw()
		}
	}
	return drawBoard(g.Info().Name, rec.Final)
}

// drawBoard lays the canonical board text out on lines for reading.
func drawBoard(game, text string) string {
	switch {
	case strings.Contains(text, "/"):
		rows := strings.Split(text, "/")
		if game == "cachex" {
			// Row 0 is the bottom row; print the top first, each row shifted
			// as on the hex rhombus.
			var b strings.Builder
			for i := len(rows) - 1; i >= 0; i-- {
				b.WriteString(strings.Repeat(" ", i))
				b.WriteString(strings.Join(strings.Split(rows[i], ""), " "))
				b.WriteByte('\n')
			}
			return strings.TrimRight(b.String(), "\n")
		}
		if game == "hex-crossout" {
			for i := range rows {
				if i%2 == 1 {
					rows[i] = " " + strings.Join(strings.Split(rows[i], ""), " ")
				} else {
					rows[i] = strings.Join(strings.Split(rows[i], ""), " ")
				}
			}
		}
		return strings.Join(rows, "\n")
	case strings.Contains(text, "|"):
		return strings.ReplaceAll(text, "|", "\n")
	case len(text) == 36:
		var rows []string
		for i := 0; i < 36; i += 6 {
			rows = append(rows, strings.Join(strings.Split(text[i:i+6], ""), " "))
		}
		return strings.Join(rows, "\n")
	}
	if text == "" {
		return "(no board text)"
	}
	return text
}
