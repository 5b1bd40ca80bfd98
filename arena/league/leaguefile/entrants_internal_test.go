package leaguefile

import "testing"

func TestGlobRoot(t *testing.T) {
	for glob, want := range map[string]string{
		"/c/subs/*/bot.py":  "/c/subs",
		"/c/subs/team-*":    "/c/subs",
		"/c/subs/[ab]*.lua": "/c/subs",
		"/c/subs/one.lua":   "/c/subs",
	} {
		if got := globRoot(glob); got != want {
			t.Errorf("globRoot(%q) = %q, want %q", glob, got, want)
		}
	}
}
