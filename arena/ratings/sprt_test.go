package ratings

import (
	"math"
	"testing"
)

func TestSPRTBounds(t *testing.T) {
	// α = β = 0.05: log(0.05/0.95) = -log 19 = -2.944439, log(0.95/0.05) = log 19.
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	near(t, "lower", lo, -2.9444389791664403, 1e-12)
	near(t, "upper", hi, 2.9444389791664403, 1e-12)
	// α = 0.05, β = 0.1: log(0.1/0.95) = -2.251292, log(0.9/0.05) = log 18 = 2.890372.
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}.Bounds()
	near(t, "lower", lo, math.Log(0.1/0.95), 1e-12)
	near(t, "upper", hi, math.Log(18), 1e-12)

	if s.Decide(3) != AcceptH1 || s.Decide(-3) != AcceptH0 || s.Decide(0) != Continue {
		t.Error("Decide misplaces ±3 or 0")
	}
	if _, up := s.Bounds(); s.Decide(up) != AcceptH1 {
		t.Error("LLR on the upper bound should accept H1")
	}
	if AcceptH1.String() != "accept H1" || Continue.String() != "continue" {
		t.Error("Decision strings")
	}
	if s.Validate() != nil {
		t.Error("valid test rejected")
	}
	for _, bad := range []SPRT{
		{Elo0: 2, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 2, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 2, Alpha: 0.6, Beta: 0.5},
		{Elo0: math.Inf(-1), Elo1: 2, Alpha: 0.05, Beta: 0.05},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestSPRTDecisions(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}
	// Mean score 800/1460 = 0.548 per game, about +33 Elo: clearly H1.
	strong := Penta{10, 200, 800, 400, 50}
	if r := s.TestPenta(strong); r.Decision != AcceptH1 || r.LLR < r.Upper {
		t.Errorf("strong result: %+v", r)
	}
	// The mirror image, about -33 Elo: clearly H0.
	weak := Penta{50, 400, 800, 200, 10}
	if r := s.TestPenta(weak); r.Decision != AcceptH0 || r.LLR > r.Lower {
		t.Errorf("weak result: %+v", r)
	}
	// Few even pairs: not enough evidence either way.
	even := Penta{1, 3, 5, 3, 1}
	if r := s.TestPenta(even); r.Decision != Continue {
		t.Errorf("even result: %+v", r)
	}
	if r := s.TestWDL(WDL{W: 10, D: 12, L: 10}); r.Decision != Continue {
		t.Errorf("even W/D/L: %+v", r)
	}
	if r := s.TestWDL(WDL{W: 3000, D: 4000, L: 2000}); r.Decision != AcceptH1 {
		t.Errorf("strong W/D/L: %+v", r)
	}
	if s.LLRPenta(Penta{}) != 0 || s.LLRWDL(WDL{}) != 0 {
		t.Error("LLR of no games should be 0")
	}
	// All wins: empty bins are regularised, so the LLR is finite and positive.
	if llr := s.LLRWDL(WDL{W: 5}); !(llr > 0) || math.IsInf(llr, 0) {
		t.Errorf("all wins LLR = %v", llr)
	}
}

// regularised returns counts with empty bins replaced by 1e-3, as the
// package does before fitting.
func regularised(c []float64) []float64 {
	out := make([]float64, len(c))
	for k, v := range c {
		out[k] = v
		if v == 0 {
			out[k] = 1e-3
		}
	}
	return out
}

func logLikCounts(c, p []float64) float64 {
	var l float64
	for k := range c {
		l += c[k] * math.Log(p[k])
	}
	return l
}

// goldenMax maximises a concave f on (a, b) by golden-section search and
// returns the maximiser and the maximum.
func goldenMax(f func(float64) float64, a, b float64) (float64, float64) {
	phi := (math.Sqrt(5) - 1) / 2
	x1, x2 := b-phi*(b-a), a+phi*(b-a)
	f1, f2 := f(x1), f(x2)
	for range 70 {
		if f1 < f2 {
			a, x1, f1 = x1, x2, f2
			x2 = a + phi*(b-a)
			f2 = f(x2)
		} else {
			b, x2, f2 = x2, x1, f1
			x1 = b - phi*(b-a)
			f1 = f(x1)
		}
	}
	x := (a + b) / 2
	return x, f(x)
}

// refWDLMLE maximises Σ c·log p over trinomials (L, D, W) with expected
// score s directly in probability space. Writing p_D = d, the constraints
// p_W + p_D/2 = s and p_L + p_D + p_W = 1 give p_W = s - d/2 and
// p_L = 1 - s - d/2, so d ranges over (0, 2·min(s, 1-s)); the objective is
// concave in d.
func refWDLMLE(c []float64, s float64) []float64 {
	probs := func(d float64) []float64 { return []float64{1 - s - d/2, d, s - d/2} }
	d, _ := goldenMax(func(d float64) float64 { return logLikCounts(c, probs(d)) }, 0, 2*math.Min(s, 1-s))
	return probs(d)
}

// refPentaMLE does the same for pentanomials by nested golden-section
// searches over (p2, p3, p4). The constraints Σp = 1 and Σ p_k·k/4 = s fix
//
//	p1 = 4(s - p2/2 - 3p3/4 - p4),  p0 = 1 - 4s + p2 + 2p3 + 3p4,
//
// and the interior of the feasible set projects onto
//
//	p2 ∈ (0, 2·min(s, 1-s)),
//	p3 ∈ (0, min(4/3·(s - p2/2), 4(1 - s - p2/2))),
//	p4 ∈ (max(0, (4s - 1 - p2 - 2p3)/3), s - p2/2 - 3p3/4).
//
// Maximising a jointly concave function over the inner variables leaves a
// concave function of the outer ones, so each level is a 1-D concave search.
func refPentaMLE(c []float64, s float64) []float64 {
	probs := func(p2, p3, p4 float64) []float64 {
		return []float64{1 - 4*s + p2 + 2*p3 + 3*p4, 4 * (s - p2/2 - 3*p3/4 - p4), p2, p3, p4}
	}
	best4 := func(p2, p3 float64) (float64, float64) {
		return goldenMax(func(p4 float64) float64 { return logLikCounts(c, probs(p2, p3, p4)) },
			math.Max(0, (4*s-1-p2-2*p3)/3), s-p2/2-3*p3/4)
	}
	best3 := func(p2 float64) (float64, float64) {
		return goldenMax(func(p3 float64) float64 { _, v := best4(p2, p3); return v },
			0, math.Min(4.0/3*(s-p2/2), 4*(1-s-p2/2)))
	}
	p2, _ := goldenMax(func(p2 float64) float64 { _, v := best3(p2); return v }, 0, 2*math.Min(s, 1-s))
	p3, _ := best3(p2)
	p4, _ := best4(p2, p3)
	return probs(p2, p3, p4)
}

// refLLR is log L(p1) - log L(p0) on the regularised counts, with the two
// constrained MLEs found by the reference optimisers.
func refLLR(c, p0, p1 []float64) float64 {
	return logLikCounts(c, p1) - logLikCounts(c, p0)
}

func TestLLRWDLReference(t *testing.T) {
	cases := []struct {
		w    WDL
		test SPRT
	}{
		{WDL{W: 120, D: 230, L: 100}, SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}},
		{WDL{W: 40, D: 0, L: 60}, SPRT{Elo0: -10, Elo1: 10, Alpha: 0.05, Beta: 0.05}},
		{WDL{W: 7, D: 2, L: 0}, SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}},
		{WDL{W: 900, D: 1800, L: 880}, SPRT{Elo0: -1.75, Elo1: 0.25, Alpha: 0.05, Beta: 0.05}},
	}
	for _, c := range cases {
		counts := regularised(c.w.counts())
		s0, s1 := ScoreFromElo(c.test.Elo0), ScoreFromElo(c.test.Elo1)
		want := refLLR(counts, refWDLMLE(counts, s0), refWDLMLE(counts, s1))
		got := c.test.LLRWDL(c.w)
		near(t, "LLRWDL", got, want, 1e-8*(1+math.Abs(want)))
	}
}

func TestLLRPentaReference(t *testing.T) {
	cases := []struct {
		p    Penta
		test SPRT
	}{
		{Penta{20, 300, 900, 340, 25}, SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}},
		{Penta{20, 300, 900, 340, 25}, SPRT{Elo0: -1.75, Elo1: 0.25, Alpha: 0.05, Beta: 0.05}},
		{Penta{3, 10, 25, 14, 0}, SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}},
		{Penta{0, 5, 0, 2, 1}, SPRT{Elo0: -20, Elo1: 20, Alpha: 0.05, Beta: 0.05}},
	}
	for _, c := range cases {
		counts := regularised(c.p.counts())
		s0, s1 := ScoreFromElo(c.test.Elo0), ScoreFromElo(c.test.Elo1)
		want := refLLR(counts, refPentaMLE(counts, s0), refPentaMLE(counts, s1))
		got := c.test.LLRPenta(c.p)
		near(t, "LLRPenta", got, want, 1e-9*(1+math.Abs(want)))
	}
}

// For hypotheses close together and many pairs the GSPRT approaches the
// Gaussian likelihood ratio for the mean score,
// N·(s1 - s0)(2ŝ - s0 - s1)/(2σ̂²), with ŝ and σ̂² the per-pair mean and
// variance of the normalised pair score.
func TestLLRPentaNormalApproximation(t *testing.T) {
	p := Penta{200, 3000, 9000, 3400, 250}
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}
	s0, s1 := ScoreFromElo(0), ScoreFromElo(2)
	m, v := p.meanVar()
	approx := float64(p.N()) * (s1 - s0) * (2*m - s0 - s1) / (2 * v)
	got := s.LLRPenta(p)
	if math.Abs(got-approx) > 0.01*math.Abs(approx) {
		t.Errorf("LLR %v, normal approximation %v", got, approx)
	}
}

// Swapping the players reverses the outcome order and negates the Elo
// hypotheses; H1 and H0 keep their roles, so the LLR is unchanged. When the
// observed mean equals s0 exactly, p0 is the empirical distribution itself
// and the LLR is -N·KL(p̂‖p1) < 0.
func TestLLRSymmetry(t *testing.T) {
	p := Penta{12, 80, 200, 95, 9}
	r := Penta{9, 95, 200, 80, 12}
	s := SPRT{Elo0: -1, Elo1: 4, Alpha: 0.05, Beta: 0.05}
	m := SPRT{Elo0: 1, Elo1: -4, Alpha: 0.05, Beta: 0.05}
	near(t, "mirror", s.LLRPenta(p), m.LLRPenta(r), 1e-9)

	even := Penta{10, 40, 100, 40, 10}
	if llr := (SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}).LLRPenta(even); !(llr < 0) {
		t.Errorf("LLR at s = s0 is %v, want negative", llr)
	}
}
