package leaguefile

import (
	"strings"

	"github.com/spf13/pflag"
)

// keyDoc describes a scalar key, for flags and documentation.
func keyDoc(key string) string {
	switch key {
	case "name":
		return "league name (default: the league file's name)"
	case "game":
		return "the game (see arena games)"
	case "profile":
		return "the course profile, checked against the game's"
	case "format":
		return "round-robin, gauntlet, ab, swiss or knockout"
	case "rounds":
		return "Swiss rounds (0: ceil(log2 agents) + 2)"
	case "tiebreak_pairs":
		return "knockout: extra colour-swapped pairs after a tied match"
	case "qualifier.format":
		return "knockout: the qualifying stage's format, round-robin or swiss"
	case "qualifier.rounds":
		return "knockout: the Swiss qualifier's rounds"
	case "qualifier.advance":
		return "knockout: agents the qualifier sends to the bracket"
	case "openings.file":
		return "a file of openings, one move prefix a line ({game}: the game's name)"
	case "openings.random.plies":
		return "generated openings: random legal plies from the start"
	case "openings.random.count":
		return "generated openings: how many to keep"
	case "openings.random.seed":
		return "generated openings: their seed (0: the league's seed)"
	case "openings.random.depth":
		return "generated openings: depth of the balance search (0: 3)"
	case "challenger":
		return "the challenging agent of a gauntlet"
	case "games_per_pairing":
		return "games per pairing, even (colour-swapped pairs); the cap for ab"
	case "seed":
		return "base seed of every game"
	case "isolation":
		return "agent sandboxes: auto, required or off (docs/security.md)"
	case "concurrency":
		return "games at once (0: one per core; per-move clocks: at most half the cores)"
	case "output":
		return "league directory (default arena-results/NAME)"
	case "cache_dir":
		return "where Go package agents are built"
	case "entrants.dir":
		return "a folder of submissions, one agent per file or subfolder"
	case "entrants.glob":
		return "a pattern of submissions, one agent per match"
	case "machine_replays":
		return "how often a game whose verdict the machine caused is played again (0: never)"
	case "cluster.url":
		return "play the games on cluster workers through this NATS JetStream server (docs/cluster.md)"
	case "cluster.min_speed":
		return "the fraction of the coordinator's benchmark score under which a cluster worker is slow (default 0.75)"
	case "cluster.slow_workers":
		return "what slow cluster workers get under a wall-clock profile: class (their games in class slow, the default) or refuse"
	case "sprt.elo0":
		return "SPRT H0 Elo (format ab)"
	case "sprt.elo1":
		return "SPRT H1 Elo (format ab)"
	case "sprt.alpha":
		return "SPRT false-H1 rate (format ab)"
	case "sprt.beta":
		return "SPRT false-H0 rate (format ab)"
	case "sprt.model":
		return "SPRT model: pentanomial or trinomial (format ab)"
	}
	return ""
}

// FlagName is the command-line flag of a key: games_per_pairing is
// --games-per-pairing, sprt.elo1 is --sprt-elo1.
// The format key's flag is --league-format: on the report commands
// --format is the output's format (csv, json, jsonl).
func FlagName(key string) string {
	if key == "format" {
		return "league-format"
	}
	return strings.NewReplacer("_", "-", ".", "-").Replace(key)
}

// EnvName is the environment variable of a key: ARENA_GAMES_PER_PAIRING,
// ARENA_SPRT_ELO1.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(key))
}

// AddFlags defines a flag for every scalar key, to pass to Load as
// Sources.Flags. Numeric keys get typed flags, so help shows int or float
// and a malformed number is refused as the flag's error; the values are
// then checked like the file's. The seed stays text: its own parser
// explains a negative or too large seed.
func AddFlags(fs *pflag.FlagSet) {
	for _, k := range configKeys() {
		usage := "override " + k + ": " + keyDoc(k)
		switch k {
		case "games_per_pairing", "concurrency", "machine_replays":
			fs.Int(FlagName(k), 0, usage)
		case "sprt.elo0", "sprt.elo1", "sprt.alpha", "sprt.beta", "cluster.min_speed":
			fs.Float64(FlagName(k), 0, usage)
		default:
			fs.String(FlagName(k), "", usage)
		}
	}
}
