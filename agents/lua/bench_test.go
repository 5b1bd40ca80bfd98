package lua

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	glua "github.com/yuin/gopher-lua"

	"arena/agents/builtin"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/sdk"
)

// benchPosition is a Bohnenspiel middle game.
func benchPosition(b *testing.B) engine.State {
	st := bohnenspiel.New()
	if err := engine.Replay(st, []string{"PIT 0 2", "PIT 1 4", "PIT 0 5", "PIT 1 0", "PIT 0 1", "PIT 1 3"}); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkMove is a whole move request, as the SDK adapter makes it: the
// Lua random agent (sandboxed call under a context and the heap watch, a
// state object, the legal moves as text) against the native random agent.
func BenchmarkMove(b *testing.B) {
	st := benchPosition(b)
	var legal []string
	for _, m := range st.LegalMoves(nil) {
		legal = append(legal, st.FormatMove(m))
	}
	game := sdk.Game{Game: "bohnenspiel", Seed: 1}
	run := func(b *testing.B, a sdk.Agent) {
		ctx := context.Background()
		if s, ok := a.(sdk.Starter); ok {
			if err := s.Start(ctx, game); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		for range b.N {
			turn := sdk.Turn{Game: game, State: st.Clone(), Legal: legal}
			turn.Deadline = time.Now().Add(time.Second)
			if _, err := a.Move(ctx, turn); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	}
	b.Run("lua-random", func(b *testing.B) {
		p := writeScript(b, "random.lua", `
function choose_move(state, clock)
  local moves = state:legal_moves()
  return moves[math.random(#moves)]
end`)
		a, err := New(p, Options{Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		run(b, a)
	})
	b.Run("native-random", func(b *testing.B) {
		run(b, &builtin.Random{})
	})
}

// BenchmarkSearchNode is the cost per node of alpha-beta to depth 5 with
// a Lua evaluation (the search itself is native) against the same search
// with a Go evaluation.
func BenchmarkSearchNode(b *testing.B) {
	st := benchPosition(b)
	search := func(b *testing.B, eval func(L *glua.LState, env *gameEnv) evalFunc) {
		src := rand.NewPCG(1, pcgStream)
		rng := rand.New(src)
		L := newSandbox(io.Discard, src, rng)
		defer L.Close()
		env := newGameEnv(L, "bohnenspiel", nil, 0, src, rng)
		env.openSearch(L)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		L.SetContext(fastDone{ctx, ctx.Done()})
		if err := L.DoString(`
function scores(s, me)
  local sc = s:scores()
  return sc[me] - sc[1 - me]
end
local function target(seeds) return seeds == 1 or seeds == 3 or seeds == 5 end
function weighted(state, me)
  local pits = state:cells().pits
  local scores = state:scores()
  local mine, theirs = pits[me], pits[1 - me]
  local targets, seeds = 0, 0
  for i = 0, 5 do
    seeds = seeds + mine[i] - theirs[i]
    if target(theirs[i]) then targets = targets + 1 end
    if target(mine[i]) then targets = targets - 1 end
  end
  return 1.0 * (scores[me] - scores[1 - me]) + 0.7 * targets + 0.3 * seeds
end`); err != nil {
			b.Fatal(err)
		}
		f := eval(L, env)
		nodes := 0
		b.ResetTimer()
		for range b.N {
			s := &searcher{ctx: ctx, eval: f, me: st.ToMove(), rng: rng, hardStop: func(err error) { b.Fatal(err) }}
			nodes += s.searchAlphaBeta(st, 5).count
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	}
	luaFn := func(name string) func(L *glua.LState, env *gameEnv) evalFunc {
		return func(L *glua.LState, env *gameEnv) evalFunc {
			return env.luaEval(L, L.GetGlobal(name).(*glua.LFunction))
		}
	}
	b.Run("lua-scores", func(b *testing.B) { search(b, luaFn("scores")) })
	b.Run("lua-weighted-cells", func(b *testing.B) { search(b, luaFn("weighted")) })
	b.Run("native-scores", func(b *testing.B) {
		search(b, func(*glua.LState, *gameEnv) evalFunc {
			return func(st engine.State, me int) float64 {
				sc := st.Scores()
				return float64(sc[me] - sc[1-me])
			}
		})
	})
}
