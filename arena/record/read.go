package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Reader reads game records written one JSON document per line (a
// records.jsonl export), checking each before handing it out: records come
// from files anyone may have edited.
type Reader struct {
	dec *json.Decoder
	n   int
}

// NewReader reads records from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{dec: json.NewDecoder(bufio.NewReader(r))}
}

// Next returns the next record, or io.EOF after the last. An error names
// the record's position (counting from 1).
func (r *Reader) Next() (*Game, error) {
	var g Game
	if err := r.dec.Decode(&g); errors.Is(err, io.EOF) {
		return nil, io.EOF
	} else if err != nil {
		return nil, fmt.Errorf("record %d: %w", r.n+1, err)
	}
	r.n++
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("record %d: %w", r.n, err)
	}
	return &g, nil
}

// Check reports a record no referee could have written: another schema,
// seats other than 0 and 1, a winner that is not a seat or -1.
func (g *Game) Check() error {
	if g.Schema != SchemaVersion {
		return fmt.Errorf("game %q: schema %d, this arena reads schema %d", g.ID, g.Schema, SchemaVersion)
	}
	if g.Game == "" {
		return fmt.Errorf("game %q: no game name", g.ID)
	}
	if w := g.Result.Winner; w < -1 || w > 1 {
		return fmt.Errorf("game %q: winner %d is not a seat (0, 1) or -1", g.ID, w)
	}
	for i, m := range g.Moves {
		if m.Seat != 0 && m.Seat != 1 {
			return fmt.Errorf("game %q: move %d: seat %d", g.ID, i, m.Seat)
		}
	}
	if err := g.checkOpening(); err != nil {
		return err
	}
	for i, e := range g.Events {
		if e.Seat != 0 && e.Seat != 1 {
			return fmt.Errorf("game %q: event %d: seat %d", g.ID, i, e.Seat)
		}
	}
	return nil
}

// checkOpening checks the opening's moves are the record's first moves,
// and the only ones marked as the opening's.
func (g *Game) checkOpening() error {
	n := 0
	if g.Opening != nil {
		n = len(g.Opening.Moves)
		if g.Opening.Index < 0 || n == 0 || n > len(g.Moves) {
			return fmt.Errorf("game %q: opening %d of %d move(s) in a record of %d", g.ID, g.Opening.Index, n, len(g.Moves))
		}
	}
	for i, m := range g.Moves {
		switch {
		case i < n && (m.Source != SourceOpening || m.Text != g.Opening.Moves[i]):
			return fmt.Errorf("game %q: move %d: %s %q, the opening's is %q", g.ID, i, m.Source, m.Text, g.Opening.Moves[i])
		case i >= n && m.Source == SourceOpening:
			return fmt.Errorf("game %q: move %d is marked as the opening's, past its %d move(s)", g.ID, i, n)
		}
	}
	return nil
}
