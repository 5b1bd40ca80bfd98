package ratings

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.12g, want %.12g (±%g)", what, got, want, tol)
	}
}

func TestEloFromScore(t *testing.T) {
	// s = 0.75: odds 3, Elo = 400·log10(3) = 190.8485018878650.
	near(t, "EloFromScore(0.75)", EloFromScore(0.75), 190.848501887865, 1e-9)
	near(t, "EloFromScore(0.25)", EloFromScore(0.25), -190.848501887865, 1e-9)
	near(t, "EloFromScore(0.5)", EloFromScore(0.5), 0, 1e-12)
	// 400 Elo is odds 10, score 10/11.
	near(t, "ScoreFromElo(400)", ScoreFromElo(400), 10.0/11, 1e-15)
	near(t, "EloFromScore(10/11)", EloFromScore(10.0/11), 400, 1e-9)
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Errorf("EloFromScore(1), (0) = %v, %v; want +Inf, -Inf", EloFromScore(1), EloFromScore(0))
	}
	if !math.IsNaN(EloFromScore(1.5)) {
		t.Errorf("EloFromScore(1.5) = %v, want NaN", EloFromScore(1.5))
	}
	for _, e := range []float64{-800, -123.4, 0, 5, 350} {
		near(t, "round trip", EloFromScore(ScoreFromElo(e)), e, 1e-9)
	}
}

func TestWDLElo(t *testing.T) {
	// W=60 D=20 L=20: s = (60+10)/100 = 0.7.
	// Per-game variance: (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4+0.8+9.8)/100 = 0.16,
	// standard error sqrt(0.16/100) = 0.04, half-width 1.959964·0.04 = 0.0783986.
	// Elo(0.7) = 400·log10(7/3) = 147.190714; Elo(0.6216014) = 86.225015;
	// Elo(0.7783986) = 218.251778.
	w := WDL{W: 60, D: 20, L: 20}
	near(t, "Score", w.Score(), 0.7, 1e-15)
	near(t, "Var", w.Var(), 0.16, 1e-15)
	est, lo, hi := w.Elo()
	near(t, "est", est, 147.19071411783776, 1e-9)
	near(t, "lo", lo, 86.22501520030423, 1e-8)
	near(t, "hi", hi, 218.2517776410748, 1e-8)

	// An even match is centred on 0 and symmetric.
	est, lo, hi = WDL{W: 30, D: 40, L: 30}.Elo()
	near(t, "even est", est, 0, 1e-12)
	near(t, "even symmetry", lo, -hi, 1e-9)

	// All wins: zero variance, the interval collapses on +Inf.
	est, lo, _ = WDL{W: 5}.Elo()
	if !math.IsInf(est, 1) || !math.IsInf(lo, 1) {
		t.Errorf("all wins: est %v lo %v, want +Inf", est, lo)
	}
	est, _, _ = WDL{}.Elo()
	if !math.IsNaN(est) {
		t.Errorf("empty match est %v, want NaN", est)
	}
	// A wider level gives a wider interval.
	_, lo99, hi99 := WDL{W: 60, D: 20, L: 20}.EloLevel(0.99)
	if !(lo99 < 86.2 && hi99 > 218.3) {
		t.Errorf("99%% interval [%v, %v] not wider than the 95%% one", lo99, hi99)
	}
}

func TestPentaSummary(t *testing.T) {
	var p Penta
	pairs := [][2]float64{
		{0, 0},     // LL
		{0.5, 0},   // LD
		{0, 0.5},   // DL
		{0.5, 0.5}, // DD
		{1, 0},     // WL
		{0, 1},     // LW
		{1, 0.5},   // WD
		{1, 1},     // WW
		{1, 1},     // WW
		{0.5, 1},   // DW
	}
	for _, q := range pairs {
		if err := p.Add(q[0], q[1]); err != nil {
			t.Fatal(err)
		}
	}
	if want := (Penta{1, 2, 3, 2, 2}); p != want {
		t.Fatalf("counts %v, want %v", p, want)
	}
	if p[PairLL] != 1 || p[PairDD] != 3 || p[PairWW] != 2 {
		t.Errorf("named bins wrong: %v", p)
	}
	if err := p.Add(0.25, 1); err == nil {
		t.Error("Add accepted score 0.25")
	}
	// Pair scores 0,0.5,0.5,1,1,1,1.5,1.5,2,2 sum to 11 over 10 pairs: mean 1.1.
	// Squared deviations: 1.21 + 2·0.36 + 3·0.01 + 2·0.16 + 2·0.81 = 3.9,
	// variance 0.39 (points²); per game 0.55.
	if p.N() != 10 {
		t.Errorf("N = %d", p.N())
	}
	near(t, "Mean", p.Mean(), 1.1, 1e-15)
	near(t, "Var", p.Var(), 0.39, 1e-14)
	near(t, "Score", p.Score(), 0.55, 1e-15)

	// Per-game variance 0.39/4 = 0.0975 over 10 pairs: SE sqrt(0.00975),
	// half-width 1.959964·0.0987421 = 0.1935311.
	est, lo, hi := p.Elo()
	half := 1.959963984540054 * math.Sqrt(0.0975/10)
	near(t, "est", est, EloFromScore(0.55), 1e-12)
	near(t, "est value", est, 34.86007028756, 1e-9) // 400·log10(11/9)
	near(t, "lo", lo, EloFromScore(0.55-half), 1e-9)
	near(t, "hi", hi, EloFromScore(0.55+half), 1e-9)
}

// Pairs of perfectly correlated games (only LL and WW) carry half the
// information of independent games, so the pentanomial interval is wider
// than the trinomial one over the same games; anti-correlated pairs (only
// WL) give a zero-width pentanomial interval.
func TestPentaCorrelation(t *testing.T) {
	_, plo, phi := Penta{PairLL: 50, PairWW: 50}.Elo()
	_, wlo, whi := WDL{W: 100, L: 100}.Elo()
	if !(phi-plo > 1.3*(whi-wlo)) {
		t.Errorf("correlated pairs: penta width %v, wdl width %v", phi-plo, whi-wlo)
	}
	_, lo, hi := Penta{PairDD: 100}.Elo()
	if lo != 0 || hi != 0 {
		t.Errorf("anti-correlated pairs: interval [%v, %v], want [0, 0]", lo, hi)
	}
}
