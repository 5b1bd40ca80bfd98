package cli

import "testing"

func TestDisplayNameIsThePathWithoutOptions(t *testing.T) {
	cases := map[string]string{
		"course:/x/c424b?class=student_player.StudentPlayer": "c424b",
		"course:/x/c424b?class=a.B&java=/usr/bin/java":       "c424b",
		"course:/x/bot.py":               "bot.py",
		"lua:/agents/minimax.lua?mem=64": "minimax.lua",
		"/bin/agents/mybot":              "mybot",
		"builtin:random":                 "random",
		"builtin:baseline?depth=3":       "baseline?depth=3",
	}
	for ref, want := range cases {
		if got := displayName(ref); got != want {
			t.Errorf("displayName(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestPlayerNamesTellCopiesApart(t *testing.T) {
	n := playerNames("course:/a/c424b?class=x.Y", "course:/b/c424b")
	if n != [2]string{"c424b#1", "c424b#2"} {
		t.Fatalf("names %q", n)
	}
}
