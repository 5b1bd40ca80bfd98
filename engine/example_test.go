package engine_test

import (
	"fmt"
	"math/rand/v2"

	"arena/engine"
	"arena/games/dotsboxes"
)

// A Monte Carlo searcher's playout loop: one scratch state reused through
// CopyFrom (no allocation per playout) and moves drawn with PlayoutMove,
// which takes the game's uniform shortcut when it has one.
func ExamplePlayoutMove() {
	root := dotsboxes.NewState(3, 3)
	scratch := root.Clone() // allocated once, reused for every playout
	r := rand.New(rand.NewPCG(1, 2))
	var buf []engine.Move // used only by games without the shortcut
	wins := 0
	const playouts = 1000
	for i := 0; i < playouts; i++ {
		scratch.(engine.Copier).CopyFrom(root)
		for {
			m, b, ok := engine.PlayoutMove(scratch, r, buf)
			buf = b
			if !ok {
				break
			}
			scratch.Apply(m)
		}
		if scratch.Result().Winner == 0 {
			wins++
		}
	}
	fmt.Println("every playout finished:", scratch.Terminal(), "- first player won some and lost some:", wins > 0 && wins < playouts)
	// Output: every playout finished: true - first player won some and lost some: true
}
