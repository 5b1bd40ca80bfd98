// Package leaguefile reads and checks a league file: viper (YAML, TOML or
// JSON, strict keys, ARENA_* environment variables and flags on top of
// embedded defaults), entrants from a folder of submissions, agents
// resolved and hashed, the profile with its overrides, the opening suite
// and the tournament format, into leagues whose matches (deterministic
// ids and seeds, colour-swapped pairs) the runner plays.
package leaguefile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"arena/agents/course/courseref"
	"arena/arena/entrants"
	"arena/arena/league/format"
	"arena/arena/openings"
	"arena/arena/ratings"
	"arena/arena/slots"
	"arena/engine"
)

// Bounds of a league file's counts: a league beyond them is a typo, and
// would make the arena plan millions of games before the first one.
const (
	MaxGamesPerPairing = 100_000
	MaxConcurrency     = 1024
	MaxMachineReplays  = 10
)

// MaxDurations bound each duration a league file's overrides or the
// command line's --set may give a profile: a slip of units (700s for
// 700ms) or a huge number is refused at once, naming the bound, instead
// of holding a league for days (docs/leagues.md).
var MaxDurations = map[string]time.Duration{
	"move-limit":       time.Hour,
	"first-move-limit": time.Hour,
	"cushion":          time.Minute,
	"budget":           24 * time.Hour,
	"budget-grace":     time.Hour,
	"startup-timeout":  10 * time.Minute,
}

// CheckDuration refuses an override of a duration setting over its
// maximum (MaxDurations); other settings pass.
func CheckDuration(o engine.Override) error {
	limit, ok := MaxDurations[o.Setting]
	if !ok {
		return nil
	}
	if d, err := time.ParseDuration(o.To); err == nil && d > limit {
		return fmt.Errorf("%s %v: at most %v", o.Setting, d, limit)
	}
	return nil
}

// Formats of a league.
const (
	RoundRobin = "round-robin"
	Gauntlet   = "gauntlet"
	AB         = "ab"
	Swiss      = "swiss"
	Knockout   = "knockout"
)

// Formats lists the formats a league file may name.
var Formats = []string{RoundRobin, Gauntlet, AB, Swiss, Knockout}

// SPRT models.
const (
	Pentanomial = "pentanomial"
	Trinomial   = "trinomial"
)

// Agent kinds.
const (
	KindBuiltin = "builtin"
	KindLua     = "lua"
	KindBinary  = "binary"
	KindCourse  = "course" // a course agent run by its course's adapter
	KindGo      = "go"     // a Go package directory, built on demand
)

// Spec is a checked league file, ready to schedule and run.
type Spec struct {
	File   string // the league file
	Config Config // the effective configuration
	Output string // the league directory (absolute)
	// OutputExplicit is set when the directory was named by a flag, an
	// environment variable or --set, not by the file or the default: the
	// caller chose it on purpose, so another league may share it.
	OutputExplicit bool
	// Warnings are problems that do not stop the run (an ARENA_ variable
	// that names no key), for the caller to print.
	Warnings []string
	CacheDir string // where Go package agents are built (absolute)
	Leagues  []*League
	// Machine is the CPU slots the run plans for: the affinity mask capped
	// by GOMAXPROCS, the cgroup quota and Options.Cores (--cores).
	Machine slots.Machine
	// Entrants are the agents that came from entrants (a folder of
	// submissions), with how each was classified; Refused are the
	// submissions left out, each with its reason and fix, for the caller to
	// print and write beside the results.
	Entrants []entrants.Entrant
	// EntrantsRoot is the folder entrants come from (for a glob, its
	// folder before the first pattern character); "" without entrants.
	// A stored entrant whose reference is under it and that is no longer
	// found was withdrawn.
	EntrantsRoot string
	Refused      []entrants.Refusal
}

// League is one game's league within a Spec.
type League struct {
	Name            string
	Game            engine.Game
	Params          engine.Params
	Profile         engine.Profile // with the overrides applied
	Overrides       []engine.Override
	Agents          []*Agent
	Format          string
	Challenger      string
	GamesPerPairing int
	Seed            uint64
	SPRT            SPRTConfig
	// Rounds, TiebreakPairs and Qualifier configure swiss and knockout.
	Rounds        int
	TiebreakPairs int
	Qualifier     QualifierConfig
	// Tournament decides the games (package format).
	Tournament format.Format
	// Openings are the start positions games are played from (nil: the
	// game's own start); OpeningOf says which a match plays.
	Openings *openings.Suite
	// Concurrency is the number of games played at once; ConcurrencyWhy
	// says how it was chosen.
	Concurrency    int
	ConcurrencyWhy string
	Config         string // the effective configuration of this league, canonical JSON
	Hash           string // sha256 of Config
}

// Agent is one resolved entrant.
type Agent struct {
	Name    string
	Ref     string // as written in the league file, "{game}" replaced
	Kind    string // builtin, lua, binary or go
	Launch  string // what the launcher starts: absolute paths; the built binary for go
	Path    string // the script, binary or package directory on disk
	Options map[string]string
	Hash    string // content hash of the script or binary ("" for built-ins)
	// Source is the submission the agent came from (entrants.dir or glob);
	// empty for the file's agents. A submission that fails a check before
	// play is left out; a listed agent refuses the run.
	Source string
}

// Options for Load.
type Options struct {
	Registry *engine.Registry
	Sources  Sources
	// CheckAgent vets a launchable agent reference before any game (known
	// built-in, Lua script compiles, course agent's runtime present) for
	// the game it will play; nil accepts every reference.
	CheckAgent func(ref, game string) error
	// Cores caps the CPU slots concurrency is planned for (--cores); 0
	// means every slot the process may use (slots.Detect).
	Cores int
	// Exclude leaves out the entrants of these names, refused for the
	// given reasons (a failed build or pre-flight check, found by Run).
	Exclude map[string]entrants.Refusal
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+#-]*$`)

// Load reads, checks and resolves a league file. Every error names the file
// (or the environment variable or flag the value came from) and the key.
// An entrant from a folder that CheckAgent refuses is left out, into
// Spec.Refused, and the league loaded again without it.
func Load(file string, opt Options) (*Spec, error) {
	for {
		s, err := load(file, opt)
		var er *entrantRefusedError
		if !errors.As(err, &er) {
			return s, err
		}
		opt.Exclude = withRefusal(opt.Exclude, er.refusal)
	}
}

func load(file string, opt Options) (*Spec, error) {
	if opt.Registry == nil {
		return nil, fmt.Errorf("league %s: no game registry", file)
	}
	ld, c, err := readConfig(file, opt.Sources)
	if err != nil {
		return nil, err
	}
	baseDir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("league %s: %w", file, err)
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if !nameRE.MatchString(c.Name) {
		return nil, ld.errorf("name", "%q: use letters, digits and . _ + # - (it names the league's matches and directory)", c.Name)
	}
	s := &Spec{File: file, Config: c}
	if !opt.Sources.NoEnv {
		s.Warnings = EnvWarnings()
	}

	if err := s.resolveDirs(ld, c, baseDir); err != nil {
		return nil, err
	}
	ld.openingsCache = filepath.Join(s.CacheDir, "openings")
	if err := checkKeys(ld, c); err != nil {
		return nil, err
	}

	entries, err := gameEntries(ld, c, opt.Registry)
	if err != nil {
		return nil, err
	}

	if err := s.addEntrants(ld, &c, baseDir, opt.Exclude); err != nil {
		return nil, err
	}
	s.Config = c
	if err := checkAgents(ld, c); err != nil {
		return nil, err
	}

	mach, err := slots.Detect(opt.Cores)
	if err != nil {
		return nil, err
	}
	s.Machine = mach
	cores := mach.N
	leagueNames := map[string]string{}
	checked := map[string]error{}
	for _, e := range entries {
		l, err := loadLeague(ld, c, e.GameConfig, e.key, len(entries) > 1, opt, baseDir, cores, checked)
		if err != nil {
			return nil, err
		}
		if prev, dup := leagueNames[l.Name]; dup {
			return nil, ld.errorf(e.key+"name", "league %q is also %s: give the entries distinct names", l.Name, prev)
		}
		leagueNames[l.Name] = e.key + "game"
		s.Leagues = append(s.Leagues, l)
	}
	for i, a := range c.Agents {
		for j, g := range a.Games {
			found := false
			for _, e := range entries {
				if g == e.Game || (e.Name != "" && g == e.Name) {
					found = true
				}
			}
			if !found {
				return nil, ld.errorf(fmt.Sprintf("agents[%d].games[%d]", i, j), "%q is not a game of this file", g)
			}
		}
	}
	return s, nil
}

// Hashed is the part of the configuration that decides which games are
// played and how: a resume with a different hash would mix leagues. It is
// stored as the league's configuration (League.Config), which standings
// and a later run read back.
type Hashed struct {
	League          string            `json:"league"`
	Game            string            `json:"game"`
	Params          map[string]string `json:"params"`
	Profile         string            `json:"profile"`
	Overrides       []string          `json:"overrides"`
	Agents          []HashedAgent     `json:"agents"`
	Format          string            `json:"format"`
	Challenger      string            `json:"challenger,omitempty"`
	GamesPerPairing int               `json:"games_per_pairing"`
	Seed            uint64            `json:"seed"`
	SPRT            *SPRTConfig       `json:"sprt,omitempty"`
	// Stages are set for swiss and knockout only, so the hashes of
	// leagues of the other formats stay as they were.
	Rounds        int              `json:"rounds,omitempty"`
	TiebreakPairs *int             `json:"tiebreak_pairs,omitempty"`
	Qualifier     *QualifierConfig `json:"qualifier,omitempty"`
	// Openings is set only with a suite, so other leagues' hashes stay.
	Openings *HashedOpenings `json:"openings,omitempty"`
}

// HashedAgent is one entrant as the hash sees it.
type HashedAgent struct {
	Name    string            `json:"name"`
	Agent   string            `json:"agent"`
	Options map[string]string `json:"options,omitempty"`
}

func loadLeague(ld *loader, c Config, gc GameConfig, key string, multi bool, opt Options, baseDir string, cores int, checked map[string]error) (*League, error) {
	g, err := opt.Registry.Lookup(gc.Game)
	if err != nil {
		return nil, ld.errorf(key+"game", "%v", err)
	}
	gname := g.Info().Name
	params := engine.Params{}
	for k, v := range gc.Params {
		params[k] = v
	}
	if _, err := g.NewState(params); err != nil {
		return nil, ld.errorf(key+"params", "%v", err)
	}
	prof, err := g.Profile(params)
	if err != nil {
		return nil, ld.errorf(key+"params", "%v", err)
	}
	if gc.Profile != "" && gc.Profile != prof.Name {
		return nil, ld.errorf(key+"profile", "%q: game %s is played under its course profile %q", gc.Profile, gname, prof.Name)
	}
	prof, overrides, err := applyOverrides(ld, g, params, prof, gc, key)
	if err != nil {
		return nil, err
	}

	name := c.Name
	if multi {
		sub := gc.Name
		if sub == "" {
			sub = gname
		}
		if !nameRE.MatchString(sub) {
			return nil, ld.errorf(key+"name", "%q: use letters, digits and . _ + # -", sub)
		}
		name += "/" + sub
	}
	l := &League{
		Name: name, Game: g, Params: params, Profile: prof, Overrides: overrides,
		Format: c.Format, Challenger: c.Challenger, GamesPerPairing: c.GamesPerPairing, Seed: c.Seed, SPRT: c.SPRT,
	}
	h := Hashed{
		League: name, Game: gname, Params: map[string]string(params), Profile: prof.Name,
		Format: c.Format, Challenger: c.Challenger, GamesPerPairing: c.GamesPerPairing, Seed: c.Seed,
	}
	for _, o := range overrides {
		h.Overrides = append(h.Overrides, o.String())
	}
	if c.Format == AB {
		sp := c.SPRT
		h.SPRT = &sp
	}
	if err := l.addAgents(ld, c, gc, &h, opt, baseDir, checked); err != nil {
		return nil, err
	}
	if len(l.Agents) < 2 {
		return nil, ld.errorf("agents", "league %s has %d agent(s) for game %s: it needs at least 2", name, len(l.Agents), gname)
	}
	switch c.Format {
	case AB:
		if len(l.Agents) != 2 {
			return nil, ld.errorf("agents", "format ab plays exactly 2 agents; league %s has %d", name, len(l.Agents))
		}
	case Gauntlet:
		found := false
		for _, a := range l.Agents {
			found = found || a.Name == c.Challenger
		}
		if !found {
			return nil, ld.errorf("challenger", "%q does not play game %s", c.Challenger, gname)
		}
	}
	if err := l.buildTournament(ld, c, &h); err != nil {
		return nil, err
	}
	if err := l.loadOpenings(ld, c, baseDir); err != nil {
		return nil, err
	}
	h.Openings = l.hashOpenings(c)
	l.Concurrency, l.ConcurrencyWhy = Concurrency(c.Concurrency, cores, prof)
	body, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("league %s: %w", name, err)
	}
	sum := sha256.Sum256(body)
	l.Config, l.Hash = string(body), hex.EncodeToString(sum[:])
	return l, nil
}

// addAgents resolves and checks the agents of the league's game.
func (l *League) addAgents(ld *loader, c Config, gc GameConfig, h *Hashed, opt Options, baseDir string, checked map[string]error) error {
	gname := l.Game.Info().Name
	for i, ac := range c.Agents {
		if !playsIn(ac, gname, gc.Name) {
			continue
		}
		akey := fmt.Sprintf("agents[%d].agent", i)
		a, err := resolveAgent(ac, gname, baseDir)
		if err != nil {
			return ld.errorf(akey, "%v", err)
		}
		if a.Kind != KindGo && opt.CheckAgent != nil {
			err, done := checked[a.Launch+"\x00"+gname]
			if !done {
				err = opt.CheckAgent(a.Launch, gname)
				checked[a.Launch+"\x00"+gname] = err
			}
			if err != nil && ac.source != "" {
				return &entrantRefusedError{entrants.Refusal{Name: a.Name, Source: ac.source,
					Reason: err.Error(), Fix: checkFix(a.Ref, gname)}}
			}
			if err != nil {
				return ld.errorf(akey, "%v", err)
			}
		}
		a.Source = ac.source
		l.Agents = append(l.Agents, a)
		h.Agents = append(h.Agents, HashedAgent{Name: a.Name, Agent: a.Ref, Options: a.Options})
	}
	return nil
}

// resolveDirs sets the league directory and the build cache.
func (s *Spec) resolveDirs(ld *loader, c Config, baseDir string) error {
	var err error
	// Paths written in the file are relative to the file; others (flags,
	// environment) to the current directory.
	resolvePath := func(key, p string) (string, error) {
		if p == "" {
			return "", nil
		}
		if !filepath.IsAbs(p) && ld.v.InConfig(key) && ld.source(key) == s.File {
			p = filepath.Join(baseDir, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", ld.errorf(key, "%v", err)
		}
		return abs, nil
	}
	// The default league directory sits beside the league file, so the
	// same file finds the same results from whatever directory it is run.
	if c.Output == "" {
		s.Output = filepath.Join(baseDir, "arena-results", c.Name)
	} else if s.Output, err = resolvePath("output", c.Output); err != nil {
		return err
	}
	s.OutputExplicit = c.Output != "" && ld.source("output") != s.File
	if s.CacheDir, err = resolvePath("cache_dir", c.CacheDir); err != nil {
		return err
	}
	if s.CacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		s.CacheDir = filepath.Join(base, "arena", "agents")
	}
	return nil
}

// entry is one league of a file: its game's keys and the key prefix for
// errors ("" or "games[i].").
type entry struct {
	GameConfig
	key string
}

// gameEntries lists the file's leagues: either one (game, params,
// profile, overrides) or a list.
func gameEntries(ld *loader, c Config, reg *engine.Registry) ([]entry, error) {
	var entries []entry
	switch {
	case c.Game != "" && len(c.Games) > 0:
		return nil, ld.errorf("games", "give either game (one league) or games (a list), not both")
	case c.Game != "":
		entries = []entry{{GameConfig: GameConfig{Game: c.Game, Params: c.Params, Profile: c.Profile, Overrides: c.Overrides, Penalties: c.Penalties}}}
	case len(c.Games) > 0:
		if len(c.Params) > 0 || c.Profile != "" || len(c.Overrides) > 0 || len(c.Penalties) > 0 {
			return nil, ld.errorf("games", "with a games list, put params, profile, overrides and penalties inside each entry")
		}
		for i, g := range c.Games {
			entries = append(entries, entry{GameConfig: g, key: fmt.Sprintf("games[%d].", i)})
		}
	default:
		return nil, ld.errorf("game", "missing: name the game (known: %s)", strings.Join(reg.Names(), ", "))
	}
	return entries, nil
}

// checkKeys checks the scalar keys that need no game or agent.
func checkKeys(ld *loader, c Config) error {
	switch c.Format {
	case RoundRobin, Gauntlet, AB, Swiss, Knockout:
	default:
		return ld.errorf("format", "unknown format %q (known: %s)", c.Format, strings.Join(Formats, ", "))
	}
	if err := checkStages(ld, c); err != nil {
		return err
	}
	if c.GamesPerPairing > MaxGamesPerPairing {
		return ld.errorf("games_per_pairing", "%d: at most %d", c.GamesPerPairing, MaxGamesPerPairing)
	}
	if c.GamesPerPairing < 2 || c.GamesPerPairing%2 != 0 {
		return ld.errorf("games_per_pairing", "%d: want an even number of at least 2, since every pairing is played in colour-swapped pairs", c.GamesPerPairing)
	}
	if c.Concurrency < 0 || c.Concurrency > MaxConcurrency {
		return ld.errorf("concurrency", "%d: want 0 (automatic) up to %d", c.Concurrency, MaxConcurrency)
	}
	if c.MachineReplays < 0 || c.MachineReplays > MaxMachineReplays {
		return ld.errorf("machine_replays", "%d: want 0 (never play a game again) up to %d", c.MachineReplays, MaxMachineReplays)
	}
	switch c.Isolation {
	case "auto", "required", "off":
	default:
		return ld.errorf("isolation", "%q: want auto, required or off", c.Isolation)
	}
	for i, name := range c.AgentEnv {
		if name == "" || strings.ContainsAny(name, "= \t\n") {
			return ld.errorf(fmt.Sprintf("agent_env[%d]", i), "%q: want the name of an environment variable", name)
		}
	}
	if c.Format == AB {
		if c.SPRT.Model != Pentanomial && c.SPRT.Model != Trinomial {
			return ld.errorf("sprt.model", "unknown model %q (known: %s, %s)", c.SPRT.Model, Pentanomial, Trinomial)
		}
		t := ratings.SPRT{Elo0: c.SPRT.Elo0, Elo1: c.SPRT.Elo1, Alpha: c.SPRT.Alpha, Beta: c.SPRT.Beta}
		if err := t.Validate(); err != nil {
			return ld.errorf("sprt", "%s", strings.TrimPrefix(err.Error(), "ratings: "))
		}
	}
	return nil
}

// checkAgents checks the entrants' names and references are given, once
// each, and the gauntlet's challenger is one of them.
func checkAgents(ld *loader, c Config) error {
	if len(c.Agents) == 0 {
		return ld.errorf("agents", "missing: list the agents, each with name and agent, or enter a folder of submissions with entrants.dir")
	}
	seen := map[string]int{}
	for i, a := range c.Agents {
		key := fmt.Sprintf("agents[%d]", i)
		if a.Name == "" {
			return ld.errorf(key+".name", "missing")
		}
		if !nameRE.MatchString(a.Name) {
			return ld.errorf(key+".name", "%q: use letters, digits and . _ + # -", a.Name)
		}
		if j, dup := seen[a.Name]; dup {
			return ld.errorf(key+".name", "%q is also the name of agents[%d]", a.Name, j)
		}
		seen[a.Name] = i
		if a.Agent == "" {
			return ld.errorf(key+".agent", "missing: give builtin:NAME, lua:PATH, an agent binary or a Go package directory")
		}
	}
	if c.Format == Gauntlet {
		if c.Challenger == "" {
			return ld.errorf("challenger", "missing: format gauntlet needs the name of the challenging agent")
		}
		if _, ok := seen[c.Challenger]; !ok {
			return ld.errorf("challenger", "%q is not one of the agents", c.Challenger)
		}
	}
	return nil
}

// applyOverrides applies an entry's overrides and penalties to its
// game's profile.
func applyOverrides(ld *loader, g engine.Game, params engine.Params, prof engine.Profile, gc GameConfig, key string) (engine.Profile, []engine.Override, error) {
	prof = prof.Clone()
	settings := make([]string, 0, len(gc.Overrides))
	for k := range gc.Overrides {
		settings = append(settings, k)
	}
	sort.Strings(settings)
	var overrides []engine.Override
	for _, k := range settings {
		o, err := prof.Apply(k, gc.Overrides[k])
		if err == nil {
			err = CheckDuration(o)
		}
		if err != nil {
			return engine.Profile{}, nil, ld.errorf(key+"overrides."+k, "%v", err)
		}
		overrides = append(overrides, o)
	}
	if err := prof.Validate(); err != nil {
		return engine.Profile{}, nil, ld.errorf(key+"overrides", "%v", err)
	}
	failures := make([]string, 0, len(gc.Penalties))
	for k := range gc.Penalties {
		failures = append(failures, k)
	}
	sort.Strings(failures)
	for _, k := range failures {
		pkey := key + "penalties." + k
		o, err := prof.Apply(engine.PenaltyPrefix+k, gc.Penalties[k])
		if err != nil {
			return engine.Profile{}, nil, ld.errorf(pkey, "%v", err)
		}
		if engine.Penalty(o.To) == engine.SkipTurn {
			if st, _ := g.NewState(params); st != nil {
				if _, ok := st.(engine.Passer); !ok {
					return engine.Profile{}, nil, ld.errorf(pkey, "%s: game %s has no skipped turns", o.To, g.Info().Name)
				}
			}
		}
		overrides = append(overrides, o)
	}
	if err := prof.Validate(); err != nil {
		return engine.Profile{}, nil, ld.errorf(key+"penalties", "%v", err)
	}
	return prof, overrides, nil
}

// playsIn reports whether an agent enters the league of a game entry.
func playsIn(ac AgentConfig, game, entryName string) bool {
	if len(ac.Games) == 0 {
		return true
	}
	for _, g := range ac.Games {
		if g == game || (entryName != "" && g == entryName) {
			return true
		}
	}
	return false
}

// Concurrency chooses the number of games at once. Under a per-move wall
// clock the referee times each reply with the wall clock, so an agent
// that waits for a core loses thinking time it is owed (and may time out);
// both agents of a game may be busy at once (one thinking, one pondering),
// hence at most half the cores. A CPU-budget profile charges CPU time,
// which waiting does not consume, so it may use every core.
func Concurrency(configured, cores int, prof engine.Profile) (int, string) {
	perMove := prof.Time == engine.PerMove
	limit := cores
	if perMove {
		limit = max(1, cores/2)
	}
	switch {
	case configured == 0 && perMove:
		return limit, fmt.Sprintf("half the %d cores: profile %s times moves by the wall clock", cores, prof.Name)
	case configured == 0:
		return limit, fmt.Sprintf("one per core: profile %s charges CPU time", prof.Name)
	case configured > limit && perMove:
		return limit, fmt.Sprintf("concurrency %d lowered to half the %d cores: profile %s times moves by the wall clock", configured, cores, prof.Name)
	}
	return configured, "configured"
}

// resolveAgent classifies a reference and finds its files. Paths are
// relative to the league file's directory.
func resolveAgent(ac AgentConfig, game, baseDir string) (*Agent, error) {
	ref := strings.ReplaceAll(ac.Agent, "{game}", game)
	a := &Agent{Name: ac.Name, Ref: ref, Options: ac.Options}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(baseDir, p)
	}
	switch {
	case strings.HasPrefix(ref, "builtin:"):
		a.Kind, a.Launch = KindBuiltin, ref
		return a, nil
	case strings.HasPrefix(ref, "lua:"):
		p, query, hasQuery := strings.Cut(strings.TrimPrefix(ref, "lua:"), "?")
		if p == "" {
			return nil, fmt.Errorf("%s: no script path", ref)
		}
		a.Kind, a.Path = KindLua, abs(p)
		fi, err := os.Stat(a.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: script %s does not exist (paths are relative to the league file)", ref, a.Path)
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("%s: %s is a directory, not a Lua script", ref, a.Path)
		}
		a.Launch = "lua:" + a.Path
		if hasQuery {
			a.Launch += "?" + query
		}
		h, err := FileHash(a.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		a.Hash = h
		return a, nil
	case strings.HasPrefix(ref, courseref.Prefix):
		p, query, hasQuery := strings.Cut(strings.TrimPrefix(ref, courseref.Prefix), "?")
		if p == "" {
			return nil, fmt.Errorf("%s: no path", ref)
		}
		a.Kind, a.Path = KindCourse, abs(p)
		if _, err := os.Stat(a.Path); err != nil {
			return nil, fmt.Errorf("%s: %s does not exist (paths are relative to the league file)", ref, a.Path)
		}
		a.Launch = courseref.Prefix + a.Path
		if hasQuery {
			a.Launch += "?" + query
		}
		h, err := courseref.Hash(a.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		a.Hash = h
		return a, nil
	case strings.ContainsRune(ref, '/') || strings.HasPrefix(ref, "."):
		a.Path = abs(ref)
		fi, err := os.Stat(a.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %s does not exist (paths are relative to the league file)", ref, a.Path)
		}
		if fi.IsDir() {
			gofiles, _ := filepath.Glob(filepath.Join(a.Path, "*.go"))
			if len(gofiles) == 0 {
				return nil, fmt.Errorf("%s: directory %s has no Go files: give a Go package directory, an agent binary, builtin:NAME or lua:PATH", ref, a.Path)
			}
			a.Kind = KindGo
			return a, nil
		}
		if fi.Mode()&0o111 == 0 {
			return nil, fmt.Errorf("%s: %s is not executable: give an agent binary built with the arena SDK", ref, a.Path)
		}
		a.Kind, a.Launch = KindBinary, a.Path
		h, err := FileHash(a.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		a.Hash = h
		return a, nil
	}
	// A bare name: a built-in, if the launcher knows it.
	a.Kind, a.Launch = KindBuiltin, ref
	return a, nil
}
