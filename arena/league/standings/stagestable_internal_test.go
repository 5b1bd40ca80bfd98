package standings

import "testing"

func TestCurrentRoundText(t *testing.T) {
	for r, want := range map[CurrentRound]string{
		{}:                                      "",
		{Number: 2, Of: 5, Played: 3, Games: 8}: "round 2 of 5: 3 of 8 games played",
		{Number: 1, Played: 0, Games: 6}:        "round 1: 0 of 6 games played",
	} {
		if got := r.String(); got != want {
			t.Errorf("%+v: %q, want %q", r, got, want)
		}
	}
}
