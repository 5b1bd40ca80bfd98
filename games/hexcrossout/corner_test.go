package hexcrossout

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/engine"
)

// seed3581 is the generator's board for 33 free cells and seed 3581: it
// reaches cell (0, 0), index 0, and has cells in all three words of a mask.
const seed3581 = ".##..#######/.....#######/##..########/....########/#.....#.####/#....##..###/#.#.....####/#####.######/############/############/############/############"

// rowOfThree is three free cells along row 0 from the corner.
var rowOfThree = "...#########" + strings.Repeat("/############", 11)

// checkRandomMove draws RandomMove on s and compares each move's count
// with the referee's exact distribution: a free cell 1/F, a direction
// 1/6, a length uniform over those that fit.
func checkRandomMove(t *testing.T, s *State, draws int) {
	t.Helper()
	exact := map[engine.Move]float64{}
	F := float64(s.FreeCells())
	for c := 0; c < numCells; c++ {
		if !s.free.has(c) {
			continue
		}
		for dir := 1; dir <= 6; dir++ {
			max := 1
			if c2 := int(step[c][dir-1]); c2 >= 0 && s.free.has(c2) {
				max = 2
				if c3 := int(step[c2][dir-1]); c3 >= 0 && s.free.has(c3) {
					max = 3
				}
			}
			for l := 1; l <= max; l++ {
				exact[canonical(c, l, dir)] += 1 / F / 6 / float64(max)
			}
		}
	}
	legal := s.LegalMoves(nil)
	if len(exact) != len(legal) {
		t.Fatalf("%d reachable sets, %d legal", len(exact), len(legal))
	}
	r := rand.New(rand.NewPCG(1, 2))
	got := map[engine.Move]int{}
	for range draws {
		m := s.RandomMove(r)
		if !slices.Contains(legal, m) {
			t.Fatalf("illegal substitute %s", s.FormatMove(m))
		}
		got[m]++
	}
	for m, p := range exact {
		want := p * float64(draws)
		if d := math.Abs(float64(got[m]) - want); d > 5*math.Sqrt(want)+1 {
			t.Errorf("%s: %d draws, want about %.0f", s.FormatMove(m), got[m], want)
		}
	}
}

// TestCornerCell plays on boards holding cell (0, 0), the one index a
// sign test could confuse with "off the board": its lines are listed,
// substitutes are drawn from it and towards it at the referee's rates,
// and a line may step onto it.
func TestCornerCell(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, board := range []string{seed3581, rowOfThree} {
		s := mustBoard(t, board)
		if !s.free.has(0) {
			t.Fatalf("cell 0 not free on %s", board)
		}
		checkRandomMove(t, s, 100000)
		for range 5 {
			checkCountsAlongAGame(t, r, mustBoard(t, board))
		}
	}
	s := mustBoard(t, seed3581)
	m, err := s.ParseMove("0,1,2,1") // (0,1) then (0,0)
	if err != nil {
		t.Fatalf("0,1,2,1 onto the corner: %v", err)
	}
	if got := s.FormatMove(m); got != "0,0,2,6" {
		t.Errorf("0,1,2,1 is %s, want 0,0,2,6", got)
	}
}

// TestGeneratorGolden pins the generator's boards: a league's stored
// configuration names a board by (free, seed), so every version must
// grow the same one.
func TestGeneratorGolden(t *testing.T) {
	for _, c := range []struct {
		n    int
		seed int64
		want string
	}{
		{12, 0, "############/############/############/############/#######.####/#####..#####/#####...####/####....####/#####..#####/############/############/############"},
		{24, 1, "############/############/####...#####/####....####/######..####/####.#.#####/#####.....##/####...#####/####...#####/####..######/############/############"},
		{33, 5, "############/############/#####.######/###....#####/###.....####/##....######/####.#.#####/##.#....####/###..#..####/#..####.####/###..##..###/##.#########"},
		{33, 3581, seed3581},
	} {
		got, err := Generate(c.n, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("Generate(%d, %d) =\n%s\nwant\n%s", c.n, c.seed, got, c.want)
		}
	}
}

// TestParseDetails pins the reasons in full: the course's player number
// in Reason, and which cell of a line leaves the board.
func TestParseDetails(t *testing.T) {
	e := mustBoard(t, strings.Repeat("############/", 11)+"#########...")
	for _, c := range []struct{ text, reason, detail string }{
		{"11,11,2,4", `ILLEGAL MOVE: player 1 played "11,11,2,4"`, "cell 2 of the line leaves the board"},
		{"10,11,3,4", `ILLEGAL MOVE: player 1 played "10,11,3,4"`, "cell 3 of the line leaves the board"},
	} {
		_, err := e.ParseMove(c.text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Reason != c.reason || me.Detail != c.detail {
			t.Errorf("%q: %v, want reason %q detail %q", c.text, err, c.reason, c.detail)
		}
	}
	play(t, e, "9,11,1,1")
	_, err := e.ParseMove("x")
	var me *engine.MoveError
	if !errors.As(err, &me) || me.Reason != `ILLEGAL MOVE: player 2 played "x"` {
		t.Errorf("seat 1's illegal move: %v, want player 2 named", err)
	}
}

// TestStartupTimeout: the course server gave an agent 6 s to connect.
func TestStartupTimeout(t *testing.T) {
	p, err := Game{}.Profile(engine.Params{"board": seed3})
	if err != nil {
		t.Fatal(err)
	}
	if p.StartupTimeout != 6*time.Second {
		t.Errorf("start-up timeout %v, want 6s", p.StartupTimeout)
	}
}

// TestTextAllocatesOnlyItsString: the board texts are sized up front.
func TestTextAllocatesOnlyItsString(t *testing.T) {
	s := mustBoard(t, seed3581)
	play(t, s, "0,0,1,1", "3,0,2,4")
	if a := testing.AllocsPerRun(20, func() { _ = s.Text() }); a != 1 {
		t.Errorf("Text allocates %v times, want 1", a)
	}
	if a := testing.AllocsPerRun(20, func() { _ = boardText(&s.free) }); a != 1 {
		t.Errorf("boardText allocates %v times, want 1", a)
	}
}

// TestDrawAtTheEdges draws boards whose cells lie only in column 0 or
// only in row 0: the region's far corner may be at 0.
func TestDrawAtTheEdges(t *testing.T) {
	column := strings.Repeat("############/", 10) + ".###########/.###########"
	row := "..##########" + strings.Repeat("/############", 11)
	for _, c := range []struct{ board, draw string }{
		{column, "x  0\n10 .\n11  .\nfree 2; crossed out: seat 0 ('1') 0, seat 1 ('2') 0"},
		{row, "x  0 1\n 0 . .\nfree 2; crossed out: seat 0 ('1') 0, seat 1 ('2') 0"},
	} {
		s := mustBoard(t, c.board)
		if got := s.Draw(); got != c.draw {
			t.Errorf("Draw =\n%s\nwant\n%s", got, c.draw)
		}
		if n := strings.Count(s.SVG(), `<g class="cell`); n != 2 {
			t.Errorf("SVG of %s draws %d cells, want 2", c.board, n)
		}
	}
}

// TestHashIsOfTheBoard: along random games, with lines of every length,
// the hash is the keys of the crossed cells by owner and of the side to
// move, recomputed from the board.
func TestHashIsOfTheBoard(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for game := 0; game < 20; game++ {
		s := newState(mustGenerate(t, 20+game%14, int64(game)))
		for !s.Terminal() {
			moves := s.LegalMoves(nil)
			s.Apply(moves[r.IntN(len(moves))])
			var want uint64
			for i, o := range s.owner {
				if o != 0 {
					want ^= zobrist[o-1][i]
				}
			}
			if s.toMove == 1 {
				want ^= keySecondToMove
			}
			if s.Hash() != want {
				t.Fatalf("game %d ply %d %s: hash %#x, want %#x from the board", game, s.Ply(), s.Text(), s.Hash(), want)
			}
		}
	}
}
