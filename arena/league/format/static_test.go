package format

import "testing"

// TestStaticAt checks that the schedule computed game by game is the
// listed one, and that every game finds its place again.
func TestStaticAt(t *testing.T) {
	rr, err := RoundRobin([]string{"a", "b", "c", "d"}, 6)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Gauntlet("c", []string{"a", "b", "c"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Static{rr, g} {
		all := s.All()
		if s.Len() != len(all) || s.Len() != s.Planned() {
			t.Fatalf("Len %d, All %d, Planned %d", s.Len(), len(all), s.Planned())
		}
		for i, want := range all {
			if got := s.At(i); got != want {
				t.Fatalf("At(%d) = %+v, want %+v", i, got, want)
			}
			if pos, ok := s.Position(want); !ok || pos != i {
				t.Fatalf("Position(%+v) = %d, %v; want %d", want, pos, ok, i)
			}
		}
		for _, bad := range []Game{{A: "b", B: "a", Index: 0}, {A: all[0].A, B: all[0].B, Pair: s.games / 2, Index: s.games}, {A: all[0].A, B: all[0].B, Pair: 1, Index: 0}} {
			if pos, ok := s.Position(bad); ok {
				t.Errorf("Position(%+v) = %d, want none", bad, pos)
			}
		}
	}
}
