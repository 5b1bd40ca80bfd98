package lua

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
	"arena/plugins/sdk"
)

// ask runs choose_move once in st and returns what it returned: the tests'
// scripts answer with text describing what they saw.
func ask(t *testing.T, g engine.Game, params map[string]string, st engine.State, src string) string {
	t.Helper()
	a := newAgent(t, writeScript(t, "probe.lua", src), nil)
	out, err := moveAt(t, a, g, params, st, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func start(t *testing.T, g engine.Game, params map[string]string) engine.State {
	t.Helper()
	st, err := g.NewState(engine.Params(params))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func play(t *testing.T, st engine.State, moves ...string) engine.State {
	t.Helper()
	if err := engine.Replay(st, moves); err != nil {
		t.Fatal(err)
	}
	return st
}

func legalTexts(st engine.State) string {
	var out []string
	for _, m := range st.LegalMoves(nil) {
		out = append(out, st.FormatMove(m))
	}
	return strings.Join(out, ";")
}

func TestStateMethods(t *testing.T) {
	st := play(t, start(t, bohnenspiel.Game{}, nil), "PIT 0 2")
	got := ask(t, bohnenspiel.Game{}, nil, st, `
function choose_move(state, clock)
  local moves = state:legal_moves()
  local next = state:apply(moves[1])
  assert(next ~= state and state:ply() == 1 and next:ply() == 2, "apply changed the state")
  assert(state:clone() == state and state:clone() ~= next, "clone or __eq")
  assert(#state:hash() == 16 and state:hash() ~= next:hash(), "hash")
  assert(state:legal_count() == #moves, "legal_count")
  assert(state:result() == nil and not state:is_terminal(), "result before the end")
  assert(tostring(state):find("bohnenspiel state, ply 1", 1, true), tostring(state))
  local ok, err = pcall(state.apply, state, "PIT 1 9")
  assert(not ok and err:find("illegal move", 1, true), "illegal apply: " .. tostring(err))
  local sc = next:scores()
  return table.concat({ table.concat(moves, ";"), state:to_move(), state:seat(), state:game(), state:board(), sc[0], sc[1] }, "|")
end`)
	want := strings.Join([]string{legalTexts(st), "1", "1", "bohnenspiel", st.Text(), "0", "0"}, "|")
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestResultAtTheEnd(t *testing.T) {
	st := start(t, dotsboxes.Game{}, map[string]string{"rows": "2", "cols": "3"})
	r := rand.New(rand.NewPCG(3, 4))
	var buf []engine.Move
	for st.LegalCount() > 1 {
		var m engine.Move
		m, buf, _ = engine.RandomLegal(st, r, buf)
		st.Apply(m)
	}
	got := ask(t, dotsboxes.Game{}, map[string]string{"rows": "2", "cols": "3"}, st, `
function choose_move(state)
  local last = state:apply(state:legal_moves()[1])
  local r = last:result()
  assert(last:is_terminal() and last:to_move() == -1 and #last:legal_moves() == 0, "not over")
  return string.format("%d %s %d %d %q", r.winner, tostring(r.draw), r.scores[0], r.scores[1], r.reason)
end`)
	last := st.Clone()
	last.Apply(last.LegalMoves(nil)[0])
	res := last.Result()
	want := fmt.Sprintf("%d %v %d %d %q", res.Winner, res.Draw, res.Scores[0], res.Scores[1], res.Reason)
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestCellsCoordinates checks each game's structured view against the
// coordinates of its move text.
func TestCellsCoordinates(t *testing.T) {
	t.Run("bohnenspiel", func(t *testing.T) {
		st := start(t, bohnenspiel.Game{}, nil)
		got := ask(t, bohnenspiel.Game{}, nil, st, `
function choose_move(state)
  local v = state:apply("PIT 0 0"):cells()
  assert(v.pits[0][0] == 0 and v.pits[0][1] == 7 and v.pits[0][5] == 7 and v.pits[1][0] == 7 and v.pits[1][1] == 6, "sowing")
  assert(v.skips[0] == 2 and v.blocked[1] == false and v.turn == 0, "counters")
  return v.text
end`)
		if want := play(t, st.Clone(), "PIT 0 0").Text(); got != want {
			t.Fatalf("text %q, want %q", got, want)
		}
	})
	t.Run("pentago-twist", func(t *testing.T) {
		// (1, 4) is quadrant 1's centre: twisting quadrant 0 leaves it.
		st := play(t, start(t, pentagotwist.Game{}, nil), "1 4 0 0 0", "5 0 2 1 1")
		ask(t, pentagotwist.Game{}, nil, st, `
function choose_move(state)
  local v = state:cells()
  assert(v.size == 6 and v.cells[1][4] == 0 and v.cells[5][2] == 1 and v.cells[0][0] == -1, "cells")
  local n = 0
  for x = 0, 5 do for y = 0, 5 do if v.cells[x][y] ~= -1 then n = n + 1 end end end
  assert(n == 2, "stones: " .. n)
  return ""
end`)
	})
	t.Run("cachex", func(t *testing.T) {
		st := play(t, start(t, cachex.Game{}, map[string]string{"n": "5"}), "PLACE 0 3", "PLACE 4 1")
		ask(t, cachex.Game{}, map[string]string{"n": "5"}, st, `
function choose_move(state)
  local v = state:cells()
  assert(v.size == 5 and v.cells[0][3] == 0 and v.cells[4][1] == 1 and v.cells[3][0] == -1, "cells")
  return ""
end`)
	})
	t.Run("dots-and-boxes", func(t *testing.T) {
		st := play(t, start(t, dotsboxes.Game{}, nil), "[[0,0],[0,1]]", "[[0,0],[1,0]]", "[[0,1],[1,1]]", "[[1,0],[1,1]]")
		ask(t, dotsboxes.Game{}, nil, st, `
function choose_move(state)
  local v = state:cells()
  assert(v.rows == 5 and v.cols == 5 and #v.lines == 40, "size")
  assert(v.right[0][0] == 0 and v.down[0][0] == 1 and v.down[0][1] == 0 and v.right[1][0] == 1 and v.right[2][2] == -1, "lines")
  assert(v.boxes[0][0] == 1 and v.sides[0][0] == 4 and v.sides[1][0] == 1 and v.sides[0][1] == 1, "boxes")
  assert(v.lines[1].move == "[[0,0],[0,1]]" and v.lines[1].owner == 0 and v.lines[2].c == 1, "line list")
  assert(state:scores()[1] == 1 and state:to_move() == 1, "the box's owner moves again")
  return ""
end`)
	})
	t.Run("hex-crossout", func(t *testing.T) {
		st := start(t, hexcrossout.Game{}, nil)
		// A two-cell move in direction 4, (x, y) to (x+1, y).
		var line string
		for _, m := range st.LegalMoves(nil) {
			if s := st.FormatMove(m); strings.HasSuffix(s, ",2,4") {
				line = s
				break
			}
		}
		f := strings.Split(line, ",")
		x, _ := strconv.Atoi(f[0])
		y, _ := strconv.Atoi(f[1])
		ask(t, hexcrossout.Game{}, nil, st, fmt.Sprintf(`
function choose_move(state)
  local before = state:cells()
  local v = state:apply(%q):cells()
  assert(before.cells[%d][%d] == -1 and v.cells[%d][%d] == 0 and v.cells[%d][%d] == 0, "crossed cells")
  assert(v.free == before.free - 2 and v.cells[0][0] == -2 and v.size == 12, "counts")
  return ""
end`, line, x, y, x, y, x+1, y))
	})
}

func TestInitAndClock(t *testing.T) {
	a := newAgent(t, writeScript(t, "info.lua", `
local seen
function init(info)
  seen = string.format("%s seat=%d depth=%s(%s) style=%s n=%s limit=%d",
    info.game, info.seat, tostring(info.params.depth), type(info.params.depth), info.params.style,
    tostring(info.game_params.n), info.clock.move_limit)
end
function choose_move(state, clock)
  local r = clock.remaining()
  assert(clock.time_left == 800 and r > 0 and r <= 800 and clock.elapsed() >= 0, "clock")
  return seen .. string.format(" deadline=%d", clock.deadline)
end`), map[string]string{"depth": "3", "style": "fast"})
	st := start(t, cachex.Game{}, map[string]string{"n": "5"})
	game := sdk.Game{Game: "cachex", Params: map[string]string{"n": "5"}, Seat: 0, Seed: 9}
	game.Clock.MoveLimit = 2 * time.Second
	ctx := context.Background()
	if err := a.Start(ctx, game); err != nil {
		t.Fatal(err)
	}
	turn := sdk.Turn{Game: game, State: st}
	turn.TimeLeft = 800 * time.Millisecond
	turn.Deadline = time.Now().Add(800 * time.Millisecond)
	got, err := a.Move(ctx, turn)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("cachex seat=0 depth=3(number) style=fast n=5 limit=2000 deadline=%d", turn.Deadline.UnixMilli()); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestRandomIsSeededPerGame(t *testing.T) {
	src := `function choose_move(state)
  local t = {}
  for i = 1, 5 do t[i] = math.random(1000) end
  t[6] = string.format("%.6f", math.random())
  return table.concat(t, ",")
end`
	st := start(t, bohnenspiel.Game{}, nil)
	draw := func(seed uint64) string {
		a := newAgent(t, writeScript(t, "r.lua", src), nil)
		game := sdk.Game{Game: "bohnenspiel", Seed: seed}
		if err := a.Start(context.Background(), game); err != nil {
			t.Fatal(err)
		}
		turn := sdk.Turn{Game: game, State: st.Clone()}
		turn.Deadline = time.Now().Add(time.Second)
		out, err := a.Move(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if a, b, c := draw(5), draw(5), draw(6); a != b || a == c {
		t.Fatalf("seed 5: %s and %s; seed 6: %s", a, b, c)
	}
}

func TestSearchHelpers(t *testing.T) {
	// Box (0, 0) has three sides: every helper should take the fourth.
	st := play(t, start(t, dotsboxes.Game{}, nil), "[[0,0],[0,1]]", "[[0,0],[1,0]]", "[[0,1],[1,1]]")
	got := ask(t, dotsboxes.Game{}, nil, st, `
local function eval(s, me)
  local sc = s:scores()
  return sc[me] - sc[1 - me]
end
function choose_move(state)
  local g, gv = search.greedy(state, eval)
  local a, av, depth, nodes = search.alphabeta(state, 2, eval)
  local m, mv, playouts = search.mcts(state, 200)
  local t, tv, tdepth = search.alphabeta(state, 40, eval, { time_ms = 30 })
  assert(depth == 2 and nodes > 1 and tdepth >= 1 and tdepth < 40, "depths " .. depth .. " " .. tdepth)
  assert(playouts == 200 and mv >= 0 and mv <= 1, "mcts")
  assert(search.WIN == 1e9, "WIN")
  local legal = {}
  for _, x in ipairs(state:legal_moves()) do legal[x] = true end
  assert(legal[m] and legal[t], "legal")
  return table.concat({ g, gv, a }, " ")
end`)
	if got != "[[1,0],[1,1]] 1 [[1,0],[1,1]]" {
		t.Fatalf("got %q", got)
	}
}

// TestAlphaBetaIsMinimax compares the native alpha-beta with plain
// minimax over the same evaluation, from random positions of games with
// and without extra turns.
func TestAlphaBetaIsMinimax(t *testing.T) {
	eval := func(st engine.State, me int) float64 {
		if e, ok := st.(engine.Evaluator); ok {
			return e.Evaluate(me)
		}
		return 0
	}
	var minimax func(st engine.State, depth, ply, me int) float64
	minimax = func(st engine.State, depth, ply, me int) float64 {
		if st.Terminal() {
			return terminalValue(st, me, ply)
		}
		if depth == 0 {
			return eval(st, me)
		}
		best := math.Inf(1)
		if st.ToMove() == me {
			best = math.Inf(-1)
		}
		for _, m := range st.LegalMoves(nil) {
			c := st.Clone()
			c.Apply(m)
			v := minimax(c, depth-1, ply+1, me)
			if st.ToMove() == me {
				best = max(best, v)
			} else {
				best = min(best, v)
			}
		}
		return best
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range []engine.Game{dotsboxes.Game{}, hexcrossout.Game{}, bohnenspiel.Game{}} {
		for i := range 6 {
			st := start(t, g, map[string]string{})
			var buf []engine.Move
			for k := 0; k < 4+3*i && !st.Terminal(); k++ {
				var m engine.Move
				m, buf, _ = engine.RandomLegal(st, r, buf)
				st.Apply(m)
			}
			if st.Terminal() {
				continue
			}
			s := &searcher{ctx: context.Background(), eval: eval, me: st.ToMove(), rng: r, hardStop: func(err error) { t.Fatal(err) }}
			res := s.searchAlphaBeta(st, 3)
			if want := minimax(st, 3, 0, st.ToMove()); res.value != want {
				t.Errorf("%s position %d: alpha-beta %v, minimax %v", g.Info().Name, i, res.value, want)
			}
			c := st.Clone()
			c.Apply(res.move)
			if got := minimax(c, 2, 1, st.ToMove()); got != res.value {
				t.Errorf("%s position %d: the chosen move is worth %v, not %v", g.Info().Name, i, got, res.value)
			}
		}
	}
}

func TestSearchStopsPastTheHardDeadline(t *testing.T) {
	st := start(t, pentagotwist.Game{}, nil)
	a := newAgent(t, writeScript(t, "deep.lua", `
function choose_move(state)
  return (search.alphabeta(state, 10, function(s, me) return 0 end))
end`), nil)
	began := time.Now()
	_, err := moveAt(t, a, pentagotwist.Game{}, nil, st, 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "deep.lua:3: stopped past the hard deadline") {
		t.Fatalf("error %v", err)
	}
	// Never at the limit itself: the time up to the hard deadline is the
	// script's. The upper bound only catches a search that ran on (depth
	// 10 of Pentago-Twist takes minutes): a busy machine may hold the
	// script off the CPU for seconds.
	if el := time.Since(began); el < 300*time.Millisecond+backstop || el > 30*time.Second {
		t.Fatalf("took %v", el)
	}
}
