package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/agents"
	"arena/agents/builtin"
	"arena/internal/linkcheck"
	"arena/internal/testprograms"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// The lean host must not link what makes the arena binary slow to start:
// the store (SQLite), the CLI and configuration libraries, the browser
// driver of the viewer tests.
func TestLeanHostLinksNoHeavyPackages(t *testing.T) {
	linkcheck.Refuse(t, false, "modernc.org/sqlite", "github.com/spf13/viper", "github.com/spf13/cobra", "github.com/chromedp/chromedp", "arena/arena/results/resultsdb", "arena/arena/league")
}

// The lean host serves a built-in and a Lua agent through the same
// launcher the arena uses (as agent host and sandbox init), and answers the
// build-id question with the arena's own id.
func TestLeanHostServesAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lean host")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "arena-agent")
	// Unstamped, like this test binary: the build id covers the VCS stamp
	// (arena and arena-agent built by one go build carry the same one).
	if err := testprograms.Install(".", dir, []string{"-buildvcs=false", testprograms.NoDWARF}, "."); err != nil {
		t.Fatal(err)
	}
	id, err := exec.Command(bin, agents.BuildIDArg).Output()
	if err != nil || strings.TrimSpace(string(id)) != agents.BuildID() {
		t.Fatalf("build id %q (%v), want %q", id, err, agents.BuildID())
	}
	script := filepath.Join(dir, "first.lua")
	if err := os.WriteFile(script, []byte("function choose_move(state, clock)\n  return state:legal_moves()[1]\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &host.Launcher{Self: []string{bin, agents.HostArg}, Builtins: builtin.Names(), Notify: func(string) {}}
	for _, ref := range []string{"builtin:random", "lua:" + script} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		p, err := l.Launch(ctx, ref, host.Options{})
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", ref, err)
		}
		info := protocol.StartInfo{GameID: "t", Game: "bohnenspiel", Params: map[string]string{}, Clock: protocol.Clock{Model: "per-move", MoveLimit: time.Minute, FirstMoveLimit: time.Minute}}
		err = p.Agent.Start(ctx, info)
		var move string
		if err == nil {
			move, err = p.Agent.Move(ctx, protocol.MoveRequest{Board: "", TimeLeft: time.Minute, Deadline: time.Now().Add(time.Minute)})
		}
		// The agent is the lean host: the sandbox's init, which became
		// the agent (its command line stays the init's), or, unsandboxed,
		// the process started with the host's argument.
		var cmdlines []string
		served := false
		for _, pid := range p.Pids() {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			c := strings.ReplaceAll(string(b), "\x00", " ")
			cmdlines = append(cmdlines, c)
			exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
			served = served || strings.HasPrefix(c, bin+" "+agents.HostArg+" ") || exe == bin && pid == p.Pid() && p.Sandboxed()
		}
		p.Kill()
		cancel()
		if err != nil || move == "" {
			t.Fatalf("%s: move %q, %v\nstderr: %s", ref, move, err, p.Stderr())
		}
		if !served {
			t.Fatalf("%s: no process of the agent runs the lean host: %q", ref, cmdlines)
		}
	}
}
