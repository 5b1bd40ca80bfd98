package ratings

import (
	"fmt"
	"math"
)

// Decision is the state of a sequential test.
type Decision int

const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // LLR at or below the lower bound: Elo0 is favoured (fail)
	AcceptH1                 // LLR at or above the upper bound: Elo1 is favoured (pass)
)

func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "accept H0"
	case AcceptH1:
		return "accept H1"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo of the tested player over its opponent),
// with error rates Alpha (false H1) and Beta (false H0). Engine-testing
// gainer tests use e.g. {Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}.
type SPRT struct{ Elo0, Elo1, Alpha, Beta float64 }

// SPRTResult is the state of a test after some games.
type SPRTResult struct {
	LLR          float64
	Lower, Upper float64
	Decision     Decision
}

// Validate checks that the hypotheses are finite and ordered and that the
// error rates leave a non-empty continuation region.
func (s SPRT) Validate() error {
	if math.IsNaN(s.Elo0) || math.IsNaN(s.Elo1) || math.IsInf(s.Elo0, 0) || math.IsInf(s.Elo1, 0) || s.Elo0 >= s.Elo1 {
		return fmt.Errorf("ratings: SPRT needs finite Elo0 < Elo1, got %v, %v", s.Elo0, s.Elo1)
	}
	if !(s.Alpha > 0 && s.Beta > 0 && s.Alpha+s.Beta < 1) {
		return fmt.Errorf("ratings: SPRT needs Alpha, Beta > 0 with Alpha+Beta < 1, got %v, %v", s.Alpha, s.Beta)
	}
	return nil
}

// Bounds are the SPRT stopping bounds log(β/(1-α)) and log((1-β)/α).
func (s SPRT) Bounds() (lo, hi float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decide compares an LLR with the bounds.
func (s SPRT) Decide(llr float64) Decision {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// LLRPenta is the generalised log-likelihood ratio from colour-swapped pair
// counts (the default in engine testing, since it uses the pair
// correlation). Zero pairs give 0.
func (s SPRT) LLRPenta(p Penta) float64 {
	return gsprtLLR(p.counts(), ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// LLRWDL is the generalised log-likelihood ratio from trinomial counts,
// treating games as independent. Zero games give 0.
func (s SPRT) LLRWDL(w WDL) float64 {
	return gsprtLLR(w.counts(), ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// TestPenta evaluates the test on pair counts.
func (s SPRT) TestPenta(p Penta) SPRTResult { return s.result(s.LLRPenta(p)) }

// TestWDL evaluates the test on W/D/L counts.
func (s SPRT) TestWDL(w WDL) SPRTResult { return s.result(s.LLRWDL(w)) }

func (s SPRT) result(llr float64) SPRTResult {
	lo, hi := s.Bounds()
	return SPRTResult{LLR: llr, Lower: lo, Upper: hi, Decision: s.Decide(llr)}
}

// emptyBin stands in for a zero count so that every outcome has positive
// frequency; otherwise a hypothesis score outside the observed outcomes
// (e.g. any s0 after only wins) would have zero likelihood.
const emptyBin = 1e-3

// gsprtLLR is N·Σ p̂_k log(p1_k/p0_k) with p_j the multinomial MLE whose
// expected score is s_j (see the package documentation). counts are
// ordered worst to best with evenly spaced scores in [0, 1].
func gsprtLLR(counts []float64, s0, s1 float64) float64 {
	var raw float64
	for _, c := range counts {
		raw += c
	}
	if raw == 0 {
		return 0
	}
	K := len(counts)
	p := make([]float64, K)
	var n float64
	for k, c := range counts {
		if c == 0 {
			c = emptyBin
		}
		p[k] = c
		n += c
	}
	for k := range p {
		p[k] /= n
	}
	l0, l1 := tilt(p, s0), tilt(p, s1)
	// p_j,k = p̂_k / (1 + λ_j(a_k - s_j)), so log(p1/p0) is a difference of
	// the two log denominators.
	var llr float64
	for k, pk := range p {
		a := outcomeValue(k, K)
		llr += pk * (math.Log1p(l0*(a-s0)) - math.Log1p(l1*(a-s1)))
	}
	return n * llr
}

// tilt returns the Lagrange multiplier λ of the expected-score constraint:
// the root of f(λ) = Σ p_k x_k/(1 + λx_k), x_k = a_k - s. Since all p_k > 0
// and a runs over [0, 1], the denominators are positive exactly for
// λ ∈ (-1/(1-s), 1/s); f decreases there from +∞ to -∞, so the root is
// unique. Newton steps are used while they stay inside the shrinking
// bracket, bisection otherwise.
func tilt(p []float64, s float64) float64 {
	if !(s > 0 && s < 1) {
		return math.NaN()
	}
	K := len(p)
	lo, hi := -1/(1-s), 1/s
	l := 0.0
	for range 200 {
		var v, d float64
		for k, pk := range p {
			x := outcomeValue(k, K) - s
			q := 1 / (1 + l*x)
			v += pk * x * q
			d -= pk * x * x * q * q
		}
		switch {
		case v > 0:
			lo = l
		case v < 0:
			hi = l
		default:
			return l
		}
		next := l - v/d
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-l) <= 1e-15*(1+math.Abs(l)) {
			return next
		}
		l = next
	}
	return l
}
