package standings_test

import (
	"math"
	"strings"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/arena/league/standings"
	"arena/arena/ratings"
	"arena/arena/results"
)

// The console standings of a small hand-made league, line by line: what
// each note and table says, and what it leaves out when there is nothing
// to say.
func TestStandingsText(t *testing.T) {
	three := &standings.Standings{
		League:    results.League{Name: "cup", Game: "bohnenspiel", Profile: "comp424-2017", Format: "round-robin", Params: map[string]string{"b": "2", "a": "1"}, Overrides: []string{"processes: builtin -> fresh"}},
		Scheduled: 6, Played: 5,
		Rows: []standings.Row{
			{Rank: 1, Agent: "alpha", Games: 4, W: 2, D: 1, L: 1, Score: 2.5, Elo: 35, EloLo: -100, EloHi: 170, Timeout: 2, Contention: 1},
			{Rank: 2, Agent: "beta", Games: 3, W: 1, D: 1, L: 1, Score: 1.5, Elo: 0, EloLo: math.Inf(-1), EloHi: 90, Skipped: 1},
			{Rank: 3, Agent: "gamma", Games: 3, W: 1, D: 0, L: 2, Score: 1, Elo: math.NaN(), SkippedAgainst: 1, Illegal: 1, Crash: 2},
		},
		Cross: [][]standings.Cell{
			{{}, {W: 1, D: 1}, {W: 1, L: 1}},
			{{D: 1}, {}, {W: 1}},
			{{W: 1, L: 1}, {}, {}},
		},
		Pairs: []standings.PairRow{
			{Pairing: "alpha-beta", Penta: ratings.Penta{0, 1, 0, 0, 0}, Unpaired: 1, Elo: -90, EloLo: math.Inf(-1), EloHi: 40, Note: "one-sided"},
			{Pairing: "alpha-gamma", Penta: ratings.Penta{0, 0, 1, 0, 0}, Elo: 0, EloLo: -200, EloHi: 200, Note: "too few games"},
			{Pairing: "beta-gamma"},
		},
		SPRT:    &standings.SPRTStatus{SPRTConfig: leaguefile.SPRTConfig{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: leaguefile.Trinomial}, A: "alpha", B: "beta", Games: 4, Pairs: 1, LLR: 0.125, Lower: -2.94, Upper: 2.94},
		FitNote: "fit on 5 games",
		Skipped: 1,
	}
	want := `league cup: bohnenspiel, profile comp424-2017, params a=1,b=2, round-robin, 5 of 6 games played
override processes: builtin -> fresh
RANK  AGENT    GAMES  W  D  L  SCORE  ELO  95% CI        TIMEOUTS  ILLEGAL  CRASHES
1     alpha    4      2  1  1  2.5    +35  [-100, +170]  2         0        0
2     beta *   3      1  1  1  1.5    0    ≤ +90         0         0        0
3     gamma *  3      1  0  2  1      -    -             0         1        2
(fit on 5 games)
* 1 game(s) decided with a dead agent's turns skipped (the profile's dead-agent rule; ` + "`penalties: {dead: loss}`" + ` in the league file changes it): beta 1
alpha: 1 of its 2 timeout(s) possibly contention (late while waiting for a CPU long enough to explain it); ` + "`arena league replay-late`" + ` replays those games

cross-table (row's points / games against column):
       alpha  beta   gamma
alpha  -      1.5/2  1/2
beta   0.5/1  -      1/1
gamma  1/2    .      -

colour-swapped pairs (first agent's pair score 0, ½, 1, 1½, 2; Elo from the pairs):
PAIRING      PAIRS            0  ½  1  1½  2  ELO  95% CI
alpha-beta   1 (+1 unpaired)  0  1  0  0   0  -90  ≤ +40 (one-sided)
alpha-gamma  1                0  0  1  0   0  0    [-200, +200]
beta-gamma   0                0  0  0  0   0  0    -
(pair ELO: the first agent over the second from these pairs alone. The table's ELO is one fit over all games, centred on 0 and pulled toward it by a prior of two draws per agent, so its gaps are smaller, most with few games.)

SPRT alpha vs beta (trinomial, elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR 0.12, bounds [-2.94, 2.94] after 4 games: continuing
`
	var b strings.Builder
	if err := three.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("standings text:\n%s\nwant:\n%s", got, want)
	}

	// Two agents, nobody skipped, no contention, no pairs, no fit note:
	// none of the notes, no cross-table (the table says it all); an SPRT
	// by pairs counts pairs.
	two := &standings.Standings{
		League:    results.League{Name: "ab", Game: "dots-and-boxes", Profile: "aigaming", Format: "ab"},
		Scheduled: 4, Played: 2,
		Rows: []standings.Row{
			{Rank: 1, Agent: "new", Games: 2, W: 2, Score: 2, Elo: 60, EloLo: 10, EloHi: math.Inf(1), Timeout: 1},
			{Rank: 2, Agent: "old", Games: 2, L: 2, Score: 0, Elo: -60, EloLo: -200, EloHi: -10},
		},
		Cross: [][]standings.Cell{{{}, {W: 2}}, {{L: 2}, {}}},
		SPRT:  &standings.SPRTStatus{SPRTConfig: leaguefile.SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1, Model: leaguefile.Pentanomial}, A: "new", B: "old", Games: 2, Pairs: 1, LLR: 3.5, Lower: -2.2, Upper: 2.9, Decision: ratings.AcceptH1},
	}
	want = `league ab: dots-and-boxes, profile aigaming, ab, 2 of 4 games played
RANK  AGENT  GAMES  W  D  L  SCORE  ELO  95% CI       TIMEOUTS  ILLEGAL  CRASHES
1     new    2      2  0  0  2      +60  ≥ +10        1         0        0
2     old    2      0  0  2  0      -60  [-200, -10]  0         0        0

SPRT new vs old (pentanomial, elo0=0 elo1=5 alpha=0.05 beta=0.1): LLR 3.50, bounds [-2.20, 2.90] after 1 pairs: H1 accepted: new is stronger than old by about 5 Elo or more
`
	b.Reset()
	if err := two.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("two-agent standings text:\n%s\nwant:\n%s", got, want)
	}
}
