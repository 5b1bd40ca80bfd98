// Package vector replays recorded course games (the JSON-lines vector schema
// of the rules documents) against a game implementation and reports every
// mismatch. Game tests and `arena rules verify` both use it.
package vector

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"

	"arena/engine"
)

// Record is one recorded game.
type Record struct {
	Game   string                     `json:"game"`
	Params map[string]json.RawMessage `json:"params"`
	Seed   json.RawMessage            `json:"seed"`
	Tag    string                     `json:"tag"`
	Moves  []string                   `json:"moves"`
	Plies  []map[string]any           `json:"plies"`
	Result map[string]any             `json:"result"`
}

// Label names the game for messages: its seed and tag.
func (r *Record) Label() string {
	return fmt.Sprintf("seed %s tag %s", string(r.Seed), r.Tag)
}

// EngineParams converts the JSON params to engine.Params (numbers and
// strings as text).
func (r *Record) EngineParams() (engine.Params, error) {
	p := engine.Params{}
	for k, raw := range r.Params {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			p[k] = s
			continue
		}
		var n json.Number
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&n); err != nil {
			return nil, fmt.Errorf("param %s: %s is neither a string nor a number", k, raw)
		}
		p[k] = n.String()
	}
	return p, nil
}

// Mismatch is one difference between the record and the engine.
type Mismatch struct {
	Ply   int    // ply index, -1 for the result
	Field string // vector field name
	Want  any
	Got   any
}

func (m Mismatch) String() string {
	where := "result"
	if m.Ply >= 0 {
		where = "ply " + strconv.Itoa(m.Ply)
	}
	return fmt.Sprintf("%s: %s: want %v, got %v", where, m.Field, show(m.Want), show(m.Got))
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Outcome is the verdict on one recorded game.
type Outcome struct {
	Line       int // 1-based line in the file
	Record     *Record
	Mismatches []Mismatch
	Err        error // the game could not be replayed at all
}

// OK reports whether the game replayed exactly.
func (o *Outcome) OK() bool { return o.Err == nil && len(o.Mismatches) == 0 }

// Replay plays one record on g and compares every field the engine can
// produce. It stops at the first move that cannot be applied.
func Replay(g engine.Game, rec *Record) ([]Mismatch, error) {
	params, err := rec.EngineParams()
	if err != nil {
		return nil, err
	}
	st, err := g.NewState(params)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	if len(rec.Plies) != len(rec.Moves)+1 {
		return nil, fmt.Errorf("%d plies for %d moves (want moves+1)", len(rec.Plies), len(rec.Moves))
	}
	hasScores := g.Info().HasScores
	var out []Mismatch
	for i, ply := range rec.Plies {
		last := i == len(rec.Moves)
		if !last && st.Terminal() {
			out = append(out, Mismatch{Ply: i, Field: "terminal", Want: false, Got: true})
			return out, nil
		}
		out = append(out, comparePly(st, i, ply, last, hasScores)...)
		if last {
			break
		}
		m, err := st.ParseMove(rec.Moves[i])
		if err != nil {
			out = append(out, Mismatch{Ply: i, Field: "move " + strconv.Quote(rec.Moves[i]), Want: "legal", Got: err.Error()})
			return out, nil
		}
		st.Apply(m)
	}
	if !st.Terminal() {
		out = append(out, Mismatch{Ply: -1, Field: "terminal", Want: true, Got: false})
		return out, nil
	}
	res := st.Result()
	if l, ok := st.(engine.EndingLabeler); ok {
		res.Reason = l.EndingLabel()
	}
	out = append(out, compareResult(rec.Result, res, hasScores)...)
	return out, nil
}

func comparePly(st engine.State, i int, ply map[string]any, last, hasScores bool) []Mismatch {
	var out []Mismatch
	check := func(field string, got any) {
		want, ok := ply[field]
		if !ok {
			return
		}
		if !sameJSON(want, got) {
			out = append(out, Mismatch{Ply: i, Field: field, Want: want, Got: got})
		}
	}
	if last {
		check("to_move", nil)
		check("legal_count", 0)
	} else {
		check("to_move", st.ToMove())
		check("legal_count", st.LegalCount())
	}
	check("board", st.Text())
	if hasScores {
		s := st.Scores()
		check("scores", []int{s[0], s[1]})
	}
	if pf, ok := st.(engine.PlyFielder); ok {
		extra := map[string]any{}
		pf.PlyFields(extra)
		keys := make([]string, 0, len(extra))
		for k := range extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if last && k == "legal" {
				continue // the framework lists moves even after the end; the vectors do not
			}
			check(k, extra[k])
		}
	}
	return out
}

func compareResult(want map[string]any, res engine.Result, hasScores bool) []Mismatch {
	var out []Mismatch
	var winner any
	if res.Winner != engine.NoSeat {
		winner = res.Winner
	}
	got := map[string]any{"winner": winner, "draw": res.Draw}
	if hasScores {
		got["scores"] = []int{res.Scores[0], res.Scores[1]}
	}
	if res.Reason != "" {
		got["reason"] = res.Reason
	}
	for _, f := range []string{"winner", "draw", "scores", "reason"} {
		w, ok := want[f]
		if !ok {
			continue
		}
		if !sameJSON(w, got[f]) {
			out = append(out, Mismatch{Ply: -1, Field: f, Want: w, Got: got[f]})
		}
	}
	return out
}

// sameJSON compares two values after a JSON round trip, so []int matches
// []any of float64 and so on.
func sameJSON(a, b any) bool {
	return reflect.DeepEqual(normalize(a), normalize(b))
}

func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}

// ReadFile parses a vector file.
func ReadFile(path string) ([]*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}

// Read parses JSON lines; blank lines are skipped. Errors name the line.
func Read(r io.Reader) ([]*Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []*Record
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		rec := &Record{}
		if err := json.Unmarshal(b, rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}

// Lookup resolves a game for a record.
type Lookup func(name string) (engine.Game, error)

// VerifyFile replays every game of a file and returns one outcome per game.
func VerifyFile(path string, lookup Lookup) ([]Outcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var outs []Outcome
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		o := Outcome{Line: line, Record: &Record{}}
		if err := json.Unmarshal(b, o.Record); err != nil {
			o.Err = fmt.Errorf("%s:%d: %w", path, line, err)
			outs = append(outs, o)
			continue
		}
		g, err := lookup(o.Record.Game)
		if err != nil {
			o.Err = err
		} else {
			o.Mismatches, o.Err = Replay(g, o.Record)
		}
		outs = append(outs, o)
	}
	if err := sc.Err(); err != nil {
		return outs, fmt.Errorf("%s: %w", path, err)
	}
	return outs, nil
}
