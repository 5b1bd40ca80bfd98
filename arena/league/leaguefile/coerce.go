package leaguefile

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// strictNumbers is a decode hook that refuses the coercions viper's weak
// decoding would otherwise make silently: a fractional value for a whole
// number (2.5 games), a negative one for an unsigned key (a seed of -1
// would wrap to 2^64-1), and one out of the key's range (a seed of
// 99999999999999999999). File, environment, flag and --set values all pass
// through it, so each is refused with the same message.
func strictNumbers(from, to reflect.Type, data any) (any, error) {
	switch to.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		return wholeNumber(data, false)
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return wholeNumber(data, true)
	}
	return data, nil
}

// wholeNumber converts data to an int64 (or a uint64 when unsigned), or
// says why it cannot. Values that are not numbers are passed on for the
// decoder to refuse with its own message.
func wholeNumber(data any, unsigned bool) (any, error) {
	want := "a whole number"
	if unsigned {
		want = "a non-negative whole number"
	}
	var f float64
	switch v := data.(type) {
	case int:
		if unsigned && v < 0 {
			return nil, fmt.Errorf("%d is negative: want %s", v, want)
		}
		return data, nil
	case int64:
		if unsigned && v < 0 {
			return nil, fmt.Errorf("%d is negative: want %s", v, want)
		}
		return data, nil
	case int32, int16, int8:
		return wholeNumber(reflect.ValueOf(v).Int(), unsigned)
	case uint, uint32, uint16, uint8:
		return data, nil
	case uint64:
		if !unsigned && v > math.MaxInt64 {
			return nil, fmt.Errorf("%d is out of range", v)
		}
		return data, nil
	case float32:
		f = float64(v)
	case float64:
		f = v
	case string:
		s := strings.TrimSpace(v)
		if unsigned {
			if n, err := strconv.ParseUint(s, 10, 64); err == nil {
				return n, nil
			}
		} else if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
		if strings.HasPrefix(s, "-") && unsigned {
			if _, err := strconv.ParseFloat(s, 64); err == nil {
				return nil, fmt.Errorf("%s is negative: want %s", s, want)
			}
		}
		pf, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not %s", v, want)
		}
		if pf == math.Trunc(pf) && !math.IsInf(pf, 0) {
			return nil, fmt.Errorf("%s is out of range", s)
		}
		return nil, fmt.Errorf("%s is not %s", s, want)
	default:
		return data, nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return nil, fmt.Errorf("%v is not %s", f, want)
	}
	if unsigned {
		if f < 0 {
			return nil, fmt.Errorf("%v is negative: want %s", f, want)
		}
		// 2^64 is the first float64 past the range.
		if f >= 18446744073709551616.0 {
			return nil, fmt.Errorf("%v is out of range (at most %d)", f, uint64(math.MaxUint64))
		}
		return uint64(f), nil
	}
	if f < -9223372036854775808.0 || f >= 9223372036854775808.0 {
		return nil, fmt.Errorf("%v is out of range", f)
	}
	return int64(f), nil
}

// ParseSeed reads a seed given on a command line with the rules a league
// file's seed follows, so play and league refuse the same values with the
// same words.
func ParseSeed(s string) (uint64, error) {
	v, err := wholeNumber(s, true)
	if err != nil {
		return 0, fmt.Errorf("seed: %w", err)
	}
	return v.(uint64), nil
}

// knownEnv is every environment variable starting with EnvPrefix that the
// arena reads, by key; ARENA_AGENT_PLUGIN is the plugin handshake's cookie,
// set by the arena for its agents.
func knownEnv() map[string]string {
	out := map[string]string{"ARENA_AGENT_PLUGIN": ""}
	for _, k := range configKeys() {
		out[EnvName(k)] = k
	}
	return out
}

// envWarnings names each ARENA_ variable of environ that matches no key,
// with the closest variable that does: a misspelt override is otherwise
// ignored without a word.
func envWarnings(environ []string) []string {
	known := knownEnv()
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix+"_") || strings.HasPrefix(name, EnvPrefix+"_TEST_") {
			continue
		}
		if _, ok := known[name]; ok {
			continue
		}
		best, bestD := "", math.MaxInt
		for _, n := range names {
			if n == "ARENA_AGENT_PLUGIN" {
				continue
			}
			if d := editDistance(name, n); d < bestD {
				best, bestD = n, d
			}
		}
		msg := fmt.Sprintf("$%s matches no league key and is ignored", name)
		if best != "" {
			msg += fmt.Sprintf(" (did you mean $%s, key %s?)", best, known[best])
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return out
}

// EnvWarnings checks the process's environment (see envWarnings).
func EnvWarnings() []string { return envWarnings(os.Environ()) }
