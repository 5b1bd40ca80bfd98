// Package enginetest holds the checks every game's tests share: replaying
// the course vectors, and the invariants of a move parser under fuzzing.
package enginetest

import (
	"errors"
	"testing"

	"arena/engine"
	"arena/engine/vector"
)

// maxReports bounds the failures reported per file and per game, so a
// broken rule does not bury the output.
const maxReports = 20

// ReplayVectors replays every recorded game of a vector file on g and
// reports each mismatch with the game's seed, tag, ply and field. It
// returns the records for game-specific checks.
func ReplayVectors(t *testing.T, g engine.Game, path string) []*vector.Record {
	t.Helper()
	recs, err := vector.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no games", path)
	}
	name := g.Info().Name
	failed := 0
	for i, rec := range recs {
		if rec.Game != name {
			t.Errorf("%s game %d (%s): game %q, want %q", path, i+1, rec.Label(), rec.Game, name)
			continue
		}
		ms, err := vector.Replay(g, rec)
		if err == nil && len(ms) == 0 {
			continue
		}
		failed++
		if failed > maxReports {
			continue
		}
		if err != nil {
			t.Errorf("%s game %d (%s): %v", path, i+1, rec.Label(), err)
			continue
		}
		for k, m := range ms {
			if k == 5 {
				t.Errorf("%s game %d (%s): ... %d more", path, i+1, rec.Label(), len(ms)-k)
				break
			}
			t.Errorf("%s game %d (%s): %s", path, i+1, rec.Label(), m)
		}
	}
	if failed > maxReports {
		t.Errorf("%s: %d games failed in all", path, failed)
	}
	return recs
}

// CheckParse judges text on s and checks what every parser must do: an
// accepted move is legal and survives a FormatMove round trip; a rejection
// is a *engine.MoveError of a known kind that quotes the text and says
// why. It returns the move or the error for game-specific checks.
func CheckParse(t testing.TB, s engine.State, text string) (engine.Move, *engine.MoveError) {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		var me *engine.MoveError
		if !errors.As(err, &me) {
			t.Fatalf("ParseMove(%q): error %T %v is not a *engine.MoveError", text, err, err)
		}
		if me.Kind != engine.Unparseable && me.Kind != engine.Illegal {
			t.Fatalf("ParseMove(%q): kind %v", text, me.Kind)
		}
		if me.Detail == "" || me.Text != text {
			t.Fatalf("ParseMove(%q): detail %q text %q", text, me.Detail, me.Text)
		}
		return 0, me
	}
	legal := false
	for _, l := range s.LegalMoves(nil) {
		if l == m {
			legal = true
			break
		}
	}
	if !legal {
		t.Fatalf("ParseMove(%q) = %v, not a legal move", text, m)
	}
	back := s.FormatMove(m)
	m2, err := s.ParseMove(back)
	if err != nil || m2 != m {
		t.Fatalf("ParseMove(%q) -> FormatMove %q -> %v, %v", text, back, m2, err)
	}
	return m, nil
}

// ExpectRejected checks that each text is rejected by s with the given kind
// and exactly the given reason (and some detail).
func ExpectRejected(t *testing.T, s engine.State, kind engine.MoveErrorKind, reasons map[string]string) {
	t.Helper()
	for text, reason := range reasons {
		_, err := s.ParseMove(text)
		var me *engine.MoveError
		if !errors.As(err, &me) || me.Kind != kind {
			t.Errorf("ParseMove(%q) = %v, want %v", text, err, kind)
			continue
		}
		if me.Reason != reason || me.Detail == "" {
			t.Errorf("ParseMove(%q): reason %q detail %q, want reason %q", text, me.Reason, me.Detail, reason)
		}
	}
}
