package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// checkParams keep each game's check short: small boards where the game
// has a size.
var checkParams = map[string][]string{
	"cachex":         {"--param", "n=5"},
	"dots-and-boxes": {"--param", "rows=3", "--param", "cols=3"},
	"hex-crossout":   {"--param", "free=12"},
}

// copyTree copies the files of src into dst, as a student copies a
// scaffold somewhere of their own.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNewAgentScaffoldsPassCheck writes a Go and a Lua agent for every
// game, builds and tests each Go agent from a copy outside the repository
// the way a student would (go.mod as written: no hand-written replace),
// and passes arena check with each.
func TestNewAgentScaffoldsPassCheck(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	if testing.Short() {
		t.Skip("builds five agents")
	}
	e0, _, _ := testEnv(t)
	games := e0.registry.Names()
	if len(games) != 5 {
		t.Fatalf("games %v", games)
	}
	root := t.TempDir()
	bins := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // two builds at once on a small machine
	for _, game := range games {
		made := filepath.Join(root, "made", game+"bot")
		e, out, errb := testEnv(t)
		if err := run(t, e, "new-agent", "--game", game, "--lang", "go", made); err != nil {
			t.Fatalf("new-agent %s: %v\n%s%s", game, err, out, errb)
		}
		if !strings.Contains(out.String(), "go mod tidy: done") {
			t.Fatalf("new-agent %s did not tidy:\n%s", game, out)
		}
		mod, err := os.ReadFile(filepath.Join(made, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(mod), "replace arena => /") || !strings.Contains(string(mod), "require arena v0.0.0") {
			t.Fatalf("go.mod of %s:\n%s", game, mod)
		}
		student := filepath.Join(root, "student", game+"bot")
		copyTree(t, made, student)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			bin := filepath.Join(student, game+"bot")
			for _, args := range [][]string{{"build", "-o", bin, "."}, {"test", "."}} {
				cmd := exec.Command("go", args...)
				cmd.Dir = student
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: go %s: %v\n%s", game, strings.Join(args, " "), err, b)
					return
				}
			}
			mu.Lock()
			bins[game] = bin
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, game := range games {
		for _, lang := range []string{"go", "lua"} {
			t.Run(game+"/"+lang, func(t *testing.T) {
				t.Parallel()
				agent := bins[game]
				if lang == "lua" {
					dir := filepath.Join(root, "lua", game+"bot")
					e, out, errb := testEnv(t)
					if err := run(t, e, "new-agent", "--game", game, "--lang", "lua", dir); err != nil {
						t.Fatalf("new-agent: %v\n%s%s", err, out, errb)
					}
					agent = "lua:" + filepath.Join(dir, game+"bot.lua")
				}
				args := append([]string{agent, "--game", game, "--games", "2"}, checkParams[game]...)
				r, err := checkReport(t, args...)
				if err != nil || !r.Pass {
					t.Fatalf("check %v: %v\n%s", args, err, fmt.Sprintf("%+v", r.Problems))
				}
				// Both seats, both opponents, moves of its own.
				if len(r.Games) != 2 || r.Games[0].Seat == r.Games[1].Seat || r.Time.Moves == 0 {
					t.Fatalf("games %+v, moves %d", r.Games, r.Time.Moves)
				}
			})
		}
	}
}

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

// TestCheckGoPackageDir: arena check of a Go agent's directory builds it
// into the agent cache first, as a league does.
func TestCheckGoPackageDir(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an agent")
	}
	// The agent cache goes to a temporary directory; the Go build cache
	// stays where it is (it defaults to one under XDG_CACHE_HOME too).
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "dirbot")
	e, out, errb := testEnv(t)
	if err := run(t, e, "new-agent", "--game", "bohnenspiel", "--lang", "go", dir); err != nil {
		t.Fatalf("new-agent: %v\n%s%s", err, out, errb)
	}
	r, err := checkReport(t, dir, "--game", "bohnenspiel", "--games", "1")
	if err != nil || !r.Pass || r.Agent != dir || r.Name != "dirbot" {
		t.Fatalf("check of the directory: %v, %+v", err, r)
	}
	// play accepts what check accepts.
	e, out, errb = testEnv(t)
	if err := run(t, e, "play", "bohnenspiel", dir, "random", "--games", "2"); err != nil {
		t.Fatalf("play with the directory: %v\n%s%s", err, out, errb)
	}
	if !strings.Contains(out.String(), "dirbot ") {
		t.Errorf("no row for the directory's agent:\n%s", out)
	}
	// A package that is not a program is a refused agent.
	lib := filepath.Join(t.TempDir(), "lib")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "go.mod"), []byte("module lib\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "lib.go"), []byte("package lib\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _, _ = testEnv(t)
	if err := run(t, e, "play", "bohnenspiel", lib, "random"); exitCode(err) != exitBroken || !strings.Contains(fmt.Sprint(err), "not package main") {
		t.Errorf("play with a library package: %v (exit %d), want a refusal", err, exitCode(err))
	}
}
