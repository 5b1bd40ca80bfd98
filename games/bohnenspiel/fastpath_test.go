package bohnenspiel

import (
	"testing"

	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	enginetest.CheckFastPaths(t, New(), 30)
}
