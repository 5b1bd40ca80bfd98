package cachex

import (
	"testing"

	"arena/engine/enginetest"
)

func TestFastPaths(t *testing.T) {
	enginetest.CheckFastPaths(t, New(9), 10)
	// Odd n bans the centre on the first action; even n has no centre;
	// 15 spans four words of cells.
	enginetest.CheckFastPaths(t, New(3), 40)
	enginetest.CheckFastPaths(t, New(4), 40)
	enginetest.CheckFastPaths(t, New(15), 2)
}

// TestCloneAllocatesOnce checks that a clone is one allocation and that
// playing on it allocates nothing more.
func TestCloneAllocatesOnce(t *testing.T) {
	s := midGame()
	m := s.LegalMoves(nil)[3]
	if a := testing.AllocsPerRun(50, func() { s.Clone().Apply(m) }); a != 1 {
		t.Errorf("Clone then Apply: %.1f allocations, want 1", a)
	}
}
