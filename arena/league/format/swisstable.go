package format

import "slices"

// SwissRow is one entrant's line of a Swiss table.
type SwissRow struct {
	Rank    int
	Entrant string
	Start   int // start number, from 1
	Points  float64
	// Buchholz is the sum of the opponents' points (a bye adds nothing);
	// SonnebornBerger the sum of the entrant's points against each
	// opponent times that opponent's points.
	Buchholz        float64
	SonnebornBerger float64
	Rounds          []SwissRound
}

// SwissTable is a Swiss after its complete rounds.
type SwissTable struct {
	Rounds, Played int // rounds of the format, rounds complete
	Rows           []SwissRow
}

// Table ranks the entrants after the complete rounds: by points, then
// Buchholz, then Sonneborn-Berger, then start number.
func (s *Swiss) Table(results []Result) SwissTable {
	st, _ := s.replay(results)
	rows := make([]SwissRow, len(s.entrants))
	for i, e := range s.entrants {
		r := SwissRow{Entrant: e, Start: i + 1, Points: st.points[e], Rounds: st.rounds[e]}
		for _, rd := range r.Rounds {
			if rd.Opponent == "" {
				continue
			}
			r.Buchholz += st.points[rd.Opponent]
			r.SonnebornBerger += rd.Points * st.points[rd.Opponent]
		}
		rows[i] = r
	}
	slices.SortStableFunc(rows, func(a, b SwissRow) int {
		if c := cmpDesc(a.Points, b.Points); c != 0 {
			return c
		}
		if c := cmpDesc(a.Buchholz, b.Buchholz); c != 0 {
			return c
		}
		return cmpDesc(a.SonnebornBerger, b.SonnebornBerger)
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return SwissTable{Rounds: s.rounds, Played: st.done, Rows: rows}
}

// Ranking is the table's order.
func (s *Swiss) Ranking(results []Result) []string {
	t := s.Table(results)
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r.Entrant
	}
	return out
}
