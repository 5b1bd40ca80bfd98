// Package agents hosts the agents that run inside the arena binary itself:
// when the arena re-executes itself as an agent plugin, Serve picks the
// agent named by the reference and serves it.
package agents

import (
	"fmt"
	"strings"

	"arena/agents/builtin"
	"arena/agents/course"
	"arena/agents/lua"
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
		a, err := builtin.New(strings.TrimPrefix(ref, "builtin:"))
		if err != nil {
			return err
		}
		sdk.Serve(a)
		return nil
	case strings.HasPrefix(ref, lua.Prefix):
		return lua.Serve(ref)
	case strings.HasPrefix(ref, course.Prefix):
		return course.Serve(ref)
	}
	return fmt.Errorf("cannot host agent %q", ref)
}
