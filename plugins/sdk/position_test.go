package sdk_test

import (
	"context"
	"testing"

	"arena/engine"
	"arena/games/bohnenspiel"
	"arena/plugins/sdk"
)

// boards records the position each Turn hands the agent.
type boards struct{ seen []string }

func (b *boards) Move(ctx context.Context, t sdk.Turn) (string, error) {
	b.seen = append(b.seen, t.State.Text())
	return t.Legal[0], nil
}

// line plays n moves from the start, choosing the pick-th legal move
// (or the last) each time, and returns their text.
func line(t *testing.T, n, pick int) []string {
	t.Helper()
	s := bohnenspiel.New()
	var out []string
	var buf []engine.Move
	for range n {
		buf = s.LegalMoves(buf[:0])
		m := buf[min(pick, len(buf)-1)]
		out = append(out, s.FormatMove(m))
		s.Apply(m)
	}
	return out
}

func boardAfter(t *testing.T, history []string) string {
	t.Helper()
	s := bohnenspiel.New()
	if err := engine.Replay(s, history); err != nil {
		t.Fatal(err)
	}
	return s.Text()
}

// The adapter applies only the moves a request adds to the last one's,
// and starts again from the opening position whenever a request does not
// extend it: every Turn holds the position after exactly its history.
func TestTurnPositionFollowsEveryHistory(t *testing.T) {
	a := &boards{}
	p := served(a)
	if err := start(p, 0); err != nil {
		t.Fatal(err)
	}
	main, other := line(t, 6, 0), line(t, 4, 5)
	if main[0] == other[0] {
		t.Fatal("the two lines open alike; pick another")
	}
	histories := [][]string{
		{},        // the opening
		main[:2],  // extends
		main[:4],  // extends
		main[:4],  // the same again
		main[:2],  // a prefix of it
		main[:4],  // extends again
		other[:2], // shorter, another line
		main[1:3], // as long, differs at once (not a legal line: refused)
		other[:4], // extends the last accepted one
		main[:6],  // longer, another line
	}
	var want []string
	for _, h := range histories {
		_, err := ask(p, len(h)%2, h...)
		if legal := engine.Replay(bohnenspiel.New(), h) == nil; legal != (err == nil) {
			t.Fatalf("history %v: %v (legal line %v)", h, err, legal)
		}
		if err == nil {
			want = append(want, boardAfter(t, h))
		}
	}
	if len(a.seen) != len(want) {
		t.Fatalf("%d turns, want %d", len(a.seen), len(want))
	}
	for i := range want {
		if a.seen[i] != want[i] {
			t.Errorf("turn %d: the agent was handed\n%s\nwant\n%s", i, a.seen[i], want[i])
		}
	}
}
