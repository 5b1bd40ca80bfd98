package gameview_test

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"arena/arena/gameview"
	"arena/arena/record"
	"arena/engine"
	"arena/games/all"
)

// decidedRecord plays random games of game until one has a winner and
// returns its record, agents "ann" and "bob".
func decidedRecord(t *testing.T, game string, params engine.Params) *record.Game {
	t.Helper()
	g, err := all.Registry().Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 200; seed++ {
		st, _ := g.NewState(params)
		rec := &record.Game{ID: "g", Game: game, Params: params, Start: st.Text(),
			Agents: [2]record.Agent{{Name: "ann"}, {Name: "bob"}}}
		r := rand.New(rand.NewPCG(seed, 7))
		var buf []engine.Move
		for !st.Terminal() {
			var m engine.Move
			m, buf, _ = engine.RandomLegal(st, r, buf)
			rec.Moves = append(rec.Moves, record.Move{Ply: st.Ply(), Seat: st.ToMove(), Text: st.FormatMove(m), Source: record.SourceAgent})
			st.Apply(m)
		}
		res := st.Result()
		if res.Draw || res.Winner < 0 {
			continue
		}
		rec.Final = st.Text()
		rec.Result = record.Result{Winner: res.Winner, Reason: res.Reason}
		return rec
	}
	t.Fatalf("%s: no decided game in 200 seeds", game)
	return nil
}

var decisiveCell = regexp.MustCompile(`class="[^"]*\bdecisive\b`)

func TestMarksOnEveryGame(t *testing.T) {
	for _, tc := range []struct {
		game     string
		params   engine.Params
		decisive int // at least this many decisive cells at the end
		labels   bool
	}{
		{"pentago-twist", nil, 5, true},
		{"cachex", engine.Params{"n": "4"}, 4, true},
		{"dots-and-boxes", nil, 1, true},
		{"bohnenspiel", nil, 1, false},
		{"hex-crossout", nil, 1, true},
	} {
		t.Run(tc.game, func(t *testing.T) {
			rec := decidedRecord(t, tc.game, tc.params)
			v, err := gameview.Build(all.Registry(), rec)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range v.Frames[1:] {
				if strings.HasPrefix(rec.Moves[i].Text, "SKIP") {
					continue // Bohnenspiel's skip moves no seed
				}
				if !strings.Contains(f.SVG, "lastmove") {
					t.Fatalf("move %d: no lastmove mark", i+1)
				}
			}
			if strings.Contains(v.Frames[0].SVG, "lastmove") {
				t.Error("the start position marks a last move")
			}
			end := v.Frames[len(v.Frames)-1].SVG
			if n := len(decisiveCell.FindAllString(end, -1)); n < tc.decisive {
				t.Errorf("final board: %d decisive marks, want at least %d:\n%s", n, tc.decisive, end)
			}
			if tc.labels && !strings.Contains(end, ">A</text>") && !strings.Contains(end, ">B</text>") {
				t.Errorf("final board has no owner initials:\n%s", end)
			}
			if strings.Contains(v.Frames[len(v.Frames)/2].SVG, "decisive") && tc.game != "pentago-twist" && tc.game != "cachex" {
				t.Error("a decisive mark before the end")
			}
		})
	}
}

var lastMoveCell = regexp.MustCompile(`class="[^"]*\blastmove\b`)

// A placement changes one cell (a capture two more, a steal two), and only
// the cells the move changed are marked.
func TestLastMoveMarksOnlyWhatChanged(t *testing.T) {
	rec := decidedRecord(t, "cachex", engine.Params{"n": "5"})
	v, err := gameview.Build(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(lastMoveCell.FindAllString(v.Frames[1].SVG, -1)); n != 1 {
		t.Errorf("the first stone: %d cells marked, want 1", n)
	}
	for i, f := range v.Frames[1:] {
		if n := len(lastMoveCell.FindAllString(f.SVG, -1)); n < 1 || n > 3 {
			t.Errorf("move %d (%s): %d cells marked, want 1 to 3", i+1, rec.Moves[i].Text, n)
		}
	}
}

func TestDotsBoxesLabelsAreInitialsNotSeatNumbers(t *testing.T) {
	rec := decidedRecord(t, "dots-and-boxes", nil)
	v, err := gameview.Build(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	end := v.Frames[len(v.Frames)-1].SVG
	if regexp.MustCompile(`>[01]</text>`).MatchString(end) {
		t.Errorf("boxes still labelled 0/1:\n%s", end)
	}
}

func TestInitials(t *testing.T) {
	for _, tc := range []struct{ a, b, want0, want1 string }{
		{"alpha", "beta", "A", "B"},
		{"greedy", "greedy-v2", "GR", "GV"},
		{"same", "same", "0", "1"},
		{"<b>x", "y", "B", "Y"},
	} {
		got := gameview.Initials(tc.a, tc.b)
		if got != [2]string{tc.want0, tc.want1} {
			t.Errorf("Initials(%q, %q) = %q, want [%s %s]", tc.a, tc.b, got, tc.want0, tc.want1)
		}
	}
}

func TestPenaltiesNumberedAsTheMoveList(t *testing.T) {
	rec := bohnenspielRecord(t)
	v, err := gameview.Build(all.Registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	ps := v.Penalties()
	if len(ps) != 2 {
		t.Fatalf("%d penalties, want 2", len(ps))
	}
	// The late reply replaced by the referee is the list's move 2; the
	// illegal reply that ended the game comes after the last move (4).
	if ps[0].Move != 2 || ps[0].Kind != "late" || ps[1].Move != 5 || ps[1].Kind != "illegal" {
		t.Errorf("penalties %+v", ps)
	}
	for _, p := range ps {
		if f := v.Frames[p.Move]; len(f.Events) == 0 {
			t.Errorf("move %d: its frame has no event", p.Move)
		}
	}
}
