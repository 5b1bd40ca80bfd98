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
	for i, e := range g.Events {
		if e.Seat != 0 && e.Seat != 1 {
			return fmt.Errorf("game %q: event %d: seat %d", g.ID, i, e.Seat)
		}
	}
	return nil
}
