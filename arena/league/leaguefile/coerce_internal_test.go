package leaguefile

import (
	"math"
	"strings"
	"testing"
)

// wholeNumber at each boundary it draws: zero, the sign, 2^63 and 2^64,
// for every type a configuration value arrives as.
func TestWholeNumberBoundaries(t *testing.T) {
	cases := []struct {
		data     any
		unsigned bool
		want     any // nil: refused
	}{
		{0, true, 0},
		{-1, true, nil},
		{0, false, 0},
		{-1, false, -1},
		{int64(0), true, int64(0)},
		{int64(-1), true, nil},
		{int32(-1), false, int64(-1)},
		{uint64(math.MaxInt64), false, uint64(math.MaxInt64)},
		{uint64(math.MaxInt64) + 1, false, nil},
		{0.0, true, uint64(0)},
		{-0.5, true, nil},
		{-1.0, true, nil},
		{2.0, true, uint64(2)},
		{2.5, true, nil},
		{18446744073709549568.0, true, uint64(18446744073709549568)}, // the largest float64 below 2^64
		{18446744073709551616.0, true, nil},                          // 2^64
		{-9223372036854775808.0, false, int64(math.MinInt64)},        // -2^63
		{-9223372036854777856.0, false, nil},                         // the next float64 below
		{9223372036854774784.0, false, int64(9223372036854774784)},   // the largest float64 below 2^63
		{9223372036854775808.0, false, nil},                          // 2^63
		{math.Inf(1), false, nil},
		{math.NaN(), true, nil},
	}
	for _, c := range cases {
		got, err := wholeNumber(c.data, c.unsigned)
		if c.want == nil {
			if err == nil {
				t.Errorf("wholeNumber(%v, unsigned %v) = %v, want a refusal", c.data, c.unsigned, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("wholeNumber(%v, unsigned %v) = %v (%T), %v; want %v (%T)", c.data, c.unsigned, got, got, err, c.want, c.want)
		}
	}
}

// suggest offers the closest known key within two edits, the first of
// equals, and nothing for a key no longer than its distance.
func TestSuggestBoundaries(t *testing.T) {
	known := []string{"games", "games_per_pairing", "seed", "abcd", "abce"}
	for k, want := range map[string]string{
		"gmes":            "games",             // one edit
		"gaes_per_pairng": "games_per_pairing", // two edits
		"gaes_pr_pairng":  "",                  // three
		"abcx":            "abcd",              // a tie: the first known
		"sd":              "",                  // two edits, but the key is only two long
		"sed":             "seed",              // one edit, shorter than the key
	} {
		if got := suggest(k, known); got != want {
			t.Errorf("suggest(%q) = %q, want %q", k, got, want)
		}
	}
}

// A misspelt variable as close to two keys' variables suggests the first
// of them in name order, the same on every run.
func TestEnvWarningTieGoesToTheFirstName(t *testing.T) {
	got := envWarnings([]string{"ARENA_SPRT_ELO2=5"})
	if len(got) != 1 || !strings.Contains(got[0], "did you mean $ARENA_SPRT_ELO0,") {
		t.Errorf("warnings %q, want one suggesting $ARENA_SPRT_ELO0 (ELO1 is as close, and later)", got)
	}
}
