package bohnenspiel_test

import (
	"errors"
	"strings"
	"testing"

	"arena/engine"
	"arena/games/bohnenspiel"
)

// The last pit of a side is 5: pit 6 would be the opponent's first pit in
// the board array, full at the start, and must be refused by number.
func TestPitJustPastTheSideIsIllegal(t *testing.T) {
	st, err := bohnenspiel.Game{}.NewState(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ParseMove("PIT 0 5"); err != nil {
		t.Fatalf("pit 5 refused: %v", err)
	}
	_, err = st.ParseMove("PIT 0 6")
	var me *engine.MoveError
	if !errors.As(err, &me) || me.Kind != engine.Illegal || !strings.Contains(err.Error(), "outside 0..5") {
		t.Fatalf("pit 6: %v, want an illegal move outside 0..5", err)
	}
}
