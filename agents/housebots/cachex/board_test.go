package cachex

import (
	"testing"

	"arena/engine"
	"arena/games/cachex"
)

func boardOf(t *testing.T, n int, moves ...string) engine.State {
	t.Helper()
	st, err := cachex.Game{}.NewState(engine.Params{"n": string(rune('0' + n))})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(st, moves); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestDistance(t *testing.T) {
	st := boardOf(t, 4)
	b, err := readBoard(st)
	if err != nil {
		t.Fatal(err)
	}
	for seat := 0; seat < 2; seat++ {
		if d, path := b.distance(seat, true); d != 4 || len(path) != 4 {
			t.Errorf("empty 4x4, seat %d: distance %d path %v, want 4 cells", seat, d, path)
		}
	}
	// Red stones at (0,1) and (1,1): red needs two more cells; a blue wall
	// in column 1 is two cells short of blocking red.
	st = boardOf(t, 4, "PLACE 0 1", "PLACE 0 3", "PLACE 1 1", "PLACE 1 3")
	b, _ = readBoard(st)
	if d, _ := b.distance(0, false); d != 2 {
		t.Errorf("red distance %d, want 2", d)
	}
	if d, _ := b.distance(1, false); d != 3 {
		t.Errorf("blue distance %d, want 3 (own stones at (0,3) and (1,3) lie on column 3, one edge)", d)
	}
}

func TestMovesLeft(t *testing.T) {
	b, _ := readBoard(boardOf(t, 9))
	if got := movesLeft(b); got != 40 {
		t.Fatalf("empty 9x9: %d moves left, want 40", got)
	}
}
