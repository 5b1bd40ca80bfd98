package authoring

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/agents/course/courseref"
	"arena/cmd/arena/internal/cli"
	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
	"arena/internal/forksafe"
	"arena/internal/testprograms"
)

// checkParams keep each game's check short: small boards where the game
// has a size.
var checkParams = map[string][]string{
	"cachex":         {"--param", "n=5"},
	"dots-and-boxes": {"--param", "rows=3", "--param", "cols=3"},
	"hex-crossout":   {"--param", "free=12"},
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
	e0, _, _ := inproc.Env(t)
	games := e0.Registry.Names()
	if len(games) != 5 {
		t.Fatalf("games %v", games)
	}
	root := t.TempDir()
	// Two scaffolds at a time are written (with their go mod tidy), built
	// and tested, while the checks that need no build (the Lua agents')
	// and then each Go agent's as its build ends run beside them: the go
	// commands are most of this test, and nothing here is timed.
	sem := make(chan struct{}, 2)
	built := map[string]*scaffoldBuild{}
	for _, game := range games {
		b := &scaffoldBuild{done: make(chan struct{})}
		built[game] = b
		e, out, errb := inproc.Env(t)
		go func() {
			defer close(b.done)
			sem <- struct{}{}
			defer func() { <-sem }()
			b.bin, b.err = buildScaffold(e, out, errb, root, game)
		}()
	}
	for _, game := range games {
		for _, lang := range []string{"go", "lua"} {
			t.Run(game+"/"+lang, func(t *testing.T) {
				t.Parallel()
				var agent string
				if lang == "lua" {
					dir := filepath.Join(root, "lua", game+"bot")
					e, out, errb := inproc.Env(t)
					if err := inproc.Run(t, e, "new-agent", "--game", game, "--lang", "lua", dir); err != nil {
						t.Fatalf("new-agent: %v\n%s%s", err, out, errb)
					}
					agent = "lua:" + filepath.Join(dir, game+"bot.lua")
				} else {
					b := built[game]
					<-b.done
					if b.err != nil {
						t.Fatal(b.err)
					}
					agent = b.bin
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

// scaffoldBuild is one game's Go scaffold being built: the program once
// done is closed, or why not.
type scaffoldBuild struct {
	done chan struct{}
	bin  string
	err  error
}

// buildScaffold writes the Go scaffold of game with new-agent under
// root/made, checks its go.mod, copies it to root/student (a folder of the
// student's own), and there builds it and runs its test as the student
// would. It returns the program. It runs beside the test's goroutine, so
// it returns its failure instead of failing the test.
func buildScaffold(e *cli.Env, out, errb *bytes.Buffer, root, game string) (string, error) {
	made := filepath.Join(root, "made", game+"bot")
	if err := e.Run(context.Background(), "new-agent", "--game", game, "--lang", "go", made); err != nil {
		return "", fmt.Errorf("new-agent %s: %w\n%s%s", game, err, out, errb)
	}
	if !strings.Contains(out.String(), "go mod tidy: done") {
		return "", fmt.Errorf("new-agent %s did not tidy:\n%s", game, out)
	}
	mod, err := os.ReadFile(filepath.Join(made, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("go.mod of %s: %w", game, err)
	}
	if !strings.Contains(string(mod), "replace arena => /") || !strings.Contains(string(mod), "require arena v0.0.0") {
		return "", fmt.Errorf("go.mod of %s:\n%s", game, mod)
	}
	// The student's folder is kept in the user's cache, named by the
	// scaffold's content: a run with the same scaffold and arena sources
	// finds the program current and the test's pass cached, as a student
	// building again would (testprograms.Folder).
	student := filepath.Join(root, "student", game+"bot")
	bin := filepath.Join(student, game+"bot")
	key, err := courseref.Hash(made)
	if err != nil {
		return "", fmt.Errorf("scaffold of %s: %w", game, err)
	}
	if kept, unlock, err := testprograms.Folder("scaffold", []byte(key)); err == nil {
		defer unlock()
		student = filepath.Join(kept, game+"bot")
	}
	if err := clitest.CopyDir(made, student); err != nil {
		return "", fmt.Errorf("copy of %s: %w", game, err)
	}
	built := filepath.Join(student, game+"bot")
	for _, args := range [][]string{{"build", "-o", built, "."}, {"test", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = student
		// No DWARF (-w) in the program and the test binary: a third of
		// each link, and the commands are otherwise the student's. The
		// user's GOFLAGS stay.
		cmd.Env = append(os.Environ(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod -ldflags=-w"))
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: go %s: %w\n%s", game, strings.Join(args, " "), err, b)
		}
	}
	// The checks play this run's own copy: a later run may build the
	// kept one again while they do.
	if built != bin {
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return "", err
		}
		if err := forksafe.Copy(built, bin); err != nil {
			return "", fmt.Errorf("program of %s: %w", game, err)
		}
	}
	return bin, nil
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
	e, out, errb := inproc.Env(t)
	if err := inproc.Run(t, e, "new-agent", "--game", "bohnenspiel", "--lang", "go", dir); err != nil {
		t.Fatalf("new-agent: %v\n%s%s", err, out, errb)
	}
	r, err := checkReport(t, dir, "--game", "bohnenspiel", "--games", "1")
	if err != nil || !r.Pass || r.Agent != dir || r.Name != "dirbot" {
		t.Fatalf("check of the directory: %v, %+v", err, r)
	}
	// play accepts what check accepts.
	e, out, errb = inproc.Env(t)
	if err := inproc.Run(t, e, "play", "bohnenspiel", dir, "random", "--games", "2"); err != nil {
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
	e, _, _ = inproc.Env(t)
	if err := inproc.Run(t, e, "play", "bohnenspiel", lib, "random"); cli.ExitCode(err) != cli.ExitBroken || !strings.Contains(fmt.Sprint(err), "not package main") {
		t.Errorf("play with a library package: %v (exit %d), want a refusal", err, cli.ExitCode(err))
	}
}
