package openings_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"arena/arena/openings"
	"arena/engine"
	"arena/games/all"
)

func game(t *testing.T, name string) engine.Game {
	t.Helper()
	g, err := all.Registry().Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestReadCanonicalAndComments(t *testing.T) {
	g := game(t, "bohnenspiel")
	in := "# a suite\n\nPIT 0 2 ; PIT 1 3   # two plies\nPIT 0 4\n"
	s, err := openings.Read(strings.NewReader(in), "s.txt", g, engine.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 {
		t.Fatalf("%d openings, want 2", s.Len())
	}
	if got := s.Openings[0]; got.Line != 3 || !reflect.DeepEqual(got.Moves, []string{"PIT 0 2", "PIT 1 3"}) {
		t.Errorf("first opening %+v", got)
	}
	if got := s.Openings[1]; got.Line != 4 || got.Text() != "PIT 0 4" {
		t.Errorf("second opening %+v", got)
	}
}

// Whatever the game's parser accepts is kept in its canonical text, the
// text agents are sent.
func TestReadKeepsCanonicalText(t *testing.T) {
	g := game(t, "dots-and-boxes")
	st, _ := g.NewState(engine.Params{})
	loose := "[[0,0], [0,1]]"
	m, err := st.ParseMove(loose)
	if err != nil {
		t.Skipf("the parser refuses %q: %v", loose, err)
	}
	s, err := openings.Read(strings.NewReader(loose+"\n"), "s.txt", g, engine.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if want := st.FormatMove(m); s.Openings[0].Moves[0] != want {
		t.Errorf("opening %q, want the canonical %q", s.Openings[0].Moves, want)
	}
}

func TestReadErrorsNameFileLinePlyAndMove(t *testing.T) {
	g := game(t, "bohnenspiel")
	cases := []struct{ in, want string }{
		{"PIT 0 2\nPIT 0 2; PIT 0 9\n", `s.txt:2: ply 1 "PIT 0 9"`},
		{"PIT 0 2;; PIT 1 3\n", "s.txt:1: move 2 is empty"},
		{"PIT 0 2; PIT 1 3\nPIT 0 2 ;PIT 1 3\n", "s.txt:2: reaches the same position as line 1"},
		{"# nothing\n\n", "s.txt: no openings"},
		{strings.Repeat("x", openings.MaxLineLen+1), "longer than"},
		{strings.Repeat("PIT 0 0;", openings.MaxPlies) + "PIT 0 0", "at most"},
	}
	for _, c := range cases {
		_, err := openings.Read(strings.NewReader(c.in), "s.txt", g, engine.Params{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func TestReadRefusesAFinishedGame(t *testing.T) {
	g := game(t, "cachex")
	params := engine.Params{"n": "3"}
	// Red joins top to bottom down the middle column, blue plays elsewhere.
	line := "PLACE 0 1; PLACE 0 0; PLACE 1 1; PLACE 1 0; PLACE 2 1"
	_, err := openings.Read(strings.NewReader(line), "s.txt", g, params)
	if err == nil {
		st, _ := g.NewState(params)
		_, perr := openings.Play(st, strings.Split(line, ";"))
		t.Fatalf("an opening that ends the game was accepted (Play: %v, terminal %v)", perr, st.Terminal())
	}
	if !strings.Contains(err.Error(), "over") {
		t.Errorf("error %v, want it to say the game is over", err)
	}
}

func TestReadFile(t *testing.T) {
	g := game(t, "pentago-twist")
	path := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(path, []byte("2 2 0 0 0; 3 3 1 1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := openings.ReadFile(path, g, engine.Params{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != "file "+path || s.Len() != 1 || s.Openings[0].Text() != "2 2 0 0 0; 3 3 1 1 1" {
		t.Errorf("suite %+v", s)
	}
	if _, err := openings.ReadFile(filepath.Join(t.TempDir(), "none"), g, engine.Params{}); err == nil {
		t.Error("a missing file was read")
	}
	if _, err := openings.ReadFile(t.TempDir(), g, engine.Params{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory read as openings: %v", err)
	}
}

func TestPlayNamesThePly(t *testing.T) {
	g := game(t, "dots-and-boxes")
	st, _ := g.NewState(engine.Params{})
	_, err := openings.Play(st, []string{"[[0,0],[0,1]]", "[[0,0],[0,1]]"})
	if err == nil || !strings.Contains(err.Error(), `ply 1 "[[0,0],[0,1]]"`) {
		t.Errorf("error %v, want it to name ply 1 and its move", err)
	}
}

func TestGenerateDeterministicDistinctAndLegal(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"bohnenspiel", "pentago-twist", "dots-and-boxes"} {
		g := game(t, name)
		r := openings.Random{Plies: 4, Count: 6, Seed: 7, Depth: 2}
		a, err := openings.Generate(ctx, g, engine.Params{}, r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := openings.Generate(ctx, g, engine.Params{}, r)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the same settings gave different suites", name)
		}
		if a.Len() != r.Count {
			t.Fatalf("%s: %d openings, want %d", name, a.Len(), r.Count)
		}
		seen := map[string]bool{}
		for _, o := range a.Openings {
			st, _ := g.NewState(engine.Params{})
			if _, err := openings.Play(st, o.Moves); err != nil || len(o.Moves) != r.Plies {
				t.Errorf("%s: opening %q: %v", name, o.Moves, err)
			}
			key := st.Text()
			if seen[key] {
				t.Errorf("%s: position of %q twice", name, o.Moves)
			}
			seen[key] = true
		}
		r.Seed = 8
		if c, _ := openings.Generate(ctx, g, engine.Params{}, r); reflect.DeepEqual(a.Openings, c.Openings) {
			t.Errorf("%s: another seed gave the same suite", name)
		}
	}
}

func TestGenerateBounds(t *testing.T) {
	g := game(t, "bohnenspiel")
	for _, r := range []openings.Random{
		{Plies: 0, Count: 1}, {Plies: openings.MaxRandomPlies + 1, Count: 1},
		{Plies: 2, Count: 0}, {Plies: 2, Count: openings.MaxCount + 1}, {Plies: 2, Count: 1, Depth: openings.MaxDepth + 1},
	} {
		if _, err := openings.Generate(context.Background(), g, engine.Params{}, r); err == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	// Cachex on a 3×3 board has at most 9×8 positions two plies in.
	_, err := openings.Generate(context.Background(), game(t, "cachex"), engine.Params{"n": "3"}, openings.Random{Plies: 2, Count: 100})
	if err == nil || !strings.Contains(err.Error(), "only") {
		t.Errorf("error %v, want too few positions", err)
	}
}

func TestHashFollowsTheMoves(t *testing.T) {
	a := &openings.Suite{Openings: []openings.Opening{{Moves: []string{"PIT 0 1"}}}}
	b := &openings.Suite{Openings: []openings.Opening{{Moves: []string{"PIT 0 2"}}}}
	if a.Hash() == b.Hash() {
		t.Error("different suites share a hash")
	}
}
