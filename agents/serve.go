// Package agents hosts the agents that run inside the arena binary itself:
// when the arena re-executes itself as an agent plugin, Serve picks the
// agent named by the reference and serves it.
package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"arena/agents/builtin"
	"arena/agents/course"
	"arena/agents/lua"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// HostArg is the hidden first argument that makes the arena binary serve
// an agent instead of running the CLI.
const HostArg = "__agent"

// Serve serves the agent named by ref ("builtin:NAME", or "lua:PATH" or
// "course:PATH" with optional "?k=v" parameters) as a plugin. It does not return on success.
func Serve(ref string) error {
	switch {
	case strings.HasPrefix(ref, "builtin:"):
		name := strings.TrimPrefix(ref, "builtin:")
		a, err := builtin.New(name)
		if err != nil {
			return err
		}
		// A new agent per game: a process the arena keeps for several
		// games carries nothing from one to the next.
		sdk.Serve(a, sdk.WithFreshAgent(func() sdk.Agent {
			if b, err := builtin.New(name); err == nil {
				return b
			}
			return a
		}))
		return nil
	case strings.HasPrefix(ref, lua.Prefix):
		return lua.Serve(ref)
	case strings.HasPrefix(ref, course.Prefix):
		return course.Serve(ref)
	}
	return fmt.Errorf("cannot host agent %q", ref)
}

// BuildIDArg is the hidden argument that makes an agent host print its
// BuildID and exit.
const BuildIDArg = "__build-id"

// agentDeps are the modules both the arena and a separate agent host link
// whose versions change how agents run.
var agentDeps = []string{"github.com/yuin/gopher-lua", "github.com/hashicorp/go-plugin", "google.golang.org/grpc", "google.golang.org/protobuf"}

// BuildID identifies what an agent host binary serves: the Go version, the
// protocol version, the built-in agents, the versions of the modules agents
// run on and, where the build recorded them, the source revision and
// whether the tree was modified. The arena uses a separate agent host only
// when its BuildID equals the arena's own (and the host is not older than
// the arena binary, which catches source edits a build without version
// control stamps does not record).
func BuildID() string {
	h := sha256.New()
	fmt.Fprintf(h, "protocol %d\nbuiltins %s\n", protocol.Version, strings.Join(builtin.Names(), ","))
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "go %s\nmain %s %s %s\n", bi.GoVersion, bi.Main.Path, bi.Main.Version, bi.Main.Sum)
		for _, d := range bi.Deps {
			if !slices.Contains(agentDeps, d.Path) {
				continue
			}
			fmt.Fprintf(h, "dep %s %s %s\n", d.Path, d.Version, d.Sum)
		}
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") || s.Key == "GOARCH" || s.Key == "GOOS" || s.Key == "-tags" {
				fmt.Fprintf(h, "setting %s=%s\n", s.Key, s.Value)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}
