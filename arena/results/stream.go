package results

import "context"

// The store's streaming reads (SQLite has them): a pass over a
// league's games holds one record at a time, so standings, exports and
// run plans cost the memory of the field, not of the games played. A
// store without them (a test's) is read whole.

type gameStreamer interface {
	EachGame(ctx context.Context, league string, fn func(Game) error) error
}

type matchCounter interface {
	MatchCount(ctx context.Context, league string) (int, error)
}

// EachGame calls fn with each stored game of the league in schedule
// order, one record at a time where the store can stream them.
func EachGame(ctx context.Context, st Store, league string, fn func(Game) error) error {
	if s, ok := st.(gameStreamer); ok {
		return s.EachGame(ctx, league, fn)
	}
	games, err := st.Games(ctx, league)
	if err != nil {
		return err
	}
	for _, g := range games {
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// MatchCount is the number of the league's scheduled matches.
func MatchCount(ctx context.Context, st Store, league string) (int, error) {
	if s, ok := st.(matchCounter); ok {
		return s.MatchCount(ctx, league)
	}
	m, err := st.Matches(ctx, league)
	return len(m), err
}
