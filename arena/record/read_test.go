package record_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"arena/arena/record"
)

func sample() *record.Game {
	return &record.Game{
		Schema: record.SchemaVersion, ID: "l/g1", Game: "bohnenspiel", Profile: "comp424-2017", Seed: 9,
		Agents: [2]record.Agent{{Name: "a", Ref: "random"}, {Name: "b", Ref: "greedy"}},
		Moves:  []record.Move{{Ply: 0, Seat: 0, Text: "PIT 0 1", Source: record.SourceAgent, WallMS: 1.5}},
		Events: []record.Event{{Ply: 1, Seat: 1, Kind: "late", Penalty: "random-move", Reply: "SKIP 1"}},
		Result: record.Result{Winner: 1, Reason: "TIMEOUT", Forfeit: "timeout"},
	}
}

func TestReaderRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	for range 2 {
		b, err := sample().MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
	}
	r := record.NewReader(&buf)
	for i := range 2 {
		g, err := r.Next()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if !reflect.DeepEqual(g, sample()) {
			t.Fatalf("record %d read back as %+v", i, g)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last record: %v", err)
	}
}

func TestReaderRejects(t *testing.T) {
	for name, line := range map[string]string{
		"schema":  `{"schema":7,"id":"x","game":"bohnenspiel","result":{"winner":0}}`,
		"winner":  `{"schema":1,"id":"x","game":"bohnenspiel","result":{"winner":5}}`,
		"seat":    `{"schema":1,"id":"x","game":"bohnenspiel","moves":[{"seat":2}],"result":{"winner":0}}`,
		"no game": `{"schema":1,"id":"x","result":{"winner":0}}`,
		"syntax":  `{"schema":1,`,
	} {
		_, err := record.NewReader(strings.NewReader(line)).Next()
		if err == nil || !strings.Contains(err.Error(), "record 1") {
			t.Errorf("%s: error %v, want one naming record 1", name, err)
		}
	}
}

// FuzzReader: any input is read without a panic, and every record read
// is one the reader accepts again after writing it out.
func FuzzReader(f *testing.F) {
	b, _ := sample().MarshalLine()
	f.Add(b)
	f.Add(append(b, b...))
	f.Add([]byte(`{"schema":1,"game":"cachex","moves":[{"seat":1,"text":"STEAL"}],"result":{"winner":-1,"draw":true}}`))
	f.Add([]byte("{}\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := record.NewReader(bytes.NewReader(data))
		for range 100 {
			g, err := r.Next()
			if err != nil {
				return
			}
			line, err := g.MarshalLine()
			if err != nil {
				t.Fatalf("a record read cannot be written: %v", err)
			}
			if _, err := record.NewReader(bytes.NewReader(line)).Next(); err != nil {
				t.Fatalf("a record read and written is refused: %v\n%s", err, line)
			}
		}
	})
}
