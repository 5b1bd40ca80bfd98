// Command goagent is a Go package agent for the league tests: arena builds
// it on demand from this directory.
package main

import (
	"fmt"
	"os"

	"arena/agents/builtin"
	"arena/plugins/sdk"
)

func main() {
	a, err := builtin.New("greedy")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sdk.Serve(a)
}
