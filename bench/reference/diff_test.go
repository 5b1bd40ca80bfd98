package reference_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"arena/bench/reference"
	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/games/cachex"
	"arena/games/dotsboxes"
	"arena/games/hexcrossout"
	"arena/games/pentagotwist"
)

// pair is one game on both implementations.
type pair struct {
	name  string
	games int // random games to compare (a tenth with -short)
	start func(i int) (engine.State, reference.Game)
	// key is what the engine's Hash must separate: equal keys, equal hashes.
	key func(e engine.State, r reference.Game) string
	// extra compares game-specific facts beyond the shared ones.
	extra func(e engine.State, r reference.Game) error
}

func pairs(t *testing.T) []pair {
	return []pair{
		{
			name: "bohnenspiel", games: 3000,
			start: func(int) (engine.State, reference.Game) {
				return bohnenspiel.New(), reference.NewBohnenspiel()
			},
			key: func(e engine.State, r reference.Game) string {
				return fmt.Sprint(r.Text(), r.ToMove(), r.(*reference.Bohnenspiel).Scores(), e.Terminal())
			},
			extra: func(e engine.State, r reference.Game) error {
				if e.Scores() != r.(*reference.Bohnenspiel).Scores() {
					return fmt.Errorf("scores %v, reference %v", e.Scores(), r.(*reference.Bohnenspiel).Scores())
				}
				return nil
			},
		},
		{
			name: "pentago-twist", games: 3000,
			start: func(int) (engine.State, reference.Game) {
				return pentagotwist.NewState(), reference.NewPentago()
			},
			key: func(e engine.State, r reference.Game) string { return r.Text() },
		},
		{
			name: "dots-and-boxes", games: 3000,
			start: func(i int) (engine.State, reference.Game) {
				// Mostly the course's 5x5 on the one-word reference, with
				// other shapes mixed in: a quarter on the multi-word one
				// (2..12 dots a side), a quarter of the shapes whose lines
				// fit one word on the one-word one.
				switch i % 4 {
				case 3:
					rows, cols := 2+i%11, 2+(i/11)%11
					return dotsboxes.NewState(rows, cols), reference.NewDots(rows, cols)
				case 1:
					rows, cols := 2+i%6, 2+(i/6)%6
					for 2*rows*cols > 64 {
						cols--
					}
					return dotsboxes.NewState(rows, cols), reference.NewDots64(rows, cols)
				}
				return dotsboxes.NewState(5, 5), reference.NewDots64(5, 5)
			},
			key: func(e engine.State, r reference.Game) string {
				// Who drew a line does not matter to the rest of the game.
				lines, _, _ := strings.Cut(r.Text(), "/")
				lines = strings.ReplaceAll(lines, "1", "0")
				d := e.(*dotsboxes.State)
				return fmt.Sprint(d.Rows(), d.Cols(), lines, r.ToMove(), r.(scorer).Scores())
			},
			extra: func(e engine.State, r reference.Game) error {
				if e.Scores() != r.(scorer).Scores() {
					return fmt.Errorf("scores %v, reference %v", e.Scores(), r.(scorer).Scores())
				}
				return nil
			},
		},
		{
			name: "cachex", games: 1500,
			start: func(i int) (engine.State, reference.Game) {
				n := 9
				if i%2 == 1 {
					n = 3 + i%13
				}
				return cachex.New(n), reference.NewCachex(n)
			},
			key: func(e engine.State, r reference.Game) string {
				c := r.(*reference.Cachex)
				return fmt.Sprint(r.Text(), c.Ply()%2, min(c.Ply(), 2))
			},
			extra: func(e engine.State, r reference.Game) error {
				c, rc := e.(*cachex.State), r.(*reference.Cachex)
				if c.Repeat() != rc.Repeat() || c.Ply() != rc.Ply() {
					return fmt.Errorf("repeat %d ply %d, reference %d %d", c.Repeat(), c.Ply(), rc.Repeat(), rc.Ply())
				}
				return nil
			},
		},
		{
			name: "hex-crossout", games: 3000,
			start: func(i int) (engine.State, reference.Game) {
				n := 12 + i%22
				board, err := hexcrossout.Generate(n, int64(i))
				if err != nil {
					t.Fatal(err)
				}
				if i%50 == 49 {
					// A parameter board may be larger than any generated
					// one: every cell free.
					board = strings.Repeat("............/", 11) + "............"
				}
				s, err := hexcrossout.NewFromBoard(board)
				if err != nil {
					t.Fatal(err)
				}
				h, err := reference.NewHex(board)
				if err != nil {
					t.Fatal(err)
				}
				return s, h
			},
			key: func(e engine.State, r reference.Game) string {
				return r.Text() + strconv.Itoa(r.ToMove())
			},
		},
	}
}

// scorer is a reference game with box counts.
type scorer interface{ Scores() [2]int }

// TestDifferential plays random games on the engine and on the plain
// reference side by side and compares them at every ply: board text, side
// to move, the legal moves in order and notation, the end and the winner.
// Moves are drawn alternately from the legal list and from the engine's
// playout shortcut, and the engine state is carried forward through
// CopyFrom, so the fast paths are checked against the reference too.
// Positions equal in what the hash covers must hash equally.
func TestDifferential(t *testing.T) {
	for _, p := range pairs(t) {
		t.Run(p.name, func(t *testing.T) {
			games := p.games
			if testing.Short() {
				// A hundred games (fifty of Cachex) still reach every
				// kind of move and end; the full suite plays them all.
				games /= 30
			}
			r := rand.New(rand.NewPCG(21, uint64(len(p.name))))
			hashes := map[string]uint64{}
			var emoves []engine.Move
			var rmoves []int
			for g := 0; g < games; g++ {
				e, ref := p.start(g)
				spare := e.Clone()
				for ply := 0; ; ply++ {
					where := func() string {
						return fmt.Sprintf("game %d ply %d (%s)", g, ply, ref.Text())
					}
					if e.Text() != ref.Text() {
						t.Fatalf("%s: engine text %s", where(), e.Text())
					}
					if e.Terminal() != ref.Over() {
						t.Fatalf("%s: engine terminal %v, reference %v", where(), e.Terminal(), ref.Over())
					}
					if p.extra != nil {
						if err := p.extra(e, ref); err != nil {
							t.Fatalf("%s: %v", where(), err)
						}
					}
					k := p.key(e, ref)
					if h, ok := hashes[k]; ok && h != e.Hash() {
						t.Fatalf("%s: equal positions hash %x and %x", where(), h, e.Hash())
					}
					hashes[k] = e.Hash()
					if ref.Over() {
						if w := e.Result().Winner; w != ref.Winner() {
							t.Fatalf("%s: engine winner %d, reference %d", where(), w, ref.Winner())
						}
						break
					}
					if e.ToMove() != ref.ToMove() {
						t.Fatalf("%s: engine to move %d, reference %d", where(), e.ToMove(), ref.ToMove())
					}
					emoves = e.LegalMoves(emoves[:0])
					rmoves = ref.Legal(rmoves[:0])
					if len(emoves) != len(rmoves) {
						t.Fatalf("%s: engine lists %d moves, reference %d", where(), len(emoves), len(rmoves))
					}
					for i := range emoves {
						if a, b := e.FormatMove(emoves[i]), ref.MoveText(rmoves[i]); a != b {
							t.Fatalf("%s: legal move %d is %s, reference %s", where(), i, a, b)
						}
					}
					i := r.IntN(len(emoves))
					if ply%2 == 1 {
						m, ok := e.(engine.PlayoutMover).RandomPlayoutMove(r)
						if !ok {
							t.Fatalf("%s: RandomPlayoutMove found no move", where())
						}
						i = -1
						for j := range emoves {
							if emoves[j] == m {
								i = j
							}
						}
						if i < 0 {
							t.Fatalf("%s: RandomPlayoutMove gave %v, not a legal move", where(), m)
						}
					}
					spare.(engine.Copier).CopyFrom(e)
					e, spare = spare, e
					e.Apply(emoves[i])
					ref.Play(rmoves[i])
				}
			}
		})
	}
}

// TestDrawUniform checks each reference's direct draw against its own
// move list: only listed moves, each about equally often.
func TestDrawUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, g := range []reference.Game{reference.NewBohnenspiel(), reference.NewPentago(), reference.NewDots(5, 5), reference.NewDots64(5, 5), reference.NewDots64(3, 7), reference.NewCachex(5)} {
		var moves []int
		for ply := 0; !g.Over(); ply++ {
			moves = g.Legal(moves[:0])
			counts := map[int]int{}
			draws := 100 * len(moves)
			for k := 0; k < draws; k++ {
				counts[g.(reference.Drawer).RandomMove(r)]++
			}
			for _, m := range moves {
				// 100 expected: outside 40..160 is six standard deviations.
				if c := counts[m]; c < 40 || c > 160 {
					t.Fatalf("%T ply %d: move %s drawn %d times in %d", g, ply, g.MoveText(m), c, draws)
				}
				delete(counts, m)
			}
			if len(counts) != 0 {
				t.Fatalf("%T ply %d: drew moves not listed: %v", g, ply, counts)
			}
			g.Play(moves[r.IntN(len(moves))])
		}
	}
}
