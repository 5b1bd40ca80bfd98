// Package standings reads a stored league back: its table (Bradley–Terry
// Elo with intervals, the cross-table, pentanomial pairs, the SPRT of
// format ab), the Swiss table and knockout bracket replayed from the
// stored configuration, standings by worker, and the exports of records,
// games and standings. It reads the store one record at a time and knows
// nothing of the runner.
package standings

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"arena/arena/league/leaguefile"
	"arena/arena/ratings"
	"arena/arena/record"
	"arena/arena/results"
)

// Standings is a league's table: results per agent with Bradley–Terry Elo
// and 95% intervals, the cross-table, pentanomial summaries of the
// colour-swapped pairs and, for format ab, the SPRT.
type Standings struct {
	League    results.League
	Scheduled int // games in the schedule (for ab: the most the SPRT may use)
	Played    int
	Rows      []Row     // ranked
	Cross     [][]Cell  // Cross[i][j]: Rows[i]'s results against Rows[j]
	Pairs     []PairRow // one per pairing
	SPRT      *SPRTStatus
	// FitNote explains missing ratings (e.g. no games yet).
	FitNote string
	// Skipped is the number of games in which an agent's turns were
	// skipped after it died (hex cross-out's course rule): the survivor
	// moved alone, so the result says little about the two agents.
	Skipped int
	// Stages are the Swiss table and the knockout bracket (nil for the
	// other formats).
	Stages *StageTables
	// Arena lists the arena builds that refereed the games (record.Game's
	// Arena), sorted; games recorded before the stamp existed add none.
	Arena []string
	// Openings says which opening suite the games started from ("" for
	// the game's own start).
	Openings string
}

// Row is one agent's line.
type Row struct {
	Rank    int     `json:"rank"`
	Agent   string  `json:"agent"`
	Games   int     `json:"games"`
	W       int     `json:"w"`
	D       int     `json:"d"`
	L       int     `json:"l"`
	Score   float64 `json:"score"` // points: a win 1, a draw ½
	Elo     float64 `json:"elo"`
	EloLo   float64 `json:"elo_lo"` // 95% interval from the fit
	EloHi   float64 `json:"elo_hi"`
	EloSE   float64 `json:"elo_se"`
	Timeout int     `json:"timeouts"` // timeout and late replies
	Illegal int     `json:"illegal"`  // illegal and unparseable moves
	Crash   int     `json:"crashes"`  // dead processes, agent errors, memory
	// Penalties counts every event by its kind.
	Penalties map[string]int `json:"penalties"`
	// Skipped counts the agent's games decided with its own turns skipped
	// (SkippedAgainst: its opponent's) after a death.
	Skipped        int `json:"skipped_games"`
	SkippedAgainst int `json:"skipped_against_games"`
	// Contention counts the timeouts marked possibly contention: late
	// while waiting for a CPU long enough to explain the overrun.
	Contention int `json:"possibly_contention"`
}

// Cell is one agent's results against one opponent.
type Cell struct{ W, D, L int }

// Games is the number of games in the cell.
func (c Cell) Games() int { return c.W + c.D + c.L }

// Score is the points in the cell.
func (c Cell) Score() float64 { return float64(c.W) + float64(c.D)/2 }

// PairRow summarises one pairing's colour-swapped pairs from A's side.
type PairRow struct {
	Pairing  string        `json:"pairing"`
	A        string        `json:"a"`
	B        string        `json:"b"`
	Penta    ratings.Penta `json:"penta"` // pairs by A's pair score 0, ½, 1, 1½, 2
	Unpaired int           `json:"unpaired"`
	Elo      float64       `json:"elo"` // A over B, from the pairs
	EloLo    float64       `json:"elo_lo"`
	EloHi    float64       `json:"elo_hi"`
	// Note says why the interval is one-sided or missing.
	Note string `json:"note,omitempty"`
}

// SPRTStatus is the sequential test's state.
type SPRTStatus struct {
	leaguefile.SPRTConfig
	A, B         string
	Games, Pairs int
	LLR          float64
	Lower, Upper float64
	Decision     ratings.Decision
}

// penaltyClass sorts the referee's failure kinds into the table's columns.
func penaltyClass(kind string) string {
	switch kind {
	case "timeout", "late":
		return "timeout"
	case "illegal", "unparseable":
		return "illegal"
	case "dead", "error", "memory", "no-show":
		return "crash"
	}
	return ""
}

// Report computes the standings of a stored league in one pass over its
// stored games, holding one record at a time.
func Report(ctx context.Context, st results.Store, name string) (*Standings, error) {
	l, agents, err := st.League(ctx, name)
	if err != nil {
		return nil, err
	}
	scheduled, err := results.MatchCount(ctx, st, name)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name
	}
	pass := newStandingsPass(l, names, scheduled)
	// Swiss and knockout tables replay the format over the results: a few
	// games per entrant and round, kept as points by match id.
	var stagePts map[string]float64
	if l.Format == leaguefile.Swiss || l.Format == leaguefile.Knockout {
		stagePts = map[string]float64{}
	}
	err = results.EachGame(ctx, st, name, func(g results.Game) error {
		pass.add(g)
		if stagePts != nil {
			stagePts[g.Match.ID] = g.Record.Outcome(0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s := pass.finish()
	if s.Stages, err = stageTables(l, stagePts); err != nil {
		return nil, err
	}
	if s.Stages != nil && l.Format == leaguefile.Swiss {
		// Rounds are handed out one at a time: the schedule is the plan.
		if lg, err := leaguefile.Stored(l); err == nil {
			s.Scheduled = max(s.Scheduled, lg.Tournament.Planned())
		}
	}
	return s, nil
}

// storedConfig is what standings read back from a league's configuration.
type storedConfig struct {
	Agents   []leaguefile.HashedAgent   `json:"agents"`
	SPRT     *leaguefile.SPRTConfig     `json:"sprt"`
	Openings *leaguefile.HashedOpenings `json:"openings"`
}

// Compute builds standings from games. names gives the agents in their
// configured order; agents found only in games are added.
func Compute(l results.League, names []string, scheduled int, games []results.Game) *Standings {
	p := newStandingsPass(l, names, scheduled)
	for _, g := range games {
		p.add(g)
	}
	return p.finish()
}

// standingsPass builds standings game by game, holding per agent, per pair
// of agents and per unfinished colour-swapped pair, never per game: a
// league of any length is counted in the memory of its field.
type standingsPass struct {
	s      *Standings
	t      *table
	cfg    storedConfig
	sprt   *SPRTCount // format ab only
	builds map[string]bool
}

func newStandingsPass(l results.League, names []string, scheduled int) *standingsPass {
	p := &standingsPass{
		s: &Standings{League: l, Scheduled: scheduled},
		t: &table{idx: map[string]int{}, cross: map[[2]int]*Cell{}, totals: map[[2]int]*ratings.Totals{},
			halves: map[pairKey]*half{}, pairs: map[string]*PairRow{}},
		builds: map[string]bool{},
	}
	for _, n := range names {
		p.t.agent(n)
	}
	_ = json.Unmarshal([]byte(l.Config), &p.cfg)
	for _, a := range p.cfg.Agents {
		p.t.agent(a.Name)
	}
	p.s.Openings = p.cfg.Openings.Line()
	if l.Format == leaguefile.AB && p.cfg.SPRT != nil {
		a := ""
		if len(p.cfg.Agents) == 2 {
			a = p.cfg.Agents[0].Name
		}
		p.sprt = NewSPRTCount(a)
	}
	return p
}

// add counts one stored game.
func (p *standingsPass) add(g results.Game) {
	p.s.Played++
	p.t.add(p.s, g)
	if g.Record != nil && g.Record.Arena != "" {
		p.builds[g.Record.Arena] = true
	}
	if p.sprt != nil {
		p.sprt.Add(g.Match, g.Record)
	}
}

// finish fits, ranks and summarises what was added.
func (p *standingsPass) finish() *Standings {
	s := p.s
	s.Arena = slices.Sorted(maps.Keys(p.builds))
	p.t.rank(s, s.Played)
	s.Pairs = p.t.pairRows()
	if p.sprt != nil {
		st := &SPRTStatus{SPRTConfig: *p.cfg.SPRT, Games: s.Played}
		if len(p.cfg.Agents) == 2 {
			st.A, st.B = p.cfg.Agents[0].Name, p.cfg.Agents[1].Name
		}
		st.Pairs, st.LLR, st.Lower, st.Upper, st.Decision = p.sprt.Test(*p.cfg.SPRT)
		s.SPRT = st
	}
	return s
}

// pairKey is one colour-swapped pair of a pairing: the pair's two games,
// played from one opening (-1: the game's start).
type pairKey struct {
	pairing string
	pair    int
	opening int
}

// half holds A's scores in a pair's two games.
type half struct {
	score [2]float64
	have  [2]bool
}

// table accumulates the standings game by game. A colour-swapped pair is
// held in halves only until its second game comes, then counted in its
// pairing's row.
type table struct {
	idx       map[string]int
	rows      []*Row
	cross     map[[2]int]*Cell
	totals    map[[2]int]*ratings.Totals // by seats' agents, for the fit
	halves    map[pairKey]*half
	pairs     map[string]*PairRow
	pairOrder []string
}

func (t *table) agent(n string) int {
	if i, ok := t.idx[n]; ok {
		return i
	}
	t.idx[n] = len(t.rows)
	t.rows = append(t.rows, &Row{Agent: n, Penalties: map[string]int{}})
	return t.idx[n]
}

// add counts one game in both agents' rows, the cross-table, the fit and
// its colour-swapped pair.
func (t *table) add(s *Standings, g results.Game) {
	rec := g.Record
	var ix [2]int
	for seat := range 2 {
		ix[seat] = t.agent(rec.Agents[seat].Name)
	}
	for seat := range 2 {
		t.addSeat(rec, seat, ix)
	}
	tot := t.totals[ix]
	if tot == nil {
		tot = &ratings.Totals{A: ix[0], B: ix[1]}
		t.totals[ix] = tot
	}
	tot.Games++
	tot.PointsA += rec.Outcome(0)
	skipped := rec.Skipped()
	if skipped[0] || skipped[1] {
		s.Skipped++
	}
	for seat := range 2 {
		if skipped[seat] {
			t.rows[ix[seat]].Skipped++
			t.rows[ix[1-seat]].SkippedAgainst++
		}
	}

	// A is seat 0 in even games of a pairing, seat 1 in odd ones.
	aSeat := g.Match.Index % 2
	pr := t.pairs[g.Match.Pairing]
	if pr == nil {
		pr = &PairRow{Pairing: g.Match.Pairing, A: rec.Agents[aSeat].Name, B: rec.Agents[1-aSeat].Name}
		t.pairs[g.Match.Pairing] = pr
		t.pairOrder = append(t.pairOrder, g.Match.Pairing)
	}
	k := pairKey{g.Match.Pairing, g.Match.Pair, rec.OpeningIndex()}
	h := t.halves[k]
	if h == nil {
		h = &half{}
		t.halves[k] = h
	}
	h.score[aSeat] = rec.Outcome(aSeat)
	h.have[aSeat] = true
	if h.have[0] && h.have[1] {
		_ = pr.Penta.Add(h.score[0], h.score[1])
		delete(t.halves, k)
	}
}

// addSeat counts one seat's side of a game.
func (t *table) addSeat(rec *record.Game, seat int, ix [2]int) {
	r := t.rows[ix[seat]]
	r.Games++
	switch o := rec.Outcome(seat); {
	case rec.Result.Draw:
		r.D++
	case o == 1:
		r.W++
	default:
		r.L++
	}
	r.Score += rec.Outcome(seat)
	r.Contention += rec.Contention(seat)
	for k, n := range rec.Penalties(seat) {
		r.Penalties[k] += n
		switch penaltyClass(k) {
		case "timeout":
			r.Timeout += n
		case "illegal":
			r.Illegal += n
		case "crash":
			r.Crash += n
		}
	}
	c := t.cross[[2]int{ix[seat], ix[1-seat]}]
	if c == nil {
		c = &Cell{}
		t.cross[[2]int{ix[seat], ix[1-seat]}] = c
	}
	switch {
	case rec.Result.Draw:
		c.D++
	case rec.Result.Winner == seat:
		c.W++
	default:
		c.L++
	}
}

// rank fits the ratings (Bradley–Terry over every game, mean zero), ranks
// the rows and orders the cross-table with them.
func (t *table) rank(s *Standings, games int) {
	rows := t.rows
	var fit ratings.Fit
	fitted := false
	if games == 0 {
		s.FitNote = "no games yet"
	} else if f, err := ratings.FitBTTotals(len(rows), t.totalsList(), ratings.Options{}); err != nil {
		s.FitNote = "ratings: " + err.Error()
	} else {
		fit, fitted = f, true
	}
	for i, r := range rows {
		r.Elo, r.EloLo, r.EloHi, r.EloSE = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		// An agent with no games yet has no rating: the fit's prior would
		// put it at the field's mean, above agents that lost games.
		if fitted && r.Games > 0 {
			rt := fit.Ratings[i]
			r.Elo, r.EloLo, r.EloHi, r.EloSE = rt.Elo, rt.Lo, rt.Hi, rt.SE
		}
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := rows[order[x]], rows[order[y]]
		if (a.Games == 0) != (b.Games == 0) {
			return b.Games == 0 // agents without games last
		}
		if fitted && a.Elo != b.Elo && !math.IsNaN(a.Elo) && !math.IsNaN(b.Elo) {
			return a.Elo > b.Elo
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return false
	})
	for pos, i := range order {
		rows[i].Rank = pos + 1
		// Agents whose points and (shown) ratings are equal share a rank,
		// as 1, 1, 3.
		if pos > 0 {
			prev := rows[order[pos-1]]
			if prev.Score == rows[i].Score && (!fitted || fmtElo(prev.Elo) == fmtElo(rows[i].Elo)) {
				rows[i].Rank = prev.Rank
			}
		}
		s.Rows = append(s.Rows, *rows[i])
	}
	s.Cross = make([][]Cell, len(order))
	for x, i := range order {
		s.Cross[x] = make([]Cell, len(order))
		for y, j := range order {
			if c := t.cross[[2]int{i, j}]; c != nil {
				s.Cross[x][y] = *c
			}
		}
	}
}

// totalsList is the fit's input in a fixed order, so the fit does not
// depend on map order.
func (t *table) totalsList() []ratings.Totals {
	out := make([]ratings.Totals, 0, len(t.totals))
	for _, tot := range t.totals {
		out = append(out, *tot)
	}
	slices.SortFunc(out, func(x, y ratings.Totals) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	return out
}

// pairRows are the pentanomial summaries, one per pairing, of the
// complete pairs; a pair still missing a game is counted unpaired.
func (t *table) pairRows() []PairRow {
	for k := range t.halves {
		t.pairs[k.pairing].Unpaired++
	}
	var out []PairRow
	for _, p := range t.pairOrder {
		pr := t.pairs[p]
		pr.Elo, pr.EloLo, pr.EloHi = math.NaN(), math.NaN(), math.NaN()
		if pr.Penta.N() > 0 {
			pr.Elo, pr.EloLo, pr.EloHi = pr.Penta.Elo()
			pr.EloLo, pr.EloHi, pr.Note = pairBounds(pr.Penta.N(), pr.Elo, pr.EloLo, pr.EloHi)
		}
		out = append(out, *pr)
	}
	return out
}

// pairLevel is the two-sided level of the pair intervals; a one-sided
// bound uses the same tail, (1-pairLevel)/2.
const pairLevel = 0.95

// pairBounds replaces an interval the normal approximation cannot give.
// When every pair had the same score the spread is zero and the interval
// would collapse onto the estimate ([0, 0], [+inf, +inf]). If every pair
// was won outright (or lost), the exact binomial bound on the pairs still
// says something one-sided: with n pairs all won, the chance of winning a
// pair is at least tail^(1/n). Any other collapsed interval is unknown.
func pairBounds(n int, est, lo, hi float64) (float64, float64, string) {
	if lo != hi && !math.IsNaN(lo) && !math.IsNaN(hi) {
		return lo, hi, ""
	}
	tail := (1 - pairLevel) / 2
	p := math.Pow(tail, 1/float64(n))
	switch {
	case math.IsInf(est, 1):
		return ratings.EloFromScore(p), math.Inf(1), fmt.Sprintf("one-sided: all %d pair(s) won", n)
	case math.IsInf(est, -1):
		return math.Inf(-1), ratings.EloFromScore(1 - p), fmt.Sprintf("one-sided: all %d pair(s) lost", n)
	}
	return math.NaN(), math.NaN(), "too few games"
}

// SPRTCount counts an ab league's games for its SPRT as they come: W/D/L
// and the pentanomial counts of complete pairs, with only the pairs still
// missing a game held apart. The standings and the runner, which stops a
// decided league, count with it alike.
type SPRTCount struct {
	a      string
	penta  ratings.Penta
	wdl    ratings.WDL
	halves map[pairKey]*half
}

// NewSPRTCount counts the games of agent a against its opponent.
func NewSPRTCount(a string) *SPRTCount {
	return &SPRTCount{a: a, halves: map[pairKey]*half{}}
}

// Add counts one stored game of match m.
func (p *SPRTCount) Add(m results.Match, rec *record.Game) {
	aSeat := seatOf(rec, p.a)
	if aSeat < 0 {
		return
	}
	sc := rec.Outcome(aSeat)
	switch {
	case rec.Result.Draw:
		p.wdl.D++
	case sc == 1:
		p.wdl.W++
	default:
		p.wdl.L++
	}
	k := pairKey{m.Pairing, m.Pair, rec.OpeningIndex()}
	h := p.halves[k]
	if h == nil {
		h = &half{}
		p.halves[k] = h
	}
	h.score[m.Index%2] = sc
	h.have[m.Index%2] = true
	if h.have[0] && h.have[1] {
		_ = p.penta.Add(h.score[0], h.score[1])
		delete(p.halves, k)
	}
}

// Test runs the SPRT over the games added.
func (p *SPRTCount) Test(c leaguefile.SPRTConfig) (pairs int, llr, lo, hi float64, d ratings.Decision) {
	t := ratings.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta}
	var r ratings.SPRTResult
	if c.Model == leaguefile.Trinomial {
		r = t.TestWDL(p.wdl)
	} else {
		r = t.TestPenta(p.penta)
	}
	return p.penta.N(), r.LLR, r.Lower, r.Upper, r.Decision
}

func seatOf(rec *record.Game, name string) int {
	for seat := range 2 {
		if rec.Agents[seat].Name == name {
			return seat
		}
	}
	return -1
}

// WorkerStandings are the standings of the games one machine played.
type WorkerStandings struct {
	Worker record.Worker // zero for games played locally
	*Standings
}

// ReportByWorker splits a stored league's standings by the machine that
// played each game (record.Game.Worker), to compare machines: a worker
// whose agents time out more may be slower or busier than the others.
// Games played without a cluster form the group with an empty name.
func ReportByWorker(ctx context.Context, st results.Store, name string) ([]WorkerStandings, error) {
	return reportGrouped(ctx, st, name, func(w record.Worker) string { return w.Name })
}

// ReportByWorkerClass splits a stored league's standings by the class of
// the worker that played each game (record.Worker.Class: standard, or
// slow when its benchmark score was under the league's threshold), so
// verdicts of slow machines stand apart. Games played without a cluster,
// or by workers with no class, form the group with an empty class.
func ReportByWorkerClass(ctx context.Context, st results.Store, name string) ([]WorkerStandings, error) {
	return reportGrouped(ctx, st, name, func(w record.Worker) string { return w.Class })
}

// reportGrouped splits the standings by a key of the worker; each group's
// Worker is the last game's.
func reportGrouped(ctx context.Context, st results.Store, name string, key func(record.Worker) string) ([]WorkerStandings, error) {
	l, agents, err := st.League(ctx, name)
	if err != nil {
		return nil, err
	}
	games, err := st.Games(ctx, name)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name
	}
	groups := map[string][]results.Game{}
	machines := map[string]record.Worker{}
	for _, g := range games {
		var w record.Worker
		if g.Record.Worker != nil {
			w = *g.Record.Worker
		}
		groups[key(w)] = append(groups[key(w)], g)
		machines[key(w)] = w
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]WorkerStandings, 0, len(keys))
	for _, k := range keys {
		out = append(out, WorkerStandings{Worker: machines[k], Standings: Compute(l, names, len(groups[k]), groups[k])})
	}
	return out, nil
}
