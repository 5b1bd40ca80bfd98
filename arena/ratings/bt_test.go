package ratings

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// games repeats a result k times.
func games(a, b int, score float64, k int) []Game {
	out := make([]Game, k)
	for i := range out {
		out[i] = Game{A: a, B: b, ScoreA: score}
	}
	return out
}

func concat(parts ...[]Game) []Game {
	var out []Game
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Two players, 3 wins and 1 loss: the MLE sets σ(δ) = 3/4, so the gap is
// 400·log10(3) = 190.8485 Elo. The information about δ is
// 4·σ(1-σ) = 4·3/16 = 3/4, so Var(δ) = 4/3 in natural units: with an anchor
// the other player's SE is sqrt(4/3)·400/ln10 = 200.5920; with the mean
// gauge each rating is ±δ/2 with SE sqrt(1/3)·400/ln10 = 100.2960.
func TestFitTwoPlayers(t *testing.T) {
	g := concat(games(0, 1, 1, 3), games(1, 0, 1, 1))
	f, err := FitBT(2, g, Options{NoPrior: true})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Converged {
		t.Error("not converged")
	}
	near(t, "r0", f.Ratings[0].Elo, 190.848501887865/2, 1e-6)
	near(t, "r1", f.Ratings[1].Elo, -190.848501887865/2, 1e-6)
	near(t, "se0", f.Ratings[0].SE, 100.29601441376458, 1e-6)
	near(t, "se1", f.Ratings[1].SE, 100.29601441376458, 1e-6)
	z := 1.959963984540054
	near(t, "lo0", f.Ratings[0].Lo, f.Ratings[0].Elo-z*100.29601441376458, 1e-5)
	near(t, "hi0", f.Ratings[0].Hi, f.Ratings[0].Elo+z*100.29601441376458, 1e-5)
	near(t, "loglik", f.LogLik, 3*math.Log(0.75)+math.Log(0.25), 1e-12)
	d, se := f.Diff(0, 1)
	near(t, "diff", d, 190.848501887865, 1e-6)
	near(t, "diff se", se, 200.59202882752916, 1e-6)

	f, err = FitBT(2, g, Options{NoPrior: true, Anchor: &Anchor{Agent: 0, Elo: 1500}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "anchored r0", f.Ratings[0].Elo, 1500, 1e-9)
	near(t, "anchored r1", f.Ratings[1].Elo, 1500-190.848501887865, 1e-6)
	near(t, "anchored se0", f.Ratings[0].SE, 0, 0)
	near(t, "anchored se1", f.Ratings[1].SE, 200.59202882752916, 1e-6)
	d2, se2 := f.Diff(0, 1)
	near(t, "anchored diff", d2, d, 1e-9)
	near(t, "anchored diff se", se2, se, 1e-9)

	// MeanElo moves everything without changing differences or SEs.
	f, err = FitBT(2, g, Options{NoPrior: true, MeanElo: 1000})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "mean1000 r0", f.Ratings[0].Elo, 1000+190.848501887865/2, 1e-6)
	near(t, "mean1000 se0", f.Ratings[0].SE, 100.29601441376458, 1e-6)
}

// The same games with the default prior (2 virtual draws per agent against
// the mean). With δ = θ0 - θ1 each agent sits at ±δ/2 from the mean, so the
// objective is 3·log σ(δ) + log σ(-δ) + 2·g(δ/2) with
// g(d) = ½·w·(log σ(d) + log σ(-d)), w = 2. Setting the derivative to zero:
//
//	3 - 4σ(δ) + w(½ - σ(δ/2)) = 0,
//
// solved here by bisection. The observed information about δ is
// 4σ(δ)(1-σ(δ)) + (w/2)σ(δ/2)(1-σ(δ/2)), and each rating is δ/2.
func TestFitTwoPlayersPrior(t *testing.T) {
	g := concat(games(0, 1, 1, 3), games(0, 1, 0, 1))
	f, err := FitBT(2, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const w = 2.0
	eq := func(d float64) float64 { return 3 - 4*sigmoid(d) + w*(0.5-sigmoid(d/2)) }
	lo, hi := 0.0, 5.0
	for range 200 {
		mid := (lo + hi) / 2
		if eq(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	delta := (lo + hi) / 2
	info := 4*sigmoid(delta)*(1-sigmoid(delta)) + w/2*sigmoid(delta/2)*(1-sigmoid(delta/2))
	near(t, "r0", f.Ratings[0].Elo, eloPerNat*delta/2, 1e-6)
	near(t, "r1", f.Ratings[1].Elo, -eloPerNat*delta/2, 1e-6)
	near(t, "se0", f.Ratings[0].SE, eloPerNat*math.Sqrt(1/info)/2, 1e-6)
	if f.Ratings[0].Elo >= 190.848501887865/2 {
		t.Errorf("prior did not shrink: %v", f.Ratings[0].Elo)
	}
}

// Three agents whose results match strengths 9:3:1 exactly (A-B 3:1 over
// 4 games, B-C 3:1 over 4, A-C 9:1 over 10). Every pair's observed score
// equals its expected score under those strengths, so they are the MLE:
// A-B = B-C = 400·log10(3), A-C = 400·log10(9), i.e. (190.85, 0, -190.85)
// with mean zero.
//
// Per-pair information n·p(1-p): A-B 0.75, B-C 0.75, A-C 0.9, giving the
// Laplacian L = [[1.65,-.75,-.9],[-.75,1.5,-.75],[-.9,-.75,1.65]]. With C
// anchored, the covariance of (A, B) is the inverse of L without C:
// [[1.5,.75],[.75,1.65]]/1.9125. With the mean gauge it is the
// pseudo-inverse L⁺ = (L + J/3)⁻¹ - J/3 (J all ones), computed here
// directly rather than by the package's gauge map.
func TestFitThreeTransitive(t *testing.T) {
	const (
		A, B, C = 0, 1, 2
		e3      = 190.848501887865
	)
	g := concat(
		games(A, B, 1, 3), games(A, B, 0, 1),
		games(B, C, 1, 3), games(C, B, 1, 1),
		games(A, C, 1, 9), games(A, C, 0, 1),
	)
	f, err := FitBT(3, g, Options{NoPrior: true})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "A", f.Ratings[A].Elo, e3, 1e-6)
	near(t, "B", f.Ratings[B].Elo, 0, 1e-6)
	near(t, "C", f.Ratings[C].Elo, -e3, 1e-6)

	lap := mat.NewDense(3, 3, []float64{1.65, -.75, -.9, -.75, 1.5, -.75, -.9, -.75, 1.65})
	var shifted, inv mat.Dense
	shifted.Apply(func(_, _ int, v float64) float64 { return v + 1.0/3 }, lap)
	if err := inv.Inverse(&shifted); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			want := (inv.At(i, j) - 1.0/3) * eloPerNat * eloPerNat
			near(t, "mean-gauge cov", f.Cov(i, j), want, 1e-6*math.Abs(want)+1e-6)
		}
	}

	f, err = FitBT(3, g, Options{NoPrior: true, Anchor: &Anchor{Agent: C}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "anchored A", f.Ratings[A].Elo, 2*e3, 1e-6)
	near(t, "anchored B", f.Ratings[B].Elo, e3, 1e-6)
	near(t, "anchored C", f.Ratings[C].Elo, 0, 0)
	near(t, "se A", f.Ratings[A].SE, eloPerNat*math.Sqrt(1.5/1.9125), 1e-6)
	near(t, "se B", f.Ratings[B].SE, eloPerNat*math.Sqrt(1.65/1.9125), 1e-6)
	near(t, "cov AB", f.Cov(A, B), eloPerNat*eloPerNat*0.75/1.9125, 1e-6)
	near(t, "se C", f.Ratings[C].SE, 0, 0)
}

func TestFitAllWins(t *testing.T) {
	// Agent 0 beats everyone: no finite MLE.
	g := concat(games(0, 1, 1, 5), games(0, 2, 1, 5), games(1, 2, 1, 3), games(2, 1, 1, 2))
	if _, err := FitBT(3, g, Options{NoPrior: true}); !errors.Is(err, ErrNoMLE) {
		t.Fatalf("NoPrior: err = %v, want ErrNoMLE", err)
	}
	f, err := FitBT(3, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Converged {
		t.Error("not converged")
	}
	r := f.Ratings
	if !(r[0].Elo > r[1].Elo && r[1].Elo > r[2].Elo) || math.IsInf(r[0].Elo, 0) || r[0].Elo > 1000 {
		t.Errorf("ratings %+v: want finite, ordered", r)
	}
	for i, x := range r {
		if !(x.SE > 0) || math.IsInf(x.SE, 0) {
			t.Errorf("agent %d: SE %v", i, x.SE)
		}
	}
	// Same for an agent that lost every game.
	g = concat(games(1, 0, 1, 4), games(2, 0, 1, 4), games(1, 2, 0.5, 4))
	if _, err := FitBT(3, g, Options{NoPrior: true}); !errors.Is(err, ErrNoMLE) {
		t.Fatalf("all losses NoPrior: err = %v", err)
	}
	if f, err = FitBT(3, g, Options{}); err != nil || !(f.Ratings[0].Elo < f.Ratings[1].Elo) {
		t.Fatalf("all losses: %v %+v", err, f.Ratings)
	}
	near(t, "drawn pair", f.Ratings[1].Elo, f.Ratings[2].Elo, 1e-6)
}

func TestFitDisconnected(t *testing.T) {
	// Groups {0,1} and {2,3,4} never meet; 4 never plays.
	g := concat(games(0, 1, 1, 3), games(0, 1, 0, 1), games(2, 3, 1, 3), games(3, 2, 1, 1))
	if _, err := FitBT(5, g, Options{NoPrior: true}); !errors.Is(err, ErrNoMLE) {
		t.Fatalf("NoPrior: err = %v, want ErrNoMLE", err)
	}
	f, err := FitBT(5, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Groups != 3 || f.Group[0] != 0 || f.Group[1] != 0 || f.Group[2] != 1 || f.Group[3] != 1 || f.Group[4] != 2 {
		t.Errorf("groups %d %v", f.Groups, f.Group)
	}
	// The two played groups are mirror images, so the prior places them
	// identically; the idle agent sits at the mean.
	near(t, "r0=r2", f.Ratings[0].Elo, f.Ratings[2].Elo, 1e-6)
	near(t, "r1=r3", f.Ratings[1].Elo, f.Ratings[3].Elo, 1e-6)
	near(t, "idle", f.Ratings[4].Elo, 0, 1e-6)
	if !(f.Ratings[0].Elo > f.Ratings[1].Elo) {
		t.Errorf("ratings %+v", f.Ratings)
	}
}

func TestFitSingleAgent(t *testing.T) {
	f, err := FitBT(1, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Ratings[0] != (Rating{}) || !f.Converged || f.Groups != 1 {
		t.Errorf("single: %+v", f)
	}
	f, err = FitBT(1, nil, Options{Anchor: &Anchor{Agent: 0, Elo: 1200}, NoPrior: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.Ratings[0] != (Rating{Elo: 1200, Lo: 1200, Hi: 1200}) {
		t.Errorf("anchored single: %+v", f.Ratings[0])
	}
	// No games at all: everyone at the mean.
	f, err = FitBT(3, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Ratings {
		near(t, "no games", r.Elo, 0, 0)
	}
}

func TestFitErrors(t *testing.T) {
	ok := []Game{{A: 0, B: 1, ScoreA: 1}}
	cases := []struct {
		name  string
		n     int
		games []Game
		opt   Options
	}{
		{"no agents", 0, nil, Options{}},
		{"agent range", 2, []Game{{A: 0, B: 2, ScoreA: 1}}, Options{}},
		{"self play", 2, []Game{{A: 1, B: 1, ScoreA: 1}}, Options{}},
		{"score", 2, []Game{{A: 0, B: 1, ScoreA: 1.5}}, Options{}},
		{"NaN score", 2, []Game{{A: 0, B: 1, ScoreA: math.NaN()}}, Options{}},
		{"anchor range", 2, ok, Options{Anchor: &Anchor{Agent: 2}}},
		{"prior", 2, ok, Options{Prior: -1}},
		{"level", 2, ok, Options{Level: 1}},
	}
	for _, c := range cases {
		if _, err := FitBT(c.n, c.games, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// synth plays games between n agents with true ratings spread 30 Elo apart,
// choosing opponents uniformly. Draws happen with probability
// drawRate·2·min(p, 1-p), taken equally from wins and losses, so the
// expected score stays p = ScoreFromElo(difference).
func synth(n, count int, drawRate float64, seed uint64) ([]Game, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	truth := make([]float64, n)
	for i := range truth {
		truth[i] = 30 * (float64(i) - float64(n-1)/2)
	}
	g := make([]Game, count)
	for k := range g {
		a := rng.IntN(n)
		b := rng.IntN(n - 1)
		if b >= a {
			b++
		}
		p := ScoreFromElo(truth[a] - truth[b])
		d := drawRate * 2 * min(p, 1-p)
		u := rng.Float64()
		s := 0.0
		switch {
		case u < p-d/2:
			s = 1
		case u < p+d/2:
			s = 0.5
		}
		g[k] = Game{A: a, B: b, ScoreA: s}
	}
	return g, truth
}

func TestFitRecovery(t *testing.T) {
	g, truth := synth(20, 10000, 0.3, 1)
	f, err := FitBT(20, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Converged || f.Iterations > 20 {
		t.Errorf("converged %v after %d iterations", f.Converged, f.Iterations)
	}
	var sumSq float64
	for i, r := range f.Ratings {
		z := (r.Elo - truth[i]) / r.SE // truth has mean zero, like the fit
		sumSq += z * z
		if math.Abs(z) > 4 {
			t.Errorf("agent %d: fit %.1f ± %.1f, truth %.1f", i, r.Elo, r.SE, truth[i])
		}
	}
	// Draws make the binomial SE conservative, so the z-scores should be
	// at most about unit scale.
	if rms := math.Sqrt(sumSq / 20); rms > 1.5 {
		t.Errorf("rms z = %v", rms)
	}
}

// The analytic gradient and Hessian (prior included) agree with central
// differences of the objective.
func TestGradHess(t *testing.T) {
	g, _ := synth(5, 60, 0.3, 3)
	tab := newTabulator(5)
	for _, x := range g {
		tab.add(x)
	}
	p := &problem{n: 5, pairs: tab.pairs(nil), prior: 2}
	theta := []float64{0.3, -1.2, 0.8, 0.1, 2.0}
	grad := make([]float64, 5)
	h := make([]float64, 25)
	p.gradHess(theta, grad, h, make([]float64, 5))
	const eps = 1e-5
	shift := func(k int, d float64) []float64 {
		x := append([]float64(nil), theta...)
		x[k] += d
		return x
	}
	g2 := make([]float64, 5)
	h2 := make([]float64, 25)
	scratch := make([]float64, 5)
	for k := range 5 {
		fd := (p.value(shift(k, eps)) - p.value(shift(k, -eps))) / (2 * eps)
		near(t, "gradient", grad[k], fd, 1e-6)
		p.gradHess(shift(k, eps), g2, h2, scratch)
		up := append([]float64(nil), g2...)
		p.gradHess(shift(k, -eps), g2, h2, scratch)
		for l := range 5 {
			fd := -(up[l] - g2[l]) / (2 * eps)
			near(t, "hessian", h[l*5+k], fd, 1e-6)
		}
	}
}

// TestFitTotalsSameAsGames checks that a fit from per-pair totals is the
// fit of the games they count, with pairs given in either order.
func TestFitTotalsSameAsGames(t *testing.T) {
	games := []Game{{A: 0, B: 1, ScoreA: 1}, {A: 1, B: 0, ScoreA: 0.5}, {A: 0, B: 2, ScoreA: 0}, {A: 2, B: 1, ScoreA: 1},
		{A: 1, B: 2, ScoreA: 1}, {A: 0, B: 1, ScoreA: 0}, {A: 2, B: 0, ScoreA: 0.5}, {A: 0, B: 1, ScoreA: 1}}
	want, err := FitBT(3, games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var totals []Totals
	for _, g := range games {
		totals = append(totals, Totals{A: g.A, B: g.B, Games: 1, PointsA: g.ScoreA})
	}
	// Merged: 0-1 three times as (0,1) and once as (1,0).
	totals = append(totals[:0:0], Totals{A: 0, B: 1, Games: 3, PointsA: 2}, Totals{A: 1, B: 0, Games: 1, PointsA: 0.5})
	for _, g := range games[2:5] {
		totals = append(totals, Totals{A: g.A, B: g.B, Games: 1, PointsA: g.ScoreA})
	}
	totals = append(totals, Totals{A: 2, B: 0, Games: 1, PointsA: 0.5})
	got, err := FitBTTotals(3, totals, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if math.Abs(got.Ratings[i].Elo-want.Ratings[i].Elo) > 1e-9 || math.Abs(got.Ratings[i].SE-want.Ratings[i].SE) > 1e-9 {
			t.Errorf("agent %d: totals %+v, games %+v", i, got.Ratings[i], want.Ratings[i])
		}
	}
	if _, err := FitBTTotals(3, []Totals{{A: 0, B: 1, Games: 1, PointsA: 2}}, Options{}); err == nil {
		t.Error("2 points in 1 game accepted")
	}
}

// TestFitTotalsChecks: each malformed entry is refused by name, and the
// edges of the valid ranges are accepted.
func TestFitTotalsChecks(t *testing.T) {
	ok := Totals{A: 0, B: 1, Games: 2, PointsA: 1}
	for _, c := range []struct {
		n    int
		bad  Totals
		want string
	}{
		{0, ok, "need at least one agent, got 0"},
		{3, Totals{A: -1, B: 1, Games: 1}, "totals 1: agents -1, 1 not in [0,3)"},
		{3, Totals{A: 3, B: 1, Games: 1}, "totals 1: agents 3, 1 not in [0,3)"},
		{3, Totals{A: 0, B: -1, Games: 1}, "totals 1: agents 0, -1 not in [0,3)"},
		{3, Totals{A: 0, B: 3, Games: 1}, "totals 1: agents 0, 3 not in [0,3)"},
		{3, Totals{A: 2, B: 2, Games: 1}, "totals 1: agent 2 plays itself"},
		{3, Totals{A: 0, B: 2, Games: -1, PointsA: 0}, "totals 1: 0 points in -1 games"},
		{3, Totals{A: 0, B: 2, Games: 1, PointsA: -0.5}, "totals 1: -0.5 points in 1 games"},
		{3, Totals{A: 0, B: 2, Games: 1, PointsA: 1.5}, "totals 1: 1.5 points in 1 games"},
	} {
		_, err := FitBTTotals(c.n, []Totals{ok, c.bad}, Options{Prior: 1})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v on %d agents: %v, want %q", c.bad, c.n, err, c.want)
		}
	}
	// Edges that are valid: agents 0 and n-1, no games, every point.
	for _, edge := range []Totals{{A: 0, B: 2, Games: 0, PointsA: 0}, {A: 2, B: 0, Games: 3, PointsA: 3}, {A: 1, B: 2, Games: 1, PointsA: 0}} {
		if _, err := FitBTTotals(3, []Totals{ok, edge}, Options{Prior: 1}); err != nil {
			t.Errorf("%+v refused: %v", edge, err)
		}
	}
	if f, err := FitBTTotals(1, nil, Options{}); err != nil || len(f.Ratings) != 1 {
		t.Errorf("one agent: %+v, %v", f, err)
	}
}
