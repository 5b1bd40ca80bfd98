package leaguefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/engine"
)

const twoAgents = `
agents:
  - name: greedy
    agent: builtin:greedy
  - name: random
    agent: builtin:random
`

// Each broken file gives exactly one error, naming the file and the key.
func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, file, body string
		key, want        string
	}{
		{"unknown key", "x.yaml", "game: bohnenspiel\ngames_per_pairng: 4\n" + twoAgents,
			"games_per_pairng", `unknown key (did you mean "games_per_pairing"?)`},
		{"unknown nested key", "x.yaml", "game: bohnenspiel\nagents:\n  - name: a\n    agnet: builtin:random\n  - name: b\n    agent: builtin:random\n",
			"agents[0].agnet", `unknown key (did you mean "agent"?)`},
		{"unknown sprt key", "x.yaml", "game: bohnenspiel\nsprt:\n  elo2: 3\n" + twoAgents,
			"sprt.elo2", "unknown key"},
		{"wrong type", "x.yaml", "game: bohnenspiel\ngames_per_pairing: lots\n" + twoAgents,
			"games_per_pairing", `"lots" is not a whole number`},
		{"wrong type toml", "x.toml", "game = \"bohnenspiel\"\nseed = \"abc\"\n[[agents]]\nname = \"a\"\nagent = \"random\"\n[[agents]]\nname = \"b\"\nagent = \"greedy\"\n",
			"seed", `"abc" is not a non-negative whole number`},
		{"list expected", "x.json", `{"game": "bohnenspiel", "agents": "random"}`,
			"agents[0]", "want a table of keys, got a string"},
		{"missing agent file", "x.yaml", "game: bohnenspiel\nagents:\n  - name: a\n    agent: builtin:random\n  - name: b\n    agent: lua:bots/missing.lua\n",
			"agents[1].agent", "missing.lua does not exist"},
		{"missing binary", "x.yaml", "game: bohnenspiel\nagents:\n  - name: a\n    agent: builtin:random\n  - name: b\n    agent: ./bin/agent\n",
			"agents[1].agent", "does not exist"},
		{"unknown game", "x.yaml", "game: bohnenspeil\n" + twoAgents,
			"game", `unknown game "bohnenspeil"`},
		{"unknown game in list", "x.yaml", "games:\n  - game: bohnenspiel\n  - game: chess\n" + twoAgents,
			"games[1].game", `unknown game "chess"`},
		{"bad parameter", "x.yaml", "game: cachex\nparams:\n  n: 99\n" + twoAgents,
			"params", "n"},
		{"bad override", "x.yaml", "game: bohnenspiel\noverrides:\n  budget: 3s\n" + twoAgents,
			"overrides.budget", "does not apply"},
		{"wrong profile", "x.yaml", "game: bohnenspiel\nprofile: comp424-2021\n" + twoAgents,
			"profile", `"comp424-2017"`},
		{"huge games", "x.yaml", "game: bohnenspiel\ngames_per_pairing: 9223372036854775806\n" + twoAgents,
			"games_per_pairing", "at most 100000"},
		{"huge move limit", "x.yaml", "game: bohnenspiel\noverrides: {move-limit: 2h}\n" + twoAgents,
			"overrides.move-limit", "move-limit 2h0m0s: at most 1h0m0s"},
		{"huge budget", "x.yaml", "game: cachex\nparams: {n: 4}\noverrides: {budget: 25h, budget-grace: 1s}\n" + twoAgents,
			"overrides.budget", "budget 25h0m0s: at most 24h0m0s"},
		{"huge startup", "x.yaml", "game: bohnenspiel\noverrides: {startup-timeout: 11m}\n" + twoAgents,
			"overrides.startup-timeout", "at most 10m0s"},
		{"huge cushion", "x.yaml", "game: bohnenspiel\noverrides: {cushion: 2m}\n" + twoAgents,
			"overrides.cushion", "at most 1m0s"},
		{"huge grace", "x.yaml", "game: cachex\nparams: {n: 4}\noverrides: {budget-grace: 2h}\n" + twoAgents,
			"overrides.budget-grace", "at most 1h0m0s"},
		{"huge concurrency", "x.yaml", "game: bohnenspiel\nconcurrency: 1000000\n" + twoAgents,
			"concurrency", "up to 1024"},
		{"odd games", "x.yaml", "game: bohnenspiel\ngames_per_pairing: 3\n" + twoAgents,
			"games_per_pairing", "colour-swapped pairs"},
		{"unknown format", "x.yaml", "game: bohnenspiel\nformat: dutch\n" + twoAgents,
			"format", `unknown format "dutch" (known: round-robin, gauntlet, ab, swiss, knockout)`},
		{"rounds outside swiss", "x.yaml", "game: bohnenspiel\nrounds: 3\n" + twoAgents,
			"rounds", "rounds are for format swiss"},
		{"too many swiss rounds", "x.yaml", "game: bohnenspiel\nformat: swiss\nrounds: 2\n" + twoAgents,
			"rounds", "want 1 to 1"},
		{"qualifier without knockout", "x.yaml", "game: bohnenspiel\nformat: swiss\nqualifier: {format: swiss, advance: 2}\n" + twoAgents,
			"qualifier", "feeds a knockout"},
		{"qualifier format", "x.yaml", "game: bohnenspiel\nformat: knockout\nqualifier: {format: gauntlet, advance: 2}\n" + twoAgents,
			"qualifier.format", `"gauntlet": want round-robin or swiss`},
		{"qualifier advance", "x.yaml", "game: bohnenspiel\nformat: knockout\nqualifier: {format: swiss, advance: 1}\n" + twoAgents,
			"qualifier.advance", "at least 2"},
		{"qualifier advance past the field", "x.yaml", "game: bohnenspiel\nformat: knockout\nqualifier: {format: round-robin, advance: 3}\n" + twoAgents,
			"qualifier", "3 advance of 2 entrants"},
		{"negative tiebreak pairs", "x.yaml", "game: bohnenspiel\nformat: knockout\ntiebreak_pairs: -1\n" + twoAgents,
			"tiebreak_pairs", "want 0 or more"},
		{"gauntlet without challenger", "x.yaml", "game: bohnenspiel\nformat: gauntlet\n" + twoAgents,
			"challenger", "missing"},
		{"duplicate agent", "x.yaml", "game: bohnenspiel\nagents:\n  - name: a\n    agent: random\n  - name: a\n    agent: greedy\n",
			"agents[1].name", "also the name of agents[0]"},
		{"bad sprt", "x.yaml", "game: bohnenspiel\nformat: ab\nsprt:\n  elo0: 5\n  elo1: 5\n" + twoAgents,
			"sprt", "Elo0 < Elo1"},
		{"no agents", "x.yaml", "game: bohnenspiel\n",
			"agents", "missing"},
		{"fractional whole number", "x.yaml", "game: bohnenspiel\ngames_per_pairing: 2.5\n" + twoAgents,
			"games_per_pairing", "2.5 is not a whole number"},
		{"negative seed", "x.yaml", "game: bohnenspiel\nseed: -1\n" + twoAgents,
			"seed", "-1 is negative: want a non-negative whole number"},
		{"seed out of range", "x.yaml", "game: bohnenspiel\nseed: 99999999999999999999\n" + twoAgents,
			"seed", "out of range"},
		{"concurrency out of range", "x.json", `{"game": "bohnenspiel", "concurrency": 1e30, "agents": [{"name": "a", "agent": "random"}, {"name": "b", "agent": "greedy"}]}`,
			"concurrency", "out of range"},
		{"fractional seed", "x.toml", "game = \"bohnenspiel\"\nseed = 1.5\n[[agents]]\nname = \"a\"\nagent = \"random\"\n[[agents]]\nname = \"b\"\nagent = \"greedy\"\n",
			"seed", "1.5 is not a non-negative whole number"},
		{"unknown built-in", "x.yaml", "game: bohnenspiel\nagents:\n  - name: a\n    agent: random\n  - name: b\n    agent: builtin:grandmaster\n",
			"agents[1].agent", "grandmaster"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := leaguefiletest.Write(t, c.file, c.body)
			opt := leaguefiletest.Options()
			opt.CheckAgent = func(ref, _ string) error {
				if strings.Contains(ref, "grandmaster") {
					return errors.New("unknown agent " + ref)
				}
				return nil
			}
			_, err := leaguefile.Load(file, opt)
			if err == nil {
				t.Fatal("loaded without error")
			}
			msg := err.Error()
			if strings.Count(msg, "\n") != 0 {
				t.Errorf("want one line, got:\n%s", msg)
			}
			var ce *leaguefile.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %q is not a ConfigError", msg)
			}
			if ce.Source != file || ce.Key != c.key {
				t.Errorf("error names %q, key %q; want %q, key %q (%s)", ce.Source, ce.Key, file, c.key, msg)
			}
			if !strings.HasPrefix(msg, file+": "+c.key+": ") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q: want %q and %q", msg, file+": "+c.key+": ", c.want)
			}
		})
	}
}

func TestConfigFileErrors(t *testing.T) {
	bad := leaguefiletest.Write(t, "x.yaml", "game: [unclosed\n")
	if _, err := leaguefile.Load(bad, leaguefiletest.Options()); err == nil || !strings.HasPrefix(err.Error(), bad+": not valid YAML") {
		t.Errorf("syntax error: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if _, err := leaguefile.Load(missing, leaguefiletest.Options()); err == nil || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("missing file: %v", err)
	}
	odd := leaguefiletest.Write(t, "x.ini", "game=bohnenspiel\n")
	if _, err := leaguefile.Load(odd, leaguefiletest.Options()); err == nil || !strings.Contains(err.Error(), "unknown configuration format") {
		t.Errorf("unknown extension: %v", err)
	}
}

// Defaults come from the embedded file; the league file, the environment,
// flags and --set override them in that order.
func TestConfigLayers(t *testing.T) {
	file := leaguefiletest.Write(t, "layers.yaml", "game: bohnenspiel\ngames_per_pairing: 4\nseed: 9\noverrides:\n  move-limit: 500ms\n"+twoAgents)
	s, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if c.Name != "layers" || c.Format != leaguefile.RoundRobin || c.GamesPerPairing != 4 || c.Seed != 9 || c.SPRT.Model != leaguefile.Pentanomial {
		t.Fatalf("config = %+v", c)
	}
	// The default league directory is beside the file, not in the
	// current directory.
	if want := filepath.Join(filepath.Dir(file), "arena-results", "layers"); s.Output != want {
		t.Errorf("output = %s, want %s", s.Output, want)
	}
	l := s.Leagues[0]
	if l.Profile.MoveLimit != 500*time.Millisecond || len(l.Overrides) != 1 || l.Overrides[0].String() != "move-limit: 700ms -> 500ms" {
		t.Errorf("overrides = %v, move limit %v", l.Overrides, l.Profile.MoveLimit)
	}
	// Per-move profile on 2 cores: one game at a time, and why.
	if l.Concurrency != 1 || !strings.Contains(l.ConcurrencyWhy, "wall clock") {
		t.Errorf("concurrency = %d (%s)", l.Concurrency, l.ConcurrencyWhy)
	}

	t.Setenv("ARENA_GAMES_PER_PAIRING", "6")
	t.Setenv("ARENA_SPRT_ELO1", "25")
	t.Setenv("ARENA_CONCURRENCY", "8")
	opt := leaguefiletest.Options()
	opt.Sources.NoEnv = false
	s, err = leaguefile.Load(file, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Config.GamesPerPairing != 6 || s.Config.SPRT.Elo1 != 25 || s.Config.Concurrency != 8 || s.Leagues[0].Concurrency != 1 {
		t.Errorf("environment not applied: %+v, concurrency %d", s.Config, s.Leagues[0].Concurrency)
	}

	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	leaguefile.AddFlags(fs)
	if err := fs.Parse([]string{"--games-per-pairing", "8", "--seed", "3", "--output", "out"}); err != nil {
		t.Fatal(err)
	}
	opt.Sources.Flags = fs
	opt.Sources.Sets = []string{"seed=4"}
	s, err = leaguefile.Load(file, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Config.GamesPerPairing != 8 || s.Config.Seed != 4 {
		t.Errorf("flags/--set not applied: %+v", s.Config)
	}
	// Numeric keys have typed flags; an unset one leaves the file's value.
	if f := fs.Lookup("games-per-pairing"); f == nil || f.Value.Type() != "int" {
		t.Errorf("--games-per-pairing is not an int flag: %+v", f)
	}
	if f := fs.Lookup("sprt-elo1"); f == nil || f.Value.Type() != "float64" {
		t.Errorf("--sprt-elo1 is not a float flag: %+v", f)
	}
	if s.Config.Concurrency != 8 {
		t.Errorf("an unset --concurrency changed the configuration: %d", s.Config.Concurrency)
	}
	// A relative output from a flag is relative to the working directory.
	if want, _ := filepath.Abs("out"); s.Output != want {
		t.Errorf("output = %s, want %s", s.Output, want)
	}

	// A bad value from the environment is blamed on the variable.
	t.Setenv("ARENA_GAMES_PER_PAIRING", "5")
	opt.Sources.Flags = nil
	_, err = leaguefile.Load(file, opt)
	if err == nil || !strings.HasPrefix(err.Error(), "$ARENA_GAMES_PER_PAIRING: games_per_pairing: ") {
		t.Errorf("env error = %v", err)
	}
}

// Paths in a league file are relative to the file; {game} is replaced per
// game; a games list makes one league per entry.
func TestConfigMultiGame(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"bohnenspiel", "cachex"} {
		if err := os.WriteFile(filepath.Join(dir, g+".lua"), []byte("-- "+g), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "sub", "multi.yaml")
	os.MkdirAll(filepath.Dir(file), 0o755)
	body := `
name: multi
output: results
games:
  - game: bohnenspiel
  - game: cachex
    params: {n: 4}
    overrides: {budget: 5s}
agents:
  - name: lua
    agent: lua:../{game}.lua?depth=2
  - name: random
    agent: builtin:random
  - name: greedy
    agent: greedy
    games: [cachex]
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := leaguefile.Load(file, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	if s.Output != filepath.Join(dir, "sub", "results") {
		t.Errorf("output = %s", s.Output)
	}
	if len(s.Leagues) != 2 || s.Leagues[0].Name != "multi/bohnenspiel" || s.Leagues[1].Name != "multi/cachex" {
		t.Fatalf("leagues = %v", s.Leagues)
	}
	b, c := s.Leagues[0], s.Leagues[1]
	if len(b.Agents) != 2 || len(c.Agents) != 3 {
		t.Fatalf("agents: %d and %d", len(b.Agents), len(c.Agents))
	}
	lua := c.Agents[0]
	if lua.Kind != leaguefile.KindLua || lua.Ref != "lua:../cachex.lua?depth=2" || lua.Launch != "lua:"+filepath.Join(dir, "cachex.lua")+"?depth=2" || !strings.HasPrefix(lua.Hash, "sha256:") {
		t.Errorf("lua agent = %+v", lua)
	}
	if b.Agents[0].Hash == lua.Hash {
		t.Error("different scripts have the same hash")
	}
	if c.Params["n"] != "4" || c.Profile.Time != engine.CPUBudget || c.Profile.Budget != 5*time.Second || c.Concurrency != 2 {
		t.Errorf("cachex league: params %v, profile %+v, concurrency %d", c.Params, c.Profile, c.Concurrency)
	}
	if b.Hash == c.Hash {
		t.Error("leagues share a configuration hash")
	}
}

// Every shipped league file loads.
func TestShippedConfigs(t *testing.T) {
	files, _ := filepath.Glob("../../../configs/*.yaml")
	if len(files) < 6 {
		t.Fatalf("found %d league files in configs/", len(files))
	}
	for _, f := range files {
		if _, err := leaguefile.Load(f, leaguefiletest.Options()); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// isolation defaults to auto and takes only its three values; agent_env
// takes variable names. Neither changes the league's hash.
func TestConfigIsolation(t *testing.T) {
	plain := leaguefiletest.Write(t, "iso.yaml", "game: bohnenspiel\n"+twoAgents)
	s, err := leaguefile.Load(plain, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	if s.Config.Isolation != "auto" || len(s.Config.AgentEnv) != 0 {
		t.Fatalf("defaults: %q %q", s.Config.Isolation, s.Config.AgentEnv)
	}
	strict := leaguefiletest.Write(t, "iso.yaml", "game: bohnenspiel\nisolation: required\nagent_env: [OMP_NUM_THREADS]\n"+twoAgents)
	s2, err := leaguefile.Load(strict, leaguefiletest.Options())
	if err != nil {
		t.Fatal(err)
	}
	if s2.Config.Isolation != "required" || len(s2.Config.AgentEnv) != 1 || s2.Leagues[0].Hash != s.Leagues[0].Hash {
		t.Fatalf("required: %+v, hash %s vs %s", s2.Config, s2.Leagues[0].Hash, s.Leagues[0].Hash)
	}
	for body, key := range map[string]string{"isolation: sometimes\n": "isolation", "agent_env: [\"A=B\"]\n": "agent_env[0]"} {
		bad := leaguefiletest.Write(t, "bad.yaml", "game: bohnenspiel\n"+body+twoAgents)
		if _, err := leaguefile.Load(bad, leaguefiletest.Options()); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// A negative seed is refused with the same words whether it comes from
// the file, the environment, a flag or --set; a whole number in range is
// kept exactly.
func TestSeedRulesAgreeAcrossSources(t *testing.T) {
	file := leaguefiletest.Write(t, "s.yaml", "game: bohnenspiel\n"+twoAgents)
	const want = "seed: -1 is negative: want a non-negative whole number"
	check := func(what string, opt leaguefile.Options) {
		t.Helper()
		_, err := leaguefile.Load(file, opt)
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: error %v, want it to end %q", what, err, want)
		}
	}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	leaguefile.AddFlags(fs)
	if err := fs.Parse([]string{"--seed", "-1"}); err != nil {
		t.Fatal(err)
	}
	opt := leaguefiletest.Options()
	opt.Sources.Flags = fs
	check("flag", opt)
	opt = leaguefiletest.Options()
	opt.Sources.Sets = []string{"seed=-1"}
	check("--set", opt)
	t.Setenv("ARENA_SEED", "-1")
	opt = leaguefiletest.Options()
	opt.Sources.NoEnv = false
	check("environment", opt)
	if _, err := leaguefile.ParseSeed("-1"); err == nil || err.Error() != want {
		t.Errorf("ParseSeed(-1): %v, want %q", err, want)
	}
	if n, err := leaguefile.ParseSeed("18446744073709551615"); err != nil || n != 1<<64-1 {
		t.Errorf("ParseSeed(max): %d, %v", n, err)
	}
	if _, err := leaguefile.ParseSeed("18446744073709551616"); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseSeed(2^64): %v", err)
	}
}

// An ARENA_ variable that names no key is a warning naming the closest
// key's variable; known variables give none.
func TestUnknownEnvironmentVariableWarns(t *testing.T) {
	file := leaguefiletest.Write(t, "w.yaml", "game: bohnenspiel\n"+twoAgents)
	t.Setenv("ARENA_GAMES_PER_PARING", "4")
	t.Setenv("ARENA_SEED", "3")
	opt := leaguefiletest.Options()
	opt.Sources.NoEnv = false
	s, err := leaguefile.Load(file, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 {
		t.Fatalf("warnings %q, want exactly one", s.Warnings)
	}
	w := s.Warnings[0]
	for _, want := range []string{"$ARENA_GAMES_PER_PARING", "$ARENA_GAMES_PER_PAIRING", "games_per_pairing"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if s.Config.Seed != 3 || s.Config.GamesPerPairing != 2 {
		t.Errorf("seed %d, games per pairing %d: want 3 from the environment and the default 2", s.Config.Seed, s.Config.GamesPerPairing)
	}
}
