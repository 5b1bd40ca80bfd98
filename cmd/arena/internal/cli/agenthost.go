package cli

import (
	"context"
	debugbuildinfo "debug/buildinfo"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"arena/agents"
	"arena/arena/buildinfo"
	"arena/internal/childcmd"
)

// LeanHostName is the lean agent host's file name (cmd/arena-agent). Built
// beside the arena (go build -o DIR ./cmd/...), it serves built-in, Lua
// and course agents, and is their sandboxes' init, which becomes the
// agent, without the store, CLI and configuration packages this binary
// initialises before main: agents start faster and stay smaller
// (docs/performance.md).
const LeanHostName = "arena-agent"

// InitName is the sandbox init's file name (cmd/arena-init). Built beside
// the arena, it is the init of every sandbox whose agent is a program of
// its own (an SDK binary) in place of the agent host: it links only the
// sandbox, so it starts in a fraction of the time. A built-in, Lua or
// course agent needs no init of its own: the agent host is the init and
// becomes the agent (sandbox.Config.InProcess); a course agent's Java or
// Python runtime is its child.
const InitName = "arena-init"

// AgentHostEnv names the variable that chooses the agent host: "self" for
// this binary, or the path of an arena-agent binary.
const AgentHostEnv = "ARENA_AGENT_HOST"

// staleAfter is how much older than the arena binary a lean host may be: a
// build of both writes them within moments; a lean host left from an
// earlier build may serve older agent code than this arena's, which a build
// without version-control stamps cannot tell from its BuildID.
const staleAfter = 5 * time.Minute

// agentHost picks the program that serves built-in, Lua and course agents:
// the lean host where one of the same build is found, else this binary.
// The note says why a lean host named explicitly was not used ("" when
// nothing needs saying).
func agentHost(self string, getenv func(string) string) (path, note string) {
	want := getenv(AgentHostEnv)
	switch want {
	case "self":
		return self, ""
	case "":
		lean := filepath.Join(filepath.Dir(self), LeanHostName)
		if _, err := os.Stat(lean); err != nil {
			return self, ""
		}
		if err := sameBuild(self, lean); err != nil {
			return self, ""
		}
		return lean, ""
	}
	abs, err := filepath.Abs(want)
	if err == nil {
		err = sameBuild(self, abs)
	}
	if err != nil {
		return self, fmt.Sprintf("arena: %s=%s is not used, agents are served by the arena binary itself: %v", AgentHostEnv, want, err)
	}
	return abs, ""
}

// builtWith checks that the program at path can be one built with self:
// an executable file no older than self by more than a build takes.
func builtWith(self, path string) error {
	fs, err := os.Stat(self)
	if err != nil {
		return err
	}
	fp, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fp.IsDir() || fp.Mode()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	if fp.ModTime().Before(fs.ModTime().Add(-staleAfter)) {
		return fmt.Errorf("%s is older than the arena binary %s: rebuild both (go build -o DIR ./cmd/...)", path, self)
	}
	return nil
}

// sameBuild checks that lean serves the agents this arena binary would.
func sameBuild(self, lean string) error {
	if err := builtWith(self, lean); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := childcmd.Command(ctx, lean, agents.BuildIDArg).Output()
	if err != nil {
		return fmt.Errorf("%s %s: %w", lean, agents.BuildIDArg, err)
	}
	if got, want := strings.TrimSpace(string(out)), agents.BuildID(); got != want {
		return fmt.Errorf("%s is of another build (build id %q, this arena %q): rebuild both (go build -o DIR ./cmd/...)", lean, got, want)
	}
	return nil
}

// sandboxInit is the init binary beside self when one of the same build
// is there, else "": the agent host is then the init, as it can be.
func sandboxInit(self string) string {
	p := filepath.Join(filepath.Dir(self), InitName)
	if sameInitBuild(self, p, buildinfo.Current()) != nil {
		return ""
	}
	return p
}

// sameInitBuild checks that init was built with self, from the same
// source: an init of another build may read the arena's instructions
// otherwise. The toolchain's stamps (module, revision, modified flag, Go)
// must be want's, and init no older than self by more than a build takes.
func sameInitBuild(self, init string, want buildinfo.Info) error {
	if err := builtWith(self, init); err != nil {
		return err
	}
	bi, err := debugbuildinfo.ReadFile(init)
	if err != nil {
		return fmt.Errorf("%s: %w", init, err)
	}
	if got := buildinfo.FromBuildInfo(bi); got != want {
		return fmt.Errorf("%s is of another build (%s, this arena %s): rebuild both (go build -o DIR ./cmd/...)", init, got.Stamp(), want.Stamp())
	}
	return nil
}
