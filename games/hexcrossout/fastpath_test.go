package hexcrossout

import (
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
}
