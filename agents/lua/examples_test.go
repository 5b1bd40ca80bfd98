package lua

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
)

// exampleGames pairs each example with its game. Hex cross-out boards
// are drawn per game from the generator's seed, so the games differ;
// Cachex is played on 7×7 to keep the test quick.
var exampleGames = []struct {
	script string
	game   engine.Game
	params func(i int) engine.Params
}{
	{"bohnenspiel.lua", bohnenspiel.Game{}, func(int) engine.Params { return nil }},
	{"dots-and-boxes.lua", dotsboxes.Game{}, func(int) engine.Params { return nil }},
	{"pentago-twist.lua", pentagotwist.Game{}, func(int) engine.Params { return nil }},
	{"cachex.lua", cachex.Game{}, func(int) engine.Params { return engine.Params{"n": "7"} }},
	{"hex-crossout.lua", hexcrossout.Game{}, func(i int) engine.Params { return engine.Params{"seed": fmt.Sprint(i + 1)} }},
}

// TestExamplesPlayCleanGames plays each example against builtin random
// (seats alternating, fixed seeds) through the agent's own Move and wants
// every game played to its end without a script error or an illegal move.
// The scripts budget their search from a 2 s limit; the hard deadline is a
// minute past it, so a loaded machine slows the games but cannot fail
// them. How strong the examples are is measured, not tested:
// `go run ./bench/strength -examples` plays them against random and
// reports each win rate against its target (docs/strength.md).
func TestExamplesPlayCleanGames(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 2
	}
	for _, ex := range exampleGames {
		t.Run(ex.script, func(t *testing.T) {
			t.Parallel()
			a := newAgent(t, filepath.Join("examples", ex.script), nil)
			start := time.Now()
			wins, failures := winRate(t, ex.game, ex.params, a, games, 2*time.Second, time.Minute)
			t.Logf("%s: %d/%d wins against random in %v", ex.script, wins, games, time.Since(start).Round(time.Millisecond))
			for _, f := range failures {
				t.Errorf("failure: %v", f)
			}
		})
	}
}

// TestDocsShowTheExamples keeps docs/lua.md's complete examples the ones
// tested here.
func TestDocsShowTheExamples(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lua.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exampleGames {
		src, err := os.ReadFile(filepath.Join("examples", ex.script))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```lua\n"+string(src)+"```") {
			t.Errorf("docs/lua.md does not show examples/%s as it is", ex.script)
		}
	}
}
