package leaguefile

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// defaultsYAML is a string, not a byte slice, so it cannot be changed.
//
//go:embed defaults.yaml
var defaultsYAML string

// EnvPrefix starts every environment variable that overrides a key:
// ARENA_GAMES_PER_PAIRING for games_per_pairing, ARENA_SPRT_ELO1 for
// sprt.elo1.
const EnvPrefix = "ARENA"

// Config is a league file as written, after defaults, environment and
// flags. Keys are lower case: viper folds the case of every key, map keys
// included, which is why agents are a list and not a map keyed by name.
type Config struct {
	Name      string            `mapstructure:"name" json:"name"`
	Game      string            `mapstructure:"game" json:"game,omitempty"`
	Params    map[string]string `mapstructure:"params" json:"params,omitempty"`
	Profile   string            `mapstructure:"profile" json:"profile,omitempty"`
	Overrides map[string]string `mapstructure:"overrides" json:"overrides,omitempty"`
	Penalties map[string]string `mapstructure:"penalties" json:"penalties,omitempty"`
	Games     []GameConfig      `mapstructure:"games" json:"games,omitempty"`
	Agents    []AgentConfig     `mapstructure:"agents" json:"agents"`
	// Entrants adds submissions from a folder to Agents; they enter the
	// league's hash as the agents they become.
	Entrants        EntrantsConfig  `mapstructure:"entrants" json:"-"`
	Format          string          `mapstructure:"format" json:"format"`
	Challenger      string          `mapstructure:"challenger" json:"challenger,omitempty"`
	GamesPerPairing int             `mapstructure:"games_per_pairing" json:"games_per_pairing"`
	Rounds          int             `mapstructure:"rounds" json:"rounds,omitempty"`
	TiebreakPairs   int             `mapstructure:"tiebreak_pairs" json:"tiebreak_pairs,omitempty"`
	Qualifier       QualifierConfig `mapstructure:"qualifier" json:"qualifier,omitempty"`
	Seed            uint64          `mapstructure:"seed" json:"seed"`
	Concurrency     int             `mapstructure:"concurrency" json:"concurrency"`
	Output          string          `mapstructure:"output" json:"output"`
	CacheDir        string          `mapstructure:"cache_dir" json:"cache_dir,omitempty"`
	SPRT            SPRTConfig      `mapstructure:"sprt" json:"sprt"`
	// Openings gives the league start positions to play from, each with
	// both colours; none by default (docs/leagues.md, Opening suites).
	Openings OpeningsConfig `mapstructure:"openings" json:"openings,omitempty"`
	// Isolation and AgentEnv say how agents are contained, not how games
	// are played: they stay out of the league's hash, so changing them
	// does not stop a league from resuming.
	Isolation string   `mapstructure:"isolation" json:"-"`
	AgentEnv  []string `mapstructure:"agent_env" json:"-"`
	// MachineReplays bounds how often a game whose verdict the machine
	// caused (record.Evidence) is withheld and played again; the play after
	// the last is published whatever it holds. Out of the hash: it decides
	// which plays are kept, not how a game is played.
	MachineReplays int `mapstructure:"machine_replays" json:"-"`
	// Cluster says where games are played, not how: out of the hash too.
	Cluster ClusterConfig `mapstructure:"cluster" json:"-"`
}

// ClusterConfig sends a league's games to workers (docs/cluster.md).
type ClusterConfig struct {
	URL string `mapstructure:"url" json:"-"`
	// MinSpeed is the fraction of the coordinator's benchmark score under
	// which a worker is slow (default 0.75); SlowWorkers says whether a
	// slow worker plays wall-clock games in a class of its own ("class",
	// the default) or is refused them ("refuse").
	MinSpeed    float64 `mapstructure:"min_speed" json:"-"`
	SlowWorkers string  `mapstructure:"slow_workers" json:"-"`
}

// OpeningsConfig is a league's opening suite: a file of move prefixes,
// or generated random plies.
type OpeningsConfig struct {
	File   string         `mapstructure:"file" json:"file,omitempty"`
	Random RandomOpenings `mapstructure:"random" json:"random,omitempty"`
}

// RandomOpenings generates a suite (package openings, Random).
type RandomOpenings struct {
	Plies int    `mapstructure:"plies" json:"plies,omitempty"`
	Count int    `mapstructure:"count" json:"count,omitempty"`
	Seed  uint64 `mapstructure:"seed" json:"seed,omitempty"`
	Depth int    `mapstructure:"depth" json:"depth,omitempty"`
}

// QualifierConfig is the first stage of a knockout league: a round-robin
// or Swiss whose best Advance entrants play the knockout.
type QualifierConfig struct {
	Format  string `mapstructure:"format" json:"format,omitempty"`
	Rounds  int    `mapstructure:"rounds" json:"rounds,omitempty"`
	Advance int    `mapstructure:"advance" json:"advance,omitempty"`
}

// GameConfig is one entry of games: a league of its own.
type GameConfig struct {
	Name      string            `mapstructure:"name" json:"name,omitempty"`
	Game      string            `mapstructure:"game" json:"game"`
	Params    map[string]string `mapstructure:"params" json:"params,omitempty"`
	Profile   string            `mapstructure:"profile" json:"profile,omitempty"`
	Overrides map[string]string `mapstructure:"overrides" json:"overrides,omitempty"`
	// Penalties override the profile's penalty for failure kinds
	// (dead: loss), shown and stored like overrides.
	Penalties map[string]string `mapstructure:"penalties" json:"penalties,omitempty"`
}

// AgentConfig is one entrant.
type AgentConfig struct {
	Name string `mapstructure:"name" json:"name"`
	// Agent is the reference: builtin:NAME, lua:PATH, the path of an agent
	// binary, or a Go package directory; "{game}" is replaced by the game.
	Agent   string            `mapstructure:"agent" json:"agent"`
	Options map[string]string `mapstructure:"options" json:"options,omitempty"`
	// Games limits the agent to some games of a multi-game file.
	Games []string `mapstructure:"games" json:"games,omitempty"`
	// source is the submission an entry of entrants came from; empty for
	// the file's agents.
	source string
}

// SPRTConfig configures the sequential test of format ab.
type SPRTConfig struct {
	Elo0  float64 `mapstructure:"elo0" json:"elo0"`
	Elo1  float64 `mapstructure:"elo1" json:"elo1"`
	Alpha float64 `mapstructure:"alpha" json:"alpha"`
	Beta  float64 `mapstructure:"beta" json:"beta"`
	Model string  `mapstructure:"model" json:"model"`
}

// Sources are the overrides on top of a league file.
type Sources struct {
	// Flags holds command-line flags; a changed flag named like a key
	// (underscores as dashes, dots as dashes: --games-per-pairing,
	// --sprt-elo1) overrides it.
	Flags *pflag.FlagSet
	// Sets are KEY=VALUE overrides of any key (--set), applied last.
	Sets []string
	// NoEnv ignores ARENA_* environment variables.
	NoEnv bool
}

// ConfigError is a problem with one key of a configuration: where the value
// came from (the file, an environment variable, a flag) and what is wrong.
type ConfigError struct {
	Source string // the league file, "$ARENA_X", "--flag" or "--set key"
	Key    string // e.g. "games_per_pairing", "agents[1].agent"; "" for the file as a whole
	Msg    string
}

func (e *ConfigError) Error() string {
	if e.Key == "" {
		return e.Source + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s: %s", e.Source, e.Key, e.Msg)
}

// loader reads one configuration and remembers where each value came from.
type loader struct {
	file  string
	v     *viper.Viper
	src   Sources
	sets  map[string]bool
	flags map[string]string // key -> flag name
	// openingsCache is where generated opening suites are kept (under
	// the spec's cache_dir), "" to generate them on every load.
	openingsCache string
}

// readConfig layers the embedded defaults, the file, the environment, the
// flags and the --set overrides, and decodes them strictly.
func readConfig(file string, src Sources) (*loader, Config, error) {
	ld := &loader{file: file, src: src, sets: map[string]bool{}, flags: map[string]string{}}
	dv := viper.New()
	dv.SetConfigType("yaml")
	if err := dv.ReadConfig(strings.NewReader(defaultsYAML)); err != nil {
		return nil, Config{}, fmt.Errorf("embedded defaults: %w", err)
	}
	v := viper.New()
	ld.v = v
	for _, k := range dv.AllKeys() {
		v.SetDefault(k, dv.Get(k))
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(file)), ".")
	switch ext {
	case "yaml", "yml", "toml", "json":
	default:
		return nil, Config{}, &ConfigError{Source: file, Msg: "unknown configuration format: want .yaml, .yml, .toml or .json"}
	}
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, Config{}, &ConfigError{Source: file, Msg: errors.Unwrap(err).Error() + " (cannot read the league file)"}
	}
	v.SetConfigType(ext)
	if err := v.ReadConfig(bytes.NewReader(body)); err != nil {
		return nil, Config{}, &ConfigError{Source: file, Msg: "not valid " + strings.ToUpper(ext) + ": " + oneLine(err.Error())}
	}
	if !src.NoEnv {
		v.SetEnvPrefix(EnvPrefix)
		v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
		v.AutomaticEnv()
	}
	if src.Flags != nil {
		for _, k := range configKeys() {
			name := FlagName(k)
			if f := src.Flags.Lookup(name); f != nil {
				if err := v.BindPFlag(k, f); err != nil {
					return nil, Config{}, fmt.Errorf("flag --%s: %w", name, err)
				}
				ld.flags[k] = name
			}
		}
	}
	for _, s := range src.Sets {
		k, val, ok := strings.Cut(s, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" {
			return nil, Config{}, &ConfigError{Source: "--set " + s, Msg: "want KEY=VALUE, e.g. --set games_per_pairing=4"}
		}
		v.Set(k, val)
		ld.sets[k] = true
	}
	var c Config
	err = v.UnmarshalExact(&c, func(dc *mapstructure.DecoderConfig) {
		dc.ErrorUnused = true
		dc.ZeroFields = true
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(strictNumbers, dc.DecodeHook)
	})
	if err != nil {
		return nil, Config{}, ld.decodeError(err)
	}
	return ld, c, nil
}

// configKeys lists every scalar key of Config, dotted ("sprt.elo1").
func configKeys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			k := prefix + f.Tag.Get("mapstructure")
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type, k+".")
			case reflect.Slice, reflect.Map:
			default:
				out = append(out, k)
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	return out
}

// source names where key's value came from, for error messages.
func (ld *loader) source(key string) string {
	top := key
	if i := strings.IndexAny(top, "[."); i >= 0 && !strings.HasPrefix(top, "sprt.") && !strings.HasPrefix(top, "qualifier.") && !strings.HasPrefix(top, "openings.") {
		top = top[:i]
	}
	if ld.sets[top] {
		return "--set " + top
	}
	if name, ok := ld.flags[top]; ok && ld.src.Flags.Changed(name) {
		return "--" + name
	}
	if !ld.src.NoEnv {
		env := EnvName(top)
		if _, ok := os.LookupEnv(env); ok {
			return "$" + env
		}
	}
	return ld.file
}

func (ld *loader) errorf(key, format string, args ...any) error {
	return &ConfigError{Source: ld.source(key), Key: key, Msg: fmt.Sprintf(format, args...)}
}

// decodeError turns mapstructure's joined errors into one message per key.
func (ld *loader) decodeError(err error) error {
	var msgs []string
	var first *ConfigError
	add := func(ce *ConfigError) {
		if first == nil {
			first = ce
		}
		msgs = append(msgs, ce.Error())
	}
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var de *mapstructure.DecodeError
		if !errors.As(err, &de) {
			add(&ConfigError{Source: ld.file, Msg: oneLine(err.Error())})
			return
		}
		name := de.Name()
		inner := de.Unwrap()
		msg := inner.Error()
		if keys, ok := strings.CutPrefix(msg, "has invalid keys: "); ok {
			for _, k := range strings.Split(keys, ", ") {
				full := k
				if name != "" {
					full = name + "." + k
				}
				m := "unknown key"
				if s := suggest(k, knownKeys(name)); s != "" {
					m += fmt.Sprintf(" (did you mean %q?)", s)
				} else if known := knownKeys(name); len(known) > 0 {
					m += " (known keys here: " + strings.Join(known, ", ") + ")"
				}
				add(&ConfigError{Source: ld.source(full), Key: full, Msg: m})
			}
			return
		}
		add(&ConfigError{Source: ld.source(name), Key: name, Msg: typeMessage(inner)})
	}
	walk(err)
	if len(msgs) == 1 {
		return first
	}
	sort.Strings(msgs)
	return errors.New(strings.Join(msgs, "\n"))
}

// typeMessage explains a value of the wrong type.
func typeMessage(err error) string {
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%v is not %s", quoteValue(pe.Value), kindName(pe.Expected.Type()))
	}
	var ue *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ue) {
		return fmt.Sprintf("%v is not %s", quoteValue(ue.Value), kindName(ue.Expected.Type()))
	}
	msg := oneLine(err.Error())
	if rest, ok := strings.CutPrefix(msg, "expected a map or struct, got "); ok {
		return "want a table of keys, got a " + strings.Trim(rest, `"'`)
	}
	return msg
}

func quoteValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case []any, map[string]any:
		return fmt.Sprintf("a %T", v)
	}
	return fmt.Sprint(v)
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		return "a non-negative whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a table of keys"
	}
	return t.String()
}

// knownKeys lists the keys allowed under a decoded path ("" for the top,
// "agents[0]", "games[1]", "sprt", "qualifier").
func knownKeys(path string) []string {
	t := reflect.TypeOf(Config{})
	switch {
	case strings.HasPrefix(path, "agents["):
		t = reflect.TypeOf(AgentConfig{})
	case strings.HasPrefix(path, "games["):
		t = reflect.TypeOf(GameConfig{})
	case path == "sprt":
		t = reflect.TypeOf(SPRTConfig{})
	case path == "qualifier":
		t = reflect.TypeOf(QualifierConfig{})
	case path == "openings":
		t = reflect.TypeOf(OpeningsConfig{})
	case path == "openings.random":
		t = reflect.TypeOf(RandomOpenings{})
	case path != "":
		return nil
	}
	var out []string
	for i := range t.NumField() {
		out = append(out, t.Field(i).Tag.Get("mapstructure"))
	}
	return out
}

// suggest returns the known key closest to k, if it is close enough to be
// a misspelling.
func suggest(k string, known []string) string {
	best, bestD := "", len(k)+100
	for _, c := range known {
		if d := editDistance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 && bestD < len(k) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
