package standings

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/results"
)

// WriteRecords writes the game records of the named leagues as JSON lines,
// one record.Game per line (docs/records.md), in schedule order.
func WriteRecords(ctx context.Context, st results.Store, leagues []string, w io.Writer) error {
	for _, name := range leagues {
		err := results.EachGame(ctx, st, name, func(g results.Game) error {
			line, err := g.Record.MarshalLine()
			if err != nil {
				return err
			}
			if _, err := w.Write(line); err != nil {
				return fmt.Errorf("write records: %w", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// GameRow is one game in the games export.
type GameRow struct {
	League    string    `json:"league"`
	ID        string    `json:"id"`
	Pairing   string    `json:"pairing"`
	Pair      int       `json:"pair"`
	Index     int       `json:"game_index"`
	Seed      uint64    `json:"seed"`
	Seat0     string    `json:"seat0"`
	Seat1     string    `json:"seat1"`
	Winner    string    `json:"winner"` // agent name; "" for a draw or no result
	Draw      bool      `json:"draw"`
	Score0    *int      `json:"score0,omitempty"`
	Score1    *int      `json:"score1,omitempty"`
	Reason    string    `json:"reason"`
	Forfeit   string    `json:"forfeit,omitempty"`
	Plies     int       `json:"plies"`
	Penalties [2]string `json:"penalties"` // per seat, "kind=n ..."
	// Skipped names the agents whose turns were skipped after they died:
	// the game was decided by the profile's dead-agent rule.
	Skipped []string  `json:"skipped_turns,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
}

// GameRows flattens games for export.
func GameRows(games []results.Game) []GameRow {
	out := make([]GameRow, 0, len(games))
	for _, g := range games {
		r := g.Record
		row := GameRow{
			League: g.Match.League, ID: g.Match.ID, Pairing: g.Match.Pairing, Pair: g.Match.Pair, Index: g.Match.Index,
			Seed: g.Match.Seed, Seat0: r.Agents[0].Name, Seat1: r.Agents[1].Name, Draw: r.Result.Draw,
			Reason: r.Result.Reason, Forfeit: r.Result.Forfeit, Plies: len(r.Moves), Started: r.Started, Ended: r.Ended,
		}
		for seat, s := range r.Skipped() {
			if s {
				row.Skipped = append(row.Skipped, r.Agents[seat].Name)
			}
		}
		if !r.Result.Draw && r.Result.Winner >= 0 && r.Result.Winner < 2 {
			row.Winner = r.Agents[r.Result.Winner].Name
		}
		if len(r.Result.Scores) == 2 {
			s0, s1 := r.Result.Scores[0], r.Result.Scores[1]
			row.Score0, row.Score1 = &s0, &s1
		}
		for seat := range 2 {
			p := r.Penalties(seat)
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(p)) {
				parts = append(parts, fmt.Sprintf("%s=%d", k, p[k]))
			}
			row.Penalties[seat] = strings.Join(parts, " ")
		}
		out = append(out, row)
	}
	return out
}

// WriteGames exports games as "csv" or "json".
func WriteGames(w io.Writer, format string, games []results.Game) error {
	rows := GameRows(games)
	switch format {
	case "json":
		return writeJSON(w, rows)
	case "csv":
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"league", "id", "pairing", "pair", "game_index", "seed", "seat0", "seat1", "winner", "draw",
			"score0", "score1", "reason", "forfeit", "plies", "penalties0", "penalties1", "started", "ended"})
		for _, r := range rows {
			sc := func(p *int) string {
				if p == nil {
					return ""
				}
				return strconv.Itoa(*p)
			}
			_ = cw.Write([]string{r.League, r.ID, r.Pairing, strconv.Itoa(r.Pair), strconv.Itoa(r.Index),
				strconv.FormatUint(r.Seed, 10), r.Seat0, r.Seat1, r.Winner, strconv.FormatBool(r.Draw),
				sc(r.Score0), sc(r.Score1), r.Reason, r.Forfeit, strconv.Itoa(r.Plies), r.Penalties[0], r.Penalties[1],
				r.Started.Format(time.RFC3339Nano), r.Ended.Format(time.RFC3339Nano)})
		}
		cw.Flush()
		return cw.Error()
	}
	return fmt.Errorf("unknown export format %q (known: csv, json)", format)
}

// standingsJSON is the JSON form of one league's standings.
type standingsJSON struct {
	League    string            `json:"league"`
	Game      string            `json:"game"`
	Params    map[string]string `json:"params,omitempty"`
	Profile   string            `json:"profile"`
	Overrides []string          `json:"overrides,omitempty"`
	Format    string            `json:"format"`
	Scheduled int               `json:"scheduled"`
	Played    int               `json:"played"`
	Skipped   int               `json:"skipped_games,omitempty"` // games decided with a dead agent's turns skipped
	Rows      []Row             `json:"standings"`
	Pairs     []PairRow         `json:"pairs,omitempty"`
	SPRT      *sprtJSON         `json:"sprt,omitempty"`
	Arena     []string          `json:"arena,omitempty"`    // the arena builds that refereed the games
	Openings  string            `json:"openings,omitempty"` // the opening suite the games started from
}

type sprtJSON struct {
	leaguefile.SPRTConfig
	A        string  `json:"a"`
	B        string  `json:"b"`
	Games    int     `json:"games"`
	Pairs    int     `json:"pairs"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Decision string  `json:"decision"`
}

// WriteStandings exports standings as "csv" (one row per agent and league)
// or "json".
func WriteStandings(w io.Writer, format string, all []*Standings) error {
	switch format {
	case "json":
		var out []standingsJSON
		for _, s := range all {
			j := standingsJSON{League: s.League.Name, Game: s.League.Game, Params: s.League.Params, Profile: s.League.Profile,
				Overrides: s.League.Overrides, Format: s.League.Format, Scheduled: s.Scheduled, Played: s.Played, Skipped: s.Skipped, Pairs: s.Pairs, Arena: s.Arena, Openings: s.Openings}
			j.Rows = s.Rows
			if t := s.SPRT; t != nil {
				j.SPRT = &sprtJSON{SPRTConfig: t.SPRTConfig, A: t.A, B: t.B, Games: t.Games, Pairs: t.Pairs,
					LLR: t.LLR, Lower: t.Lower, Upper: t.Upper, Decision: t.Decision.String()}
			}
			out = append(out, j)
		}
		return writeJSON(w, out)
	case "csv":
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"league", "rank", "agent", "games", "w", "d", "l", "score", "elo", "elo_lo", "elo_hi",
			"timeouts", "illegal", "crashes"})
		f := func(x float64) string {
			switch {
			case math.IsNaN(x):
				return ""
			case math.IsInf(x, 1):
				return "+inf"
			case math.IsInf(x, -1):
				return "-inf"
			}
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		for _, s := range all {
			for _, r := range s.Rows {
				_ = cw.Write([]string{s.League.Name, strconv.Itoa(r.Rank), r.Agent, strconv.Itoa(r.Games), strconv.Itoa(r.W),
					strconv.Itoa(r.D), strconv.Itoa(r.L), strconv.FormatFloat(r.Score, 'f', -1, 64), f(r.Elo), f(r.EloLo), f(r.EloHi),
					strconv.Itoa(r.Timeout), strconv.Itoa(r.Illegal), strconv.Itoa(r.Crash)})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	return fmt.Errorf("unknown export format %q (known: csv, json)", format)
}

// jsonFloat is a float that JSON, which has no infinities, writes as the
// strings "+inf" and "-inf" (an Elo estimate from all-won pairs is +Inf;
// null would lose its sign), and as null when it is not a number (no
// estimate at all).
type jsonFloat float64

// MarshalJSON writes "+inf", "-inf" or null for non-finite values.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsNaN(x):
		return []byte("null"), nil
	case math.IsInf(x, 1):
		return []byte(`"+inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-inf"`), nil
	}
	return json.Marshal(x)
}

// MarshalJSON writes non-finite ratings as jsonFloat does.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	return json.Marshal(struct {
		plain
		Elo   jsonFloat `json:"elo"`
		EloLo jsonFloat `json:"elo_lo"`
		EloHi jsonFloat `json:"elo_hi"`
		EloSE jsonFloat `json:"elo_se"`
	}{plain(r), jsonFloat(r.Elo), jsonFloat(r.EloLo), jsonFloat(r.EloHi), jsonFloat(r.EloSE)})
}

// MarshalJSON writes non-finite ratings as jsonFloat does.
func (p PairRow) MarshalJSON() ([]byte, error) {
	type plain PairRow
	return json.Marshal(struct {
		plain
		Elo   jsonFloat `json:"elo"`
		EloLo jsonFloat `json:"elo_lo"`
		EloHi jsonFloat `json:"elo_hi"`
	}{plain(p), jsonFloat(p.Elo), jsonFloat(p.EloLo), jsonFloat(p.EloHi)})
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
