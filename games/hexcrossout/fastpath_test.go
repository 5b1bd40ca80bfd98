package hexcrossout

import (
	"strings"
	"testing"

	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	for _, n := range []int{12, 24, 33} {
		free, err := generate(n, int64(n))
		if err != nil {
			t.Fatal(err)
		}
		enginetest.CheckFastPaths(t, newState(free), 20)
	}
	// A board given as a parameter may have any number of free cells:
	// all 144 here, more lines than any generated board.
	s, err := NewFromBoard(strings.Repeat("............/", 11) + "............")
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckFastPaths(t, s, 2)
}
