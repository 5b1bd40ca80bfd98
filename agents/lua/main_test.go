package lua

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"arena/agents/builtin"
	"arena/plugins/sdk"
)

// The test binary doubles as the agent host: the launcher re-executes it
// with hostArg and an agent reference, and TestMain serves that agent as a
// real go-plugin subprocess, Lua agents through Serve exactly as the arena
// binary does.
const hostArg = "__test_agent"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostArg {
		ref := os.Args[2]
		if strings.HasPrefix(ref, Prefix) {
			if err := Serve(ref); err != nil {
				fmt.Fprintln(os.Stderr, "lua host:", err)
				os.Exit(1)
			}
			return
		}
		a, err := builtin.New(strings.TrimPrefix(ref, "builtin:"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sdk.Serve(a)
		return
	}
	os.Exit(m.Run())
}
