package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewAgentRefuses: an unknown game or language, a non-empty
// directory, a checkout that is not the arena's.
func TestNewAgentRefuses(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess", "--lang", "go", filepath.Join(t.TempDir(), "a")}, "chess"},
		{[]string{"--game", "cachex", "--lang", "rust", filepath.Join(t.TempDir(), "a")}, "want go or lua"},
		{[]string{"--game", "cachex", "--lang", "go", full}, "not empty"},
		{[]string{"--game", "cachex", "--lang", "go", "--arena-src", t.TempDir(), filepath.Join(t.TempDir(), "a")}, "not the arena's source checkout"},
	}
	for _, c := range cases {
		e, _, _ := testEnv(t)
		err := run(t, e, append([]string{"new-agent"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestNewAgentLuaNames: the script is named after the directory and
// points at docs/lua.md of the checkout.
func TestNewAgentLuaNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Bot")
	e, _, _ := testEnv(t)
	if err := run(t, e, "new-agent", "--game", "dots-and-boxes", "--lang", "lua", dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "my-bot.lua"))
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := arenaSource("")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"function init(game_info)", "function choose_move(state, clock)", src + "/docs/lua.md"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("script lacks %q", want)
		}
	}
}
