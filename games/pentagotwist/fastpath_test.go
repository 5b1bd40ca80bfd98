package pentagotwist

import (
	"testing"

	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	enginetest.CheckFastPaths(t, NewState(), 30)
}
